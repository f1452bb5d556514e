import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { Simulator } from '../../lib/simulator';
import { DecodeError } from '../../lib/errors';
import { signatureIsValid, startHttpServer, type RecordedRequest, type Reply, type TestHttpServer } from '../helpers/httpServer';

const SECRET = 'calls-spec-secret';
const API_KEY = 'calls-spec-api-key';

describe('restClient typed calls (own HTTP server: shapes as the real service documents them)', () => {
  let server: TestHttpServer;
  let reply: (r: RecordedRequest) => Reply;
  let rest: RestClient;
  beforeEach(async () => {
    reply = () => ({ status: 200, body: {} });
    server = await startHttpServer((r) => reply(r));
    rest = restClient({ baseUrl: server.baseUrl, apiKey: API_KEY, secretKey: SECRET, serverTimeOffsetMs: () => 0 });
  });
  afterEach(() => server.close());
  const only = (): RecordedRequest => {
    expect(server.requests).toHaveLength(1);
    return server.requests[0]!;
  };
  const query = (r: RecordedRequest): Record<string, string> => Object.fromEntries(new URLSearchParams(r.rawQuery));

  it('serverTime: GET /api/v1/time, serverTime as text accepted', async () => {
    reply = () => ({ status: 200, body: { serverTime: '1700000000123' } });
    await expect(firstValueFrom(rest.serverTime())).resolves.toEqual({ serverTime: 1700000000123 });
    expect(only()).toMatchObject({ method: 'GET', path: '/api/v1/time', rawQuery: '' });
  });

  it('exchangeInfo: symbols and their filters, extra fields ignored', async () => {
    reply = () => ({
      status: 200,
      body: {
        timezone: 'UTC', serverTime: '1700000000000', brokerFilters: [], extra: { a: 1 },
        symbols: [{ symbol: 'BTCUSDT', symbolName: 'BTCUSDT', status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'USDT', baseAssetPrecision: '0.00001', quotePrecision: '0.01',
          icebergAllowed: false, filters: [{ filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '100000', tickSize: '0.01' }, { filterType: 'LOT_SIZE', minQty: 0.0001, maxQty: '4000', stepSize: '0.0001' }] }],
      },
    });
    const info = await firstValueFrom(rest.exchangeInfo());
    expect(info.serverTime).toBe(1700000000000);
    expect(info.symbols[0]).toMatchObject({ symbol: 'BTCUSDT', status: 'TRADING', filters: [{ filterType: 'PRICE_FILTER', tickSize: '0.01' }, { filterType: 'LOT_SIZE', minQty: '0.0001' }] });
    expect(only().path).toBe('/api/v1/exchangeInfo');
  });

  it('depth, trades and klines: public GETs with their parameters, numbers given as text or numbers', async () => {
    reply = (r) =>
      r.path === '/quote/v1/depth'
        ? { status: 200, body: { t: '1700000000000', b: [['30000', '1.5']], a: [[30001.5, '0.2']] } }
        : r.path === '/quote/v1/trades'
          ? { status: 200, body: [{ t: 1700000000000, p: '30000', q: '0.1', ibm: true }, { t: '1700000000001', p: 30000.5, q: '0.2', ibm: 'false', extra: 1 }] }
          : { status: 200, body: [[1700000000000, '1', '2', '0.5', '1.5', '10', 1700000059999, '15', 3, '4', '5'], ['1700000060000', 1.5, 1.6, 1.4, 1.5, 0]] };
    await expect(firstValueFrom(rest.depth({ symbol: 'BTCUSDT', limit: 5 }))).resolves.toEqual({ t: 1700000000000, b: [['30000', '1.5']], a: [['30001.5', '0.2']] });
    await expect(firstValueFrom(rest.trades({ symbol: 'BTCUSDT', limit: 100 }))).resolves.toEqual([
      { t: 1700000000000, p: '30000', q: '0.1', ibm: true },
      { t: 1700000000001, p: '30000.5', q: '0.2', ibm: false, extra: 1 },
    ]);
    await expect(firstValueFrom(rest.klines({ symbol: 'BTCUSDT', interval: '1m', startTime: 1700000000000, limit: 2 }))).resolves.toEqual([
      { t: 1700000000000, o: '1', h: '2', l: '0.5', c: '1.5', v: '10', closeTime: 1700000059999, qv: '15', n: 3 },
      { t: 1700000060000, o: '1.5', h: '1.6', l: '1.4', c: '1.5', v: '0' },
    ]);
    expect(server.requests.map((r) => [r.path, query(r)])).toEqual([
      ['/quote/v1/depth', { symbol: 'BTCUSDT', limit: '5' }],
      ['/quote/v1/trades', { symbol: 'BTCUSDT', limit: '100' }],
      ['/quote/v1/klines', { symbol: 'BTCUSDT', interval: '1m', startTime: '1700000000000', limit: '2' }],
    ]);
    expect(server.requests.every((r) => r.headers['x-ex-apikey'] === undefined)).toBe(true);
  });

  it('newOrder: signed form body; the documented order answer decodes with bare 64-bit ids kept exact', async () => {
    reply = () => ({
      status: 200,
      body: '{"accountId":1471090223379184384,"exchangeId":301,"symbol":"BTCUSDT","symbolName":"BTCUSDT","clientOrderId":"my-1",' +
        '"orderId":1551062936784000512,"price":"30000","origQty":"0.01","executedQty":"0","cumulativeQuoteQty":"0","avgPrice":"0",' +
        '"status":"NEW","timeInForce":"GTC","type":"LIMIT","side":"BUY","stopPrice":"0.0","icebergQty":"0.0","time":"1700000000000",' +
        '"updateTime":"1700000000000","isWorking":true,"reqAmount":"0"}',
    });
    const order = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'GTC', newClientOrderId: 'my-1' }));
    expect(order).toMatchObject({ accountId: '1471090223379184384', exchangeId: '301', orderId: '1551062936784000512', time: 1700000000000, isWorking: true, status: 'NEW', price: '30000' });
    const r = only();
    expect(r).toMatchObject({ method: 'POST', path: '/api/v1.1/spot/order', rawQuery: '' });
    expect(r.rawBody).toMatch(/^symbol=BTCUSDT&side=BUY&type=LIMIT&price=30000&quantity=0\.01&timeInForce=GTC&newClientOrderId=my-1&recvWindow=5000&timestamp=\d+&signature=[0-9a-f]{64}$/);
    expect(signatureIsValid(SECRET, r)).toBe(true);
  });

  it('testOrder, cancelOpenOrders: emit once when accepted', async () => {
    reply = (r) => ({ status: 200, body: r.path === '/api/v1/spot/orderTest' ? {} : { success: true } });
    await expect(lastValueFrom(rest.testOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.5' }).pipe(toArray()))).resolves.toEqual([undefined]);
    await expect(lastValueFrom(rest.cancelOpenOrders({ symbol: 'BTCUSDT', side: 'BUY' }).pipe(toArray()))).resolves.toEqual([undefined]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v1/spot/orderTest', 'DELETE /api/v1/spot/openOrders']);
    expect(server.requests[1]!.rawQuery).toMatch(/^symbol=BTCUSDT&side=BUY&recvWindow=5000&timestamp=\d+&signature=[0-9a-f]{64}$/);
    expect(server.requests.every((r) => signatureIsValid(SECRET, r))).toBe(true);
  });

  it('myTrades: signed query with its filters; ids exact, flags as text accepted', async () => {
    reply = () => ({
      status: 200,
      body: '[{"id":1551062936784000999,"symbol":"BTCUSDT","orderId":"1551062936784000512","ticketId":1551062936784001000,"price":"30000","qty":"0.01",' +
        '"commission":"0.00001","commissionAsset":"BTC","time":"1700000000000","isBuyer":"true","isMaker":false,"matchOrderId":0}]',
    });
    const trades = await firstValueFrom(rest.myTrades({ symbol: 'BTCUSDT', fromId: '1551062936784000000', limit: 50 }));
    expect(trades).toEqual([expect.objectContaining({ id: '1551062936784000999', ticketId: '1551062936784001000', isBuyer: true, time: 1700000000000, matchOrderId: '0' })]);
    expect(query(only())).toMatchObject({ symbol: 'BTCUSDT', fromId: '1551062936784000000', limit: '50' });
  });

  it('a body the codec refuses fails with a DecodeError naming the field; an unknown path answers a rejection', async () => {
    reply = () => ({ status: 200, body: { orderId: '1', symbol: 'BTCUSDT', side: 'BYU', status: 'NEW' } });
    const e = await firstValueFrom(rest.getOrder({ orderId: '1' })).catch((error: Error) => error);
    expect(e).toBeInstanceOf(DecodeError);
    expect((e as DecodeError).paths.join('\n')).toContain('side');
    reply = () => ({ status: 404, body: '<html><body>Not Found</body></html>' });
    await expect(firstValueFrom(rest.exchangeInfo())).rejects.toMatchObject({ name: 'RequestRejectedError', status: 404, msg: 'Not Found' });
  });
});

describe('restClient typed calls (simulator, real sockets)', () => {
  let sim: Simulator;
  let rest: RestClient;
  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0, seed: 5 });
    rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
  });
  afterEach(() => sim.close());

  it('serverTime and account', async () => {
    const { serverTime } = await firstValueFrom(rest.serverTime());
    expect(Number.isSafeInteger(serverTime)).toBe(true);
    const account = await firstValueFrom(rest.account());
    expect(account.balances).toEqual(expect.arrayContaining([expect.objectContaining({ asset: 'USDT', free: '100000', locked: '0' })]));
  });

  it('newOrder, getOrder, openOrders, cancelOrder: one order through its life', async () => {
    const placed = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5', timeInForce: 'GTC', newClientOrderId: 'calls-spec-1' }));
    expect(placed).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', status: 'NEW', clientOrderId: 'calls-spec-1' });
    expect(placed.orderId).toMatch(/^\d+$/);
    await expect(firstValueFrom(rest.getOrder({ orderId: placed.orderId }))).resolves.toMatchObject({ orderId: placed.orderId, status: 'NEW' });
    await expect(firstValueFrom(rest.openOrders({ symbol: 'BTCUSDT' }))).resolves.toEqual([expect.objectContaining({ orderId: placed.orderId })]);
    await expect(firstValueFrom(rest.cancelOrder({ orderId: placed.orderId }))).resolves.toMatchObject({ orderId: placed.orderId, status: 'CANCELED' });
    await expect(firstValueFrom(rest.openOrders())).resolves.toEqual([]);
  });

  it('exchangeInfo, depth, trades, klines, testOrder, cancelOpenOrders, myTrades, getOrder by clientOrderId', async () => {
    const info = await firstValueFrom(rest.exchangeInfo());
    expect(info.symbols.map((s) => s.symbol)).toEqual(['BTCUSDT']);
    sim.injectTrade({ symbol: 'BTCUSDT', price: '30000', quantity: '0.01' });
    const book = await firstValueFrom(rest.depth({ symbol: 'BTCUSDT', limit: 5 }));
    expect(book.b.length + book.a.length).toBeGreaterThan(0);
    expect(book.b.length).toBeLessThanOrEqual(5);
    const trades = await firstValueFrom(rest.trades({ symbol: 'BTCUSDT', limit: 10 }));
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.length).toBeLessThanOrEqual(10);
    const klines = await firstValueFrom(rest.klines({ symbol: 'BTCUSDT', interval: '1m', limit: 3 }));
    expect(klines.length).toBeGreaterThan(0);
    await expect(firstValueFrom(rest.testOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '1' }))).resolves.toBeUndefined();
    await expect(firstValueFrom(rest.openOrders())).resolves.toEqual([]); // a test order is not placed
    await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5', newClientOrderId: 'calls-spec-2' }));
    await expect(firstValueFrom(rest.getOrder({ clientOrderId: 'calls-spec-2' }))).resolves.toMatchObject({ clientOrderId: 'calls-spec-2', status: 'NEW' });
    await expect(firstValueFrom(rest.cancelOpenOrders({ symbol: 'BTCUSDT' }))).resolves.toBeUndefined();
    await expect(firstValueFrom(rest.openOrders())).resolves.toEqual([]);
    const taker = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1000000', quantity: '0.001' }));
    const mine = await firstValueFrom(rest.myTrades({ symbol: 'BTCUSDT' }));
    expect(mine).toEqual(expect.arrayContaining([expect.objectContaining({ orderId: taker.orderId, symbol: 'BTCUSDT' })]));
  });
});
