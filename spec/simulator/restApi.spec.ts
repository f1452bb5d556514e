import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { AccountTradeCodec, ExchangeInfoCodec, RestAccountCodec, RestKlineCodec, RestOrderCodec, RestTradeCodec } from '../../lib/codecs/rest';
import { manualClock, startSimulator, type ManualClock, type Simulator } from '../../lib/simulator';
import { call, signedCall } from './helpers';

const T0 = Date.UTC(2024, 0, 1, 12);

const decoded = <A>(codec: t.Decoder<unknown, A>, value: unknown): A => {
  const r = codec.decode(value);
  if (E.isLeft(r)) throw new Error(`${codec.name} failed on ${JSON.stringify(value).slice(0, 300)}`);
  return r.right;
};

describe('startSimulator: the REST API of issue 17', () => {
  let sim: Simulator;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT', 'ETHUSDT'], seed: 5 });
  });
  afterEach(() => sim.close());
  const get = (path: string, query = '') => call(sim, { path, query, signatureIn: 'none' });

  it('GET /api/v1/exchangeInfo lists every pair with precision and filters as decimal text', async () => {
    const r = await get('/api/v1/exchangeInfo');
    expect(r.status).toBe(200);
    const info = decoded(ExchangeInfoCodec, r.body);
    expect(info.symbols.map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(r.body.serverTime).toBe(String(T0));
    expect(r.body.symbols[0]).toMatchObject({ baseAsset: 'BTC', quoteAsset: 'USDT', status: 'TRADING', baseAssetPrecision: '0.0001', quotePrecision: '0.01' });
    expect(r.body.symbols[0].filters).toEqual([
      { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '100000000', tickSize: '0.01' },
      { filterType: 'LOT_SIZE', minQty: '0.0001', maxQty: '100000000', stepSize: '0.0001' },
      { filterType: 'MIN_NOTIONAL', minNotional: '0' },
      { filterType: 'TRADE_AMOUNT', minAmount: '0', maxAmount: '100000000' },
    ]);
  });

  it('GET /quote/v1/depth answers { t, b, a } with `limit` levels (default 100, max 200), bids descending, asks ascending', async () => {
    const r = await get('/quote/v1/depth', 'symbol=BTCUSDT&limit=5');
    expect(r.status).toBe(200);
    expect(r.body.t).toBe(T0);
    expect(r.body.b).toHaveLength(5);
    expect(r.body.a).toHaveLength(5);
    const price = (l: [string, string]): number => Number(l[0]);
    expect(r.body.b.map(price)).toEqual([...r.body.b.map(price)].sort((x, y) => y - x));
    expect(r.body.a.map(price)).toEqual([...r.body.a.map(price)].sort((x, y) => x - y));
    expect(price(r.body.b[0])).toBeLessThan(price(r.body.a[0]));
    expect((await get('/quote/v1/depth', 'symbol=BTCUSDT')).body.b).toHaveLength(100);
    expect((await get('/quote/v1/depth', 'symbol=BTCUSDT&limit=201')).body).toEqual({ code: -1130, msg: "Invalid data sent for parameter 'limit'." });
    expect((await get('/quote/v1/depth', 'symbol=NOPEUSDT')).body.code).toBe(-1121);
    expect((await get('/quote/v1/depth')).body.code).toBe(-1102);
  });

  it('GET /quote/v1/trades answers the latest trades oldest first as [{ t, p, q, ibm, v }] (limit ≤ 100)', async () => {
    const r = await get('/quote/v1/trades', 'symbol=ETHUSDT&limit=10');
    expect(r.status).toBe(200);
    const trades = r.body.map((x: unknown) => decoded(RestTradeCodec, x));
    expect(trades).toHaveLength(10);
    expect(Object.keys(r.body[0]).sort()).toEqual(['ibm', 'p', 'q', 't', 'v']);
    expect(typeof r.body[0].v).toBe('string');
    const ids = r.body.map((x: { v: string }) => BigInt(x.v));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    expect((await get('/quote/v1/trades', 'symbol=ETHUSDT')).body).toHaveLength(100);
    expect((await get('/quote/v1/trades', 'symbol=ETHUSDT&limit=101')).status).toBe(400);
  });

  it('GET /quote/v1/klines builds candles from the trade history: [[openTime, o, h, l, c, v, closeTime, qv, n]]', async () => {
    const r = await get('/quote/v1/klines', 'symbol=BTCUSDT&interval=1m&limit=3');
    expect(r.status).toBe(200);
    expect(r.body.length).toBeGreaterThan(0);
    expect(r.body.length).toBeLessThanOrEqual(3);
    for (const k of r.body) {
      const kline = decoded(RestKlineCodec, k);
      expect(kline.t % 60_000).toBe(0);
      expect(kline.closeTime).toBe(kline.t + 59_999);
      expect(Number(kline.l)).toBeLessThanOrEqual(Math.min(Number(kline.o), Number(kline.c)));
    }
    const all = await get('/quote/v1/klines', 'symbol=BTCUSDT&interval=1m');
    const first = all.body[0][0] as number;
    const after = await get('/quote/v1/klines', `symbol=BTCUSDT&interval=1m&startTime=${first + 1}`);
    expect(after.body.every((k: [number]) => k[0] > first)).toBe(true);
    expect((await get('/quote/v1/klines', 'symbol=BTCUSDT')).body.code).toBe(-1102);
    expect((await get('/quote/v1/klines', 'symbol=BTCUSDT&interval=7m')).body.code).toBe(-1130);
  });

  it('places, tests, queries (orderId or clientOrderId), lists, cancels orders and all open orders, with the documented order shape', async () => {
    const order = (q: string) => signedCall(sim, { method: 'POST', path: '/api/v1/spot/order', query: q });
    const test = await signedCall(sim, { method: 'POST', path: '/api/v1/spot/orderTest', query: 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=100' });
    expect([test.status, test.body]).toEqual([200, {}]);
    const badTest = await signedCall(sim, { method: 'POST', path: '/api/v1/spot/orderTest', query: 'symbol=BTCUSDT&side=BYU&type=LIMIT&quantity=0.01&price=100' });
    expect(badTest.body.code).toBe(-1117);
    const a = await order('symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=100&newClientOrderId=rest-a');
    const b = await order('symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=0.1&price=10&newClientOrderId=rest-b');
    await order('symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=0.1&price=11&newClientOrderId=rest-c');
    expect(a.body.orderId).toBe('1900000000000000001'); // the test order created nothing
    const placed = decoded(RestOrderCodec, a.body);
    expect(placed).toMatchObject({ orderId: '1900000000000000001', clientOrderId: 'rest-a', status: 'NEW', side: 'BUY' });
    expect(a.body).toMatchObject({ isWorking: true, time: String(T0), updateTime: String(T0), avgPrice: '0', executedQty: '0', cumulativeQuoteQty: '0' });

    const byClientId = await signedCall(sim, { path: '/api/v1/spot/order', query: 'origClientOrderId=rest-b' });
    expect(byClientId.body.orderId).toBe(b.body.orderId);
    const byId = await signedCall(sim, { path: '/api/v1/spot/order', query: `orderId=${b.body.orderId}` });
    expect(byId.body).toEqual(byClientId.body);

    const open = await signedCall(sim, { path: '/api/v1/spot/openOrders', query: 'symbol=ETHUSDT' });
    expect(open.body.map((o: { clientOrderId: string }) => o.clientOrderId)).toEqual(['rest-c', 'rest-b']);
    open.body.forEach((o: unknown) => decoded(RestOrderCodec, o));

    const canceled = await signedCall(sim, { method: 'DELETE', path: '/api/v1/spot/order', query: 'clientOrderId=rest-a' });
    expect(canceled.body).toMatchObject({ orderId: placed.orderId, status: 'CANCELED', isWorking: false });
    const all = await signedCall(sim, { method: 'DELETE', path: '/api/v1/spot/openOrders', query: 'symbol=ETHUSDT' });
    expect([all.status, all.body]).toEqual([200, { success: true }]);
    expect((await signedCall(sim, { path: '/api/v1/spot/openOrders' })).body).toEqual([]);
    const account = decoded(RestAccountCodec, (await signedCall(sim, { path: '/api/v1/account' })).body);
    expect(account.userId).toBe('1500000000000000001');
    expect(account.balances.find((x) => x.asset === 'USDT')).toEqual({ asset: 'USDT', assetId: 'USDT', assetName: 'USDT', total: '100000', free: '100000', locked: '0' });
  });

  it('GET /api/v1/account/trades lists the fills with text ids and times, filtered by symbol, time and id range', async () => {
    const buy = (symbol: string) =>
      signedCall(sim, { method: 'POST', path: '/api/v1/spot/order', query: `symbol=${symbol}&side=BUY&type=LIMIT&quantity=0.01&price=1000000` });
    expect((await buy('BTCUSDT')).body.status).toBe('FILLED');
    clock.advance(1000);
    expect((await buy('ETHUSDT')).body.status).toBe('FILLED');
    const all = await signedCall(sim, { path: '/api/v1/account/trades' });
    const trades = all.body.map((x: unknown) => decoded(AccountTradeCodec, x));
    expect(trades.length).toBeGreaterThanOrEqual(2);
    expect(all.body[0]).toMatchObject({ symbol: 'BTCUSDT', id: expect.stringMatching(/^19500000000000000\d\d$/), time: String(T0), isBuyer: true, isMaker: false });
    const eth = await signedCall(sim, { path: '/api/v1/account/trades', query: 'symbol=ETHUSDT' });
    expect(eth.body.every((x: { symbol: string }) => x.symbol === 'ETHUSDT')).toBe(true);
    const later = await signedCall(sim, { path: '/api/v1/account/trades', query: `startTime=${T0 + 1}` });
    expect(later.body).toEqual(eth.body);
    const fromId = await signedCall(sim, { path: '/api/v1/account/trades', query: `fromId=${all.body[1].id}&limit=1` });
    expect(fromId.body).toEqual([all.body[all.body.length - 1]]);
    expect((await signedCall(sim, { path: '/api/v1/account/trades', query: 'limit=0' })).status).toBe(400);
    expect((await signedCall(sim, { path: '/api/v1/account/trades', query: 'fromId=x' })).body.code).toBe(-1130);
  });
});

describe('startSimulator: rate limit and clock skew', () => {
  it('answers 429 with Retry-After over the limit, 418 with the ban length when the client keeps going, per client', async () => {
    const clock = manualClock(T0);
    const sim = await startSimulator({ clock, marketStepMs: 0, rateLimit: { maxRequests: 3, windowMs: 2000, banAfter: 2, banMs: 10_000 } });
    try {
      const time = () => fetch(`${sim.baseUrl}/api/v1/time`);
      const statuses: Array<[number, string | null]> = [];
      for (let i = 0; i < 6; i++) {
        const r = await time();
        statuses.push([r.status, r.headers.get('retry-after')]);
      }
      expect(statuses).toEqual([[200, null], [200, null], [200, null], [429, '2'], [429, '2'], [418, '10']]);
      // a request with the account's key is another client
      expect((await call(sim, { path: '/api/v1/time', signatureIn: 'none' })).status).toBe(200);
      clock.advance(2000);
      const banned = await time();
      expect([banned.status, banned.headers.get('retry-after'), await banned.json()]).toEqual([418, '8', { code: -1003, msg: 'IP banned for repeated requests after 429.' }]);
      clock.advance(8000);
      expect((await time()).status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('serves its own server time: clock plus clockSkewMs, moved by skewClock; signed calls are judged against it', async () => {
    const clock = manualClock(T0);
    const sim = await startSimulator({ clock, marketStepMs: 0, clockSkewMs: -2000 });
    try {
      expect(await (await fetch(`${sim.baseUrl}/api/v1/time`)).json()).toEqual({ serverTime: T0 - 2000 });
      const early = await call(sim, { path: '/api/v1/account', query: `timestamp=${T0}` });
      expect(early.body.code).toBe(-1021); // a client clock 2 s ahead is rejected
      expect((await signedCall(sim, { path: '/api/v1/account' })).status).toBe(200);
      sim.skewClock(500);
      expect(await (await fetch(`${sim.baseUrl}/api/v1/time`)).json()).toEqual({ serverTime: T0 + 500 });
    } finally {
      await sim.close();
    }
  });
});
