// Paper fills against a recording (issue 29, "Orders against the past"): the simulator's market from a recording,
// read by the library's own marketStreams and userStream on real sockets.
import { filter, firstValueFrom, lastValueFrom, shareReplay, takeWhile, toArray, type Observable, type Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import { marketStreams, type MarketStreams } from '../../lib/market/marketStreams';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import { manualClock, type ManualClock, type Simulator } from '../../lib/simulator';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import type { RecordedEvent, Recording } from '../../lib/testing/recording';
import type { OrderState } from '../../lib/user/orderState';
import { userStream, type UserStream } from '../../lib/user/userStream';
import { connectionOf } from '../user/fixtures';
import { call, signedCall } from './helpers';

/** Recorded times: the recording starts at T0. */
const T0 = Date.UTC(2024, 5, 1, 10, 0, 0);

/** A public data frame as the service sends it. */
const frame = (t: number, topic: string, data: object[], f = false, klineType?: string): RecordedEvent => ({
  t,
  k: 'f',
  d: JSON.stringify({
    symbol: 'BTCUSDT',
    symbolName: 'BTCUSDT',
    topic,
    params: { realtimeInterval: '24h', binary: 'false', ...(klineType === undefined ? {} : { klineType }) },
    data,
    f,
    sendTime: t,
    shared: false,
    id: '1',
  }),
});
const trade = (v: string, t: number, p: string, q: string, m = true): object => ({ v, t, p, q, m });
const depth = (t: number, b: string[][], a: string[][]): object => ({ e: 301, s: 'BTCUSDT', t, v: '7_301', o: 0, b, a });

/** A small recorded market: a book, two trades of history, then trades at +1 s and +2 s and a new book at +1.5 s. */
const RECORDING: Recording = {
  events: [
    { t: T0, k: 'start', v: 1, stream: 'public', symbols: ['BTCUSDT'], topics: ['trade', 'depth', 'kline_1m'] },
    { t: T0, k: 'open', epoch: 1 },
    frame(T0 + 10, 'depth', [depth(T0 + 9, [['29990.25', '1.5'], ['29980', '2']], [['30010.5', '0.4'], ['30020', '1.25']])], true),
    frame(T0 + 20, 'trade', [trade('5001', T0 - 500, '30000', '0.01'), trade('5002', T0 - 100, '29999.75', '0.0125', false)], true),
    frame(T0 + 30, 'kline', [{ t: T0, s: 'BTCUSDT', sn: 'BTCUSDT', o: '30000', h: '30000', l: '29999.75', c: '29999.75', v: '0.0225' }], true, '1m'),
    frame(T0 + 1000, 'trade', [trade('5003', T0 + 999, '29985', '0.3')]),
    frame(T0 + 1500, 'depth', [depth(T0 + 1499, [['29970', '3']], [['29980', '0.5']])]),
    { t: T0 + 1600, k: 'f', d: '{"pong":1}' },
    { t: T0 + 1700, k: 'f', d: 'not json' },
    frame(T0 + 2000, 'trade', [trade('5004', T0 + 1999, '29975', '2')]),
    { t: T0 + 3000, k: 'close', code: 1000, clean: true },
  ],
};

const WS = WebSocket as unknown as WebSocketCtor;

describe('paper fills against a recording (simulator, real sockets)', () => {
  let clock: ManualClock;
  let start: number;
  let sim: Simulator;
  let market: MarketStreams | undefined;
  const subs: Subscription[] = [];

  beforeEach(async () => {
    start = Date.now(); // the user stream checks events' times against its own clock: the simulator's starts beside it
    clock = manualClock(start);
    sim = await startSimulator({ recordedMarket: { recording: RECORDING }, clock, recordTraffic: true });
  });
  afterEach(async () => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    market = undefined;
    await sim.close();
  });

  /** Keeps `source` subscribed and replays what it emitted to each later reader. */
  const kept = <T>(source: Observable<T>): Observable<T> => {
    const shared = source.pipe(shareReplay({ refCount: true }));
    subs.push(shared.subscribe());
    return shared;
  };
  const streams = (): MarketStreams => (market ??= marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WS }));

  it('serves the recorded pairs, replays their trades, book and candles with times shifted onto its clock', async () => {
    const trades = kept(streams().trades('BTCUSDT'));
    const books = kept(streams().depth('BTCUSDT'));
    clock.advance(50); // the recording's first 50 ms: its book, its first trades and candle
    const candle = await firstValueFrom(streams().klines('BTCUSDT', '1m'));
    // on the minute (issue 40: it opened at `start`, off the minute)
    expect(candle).toMatchObject({ t: Math.floor(start / 60_000) * 60_000, o: '30000', c: '29999.75', v: '0.0225' });
    const first = await firstValueFrom(books);
    expect(first).toMatchObject({ b: [['29990.25', '1.5000'], ['29980.00', '2.0000']], a: [['30010.50', '0.4000'], ['30020.00', '1.2500']] });
    const history = await firstValueFrom(trades.pipe(filter((t) => t.v === '5002')));
    expect(history).toEqual({ v: '5002', t: start - 100, p: '29999.75', q: '0.0125', m: false });

    clock.advance(1000);
    expect(await firstValueFrom(trades.pipe(filter((t) => t.v === '5003')))).toEqual({ v: '5003', t: start + 999, p: '29985.00', q: '0.3000', m: true });
    clock.advance(500);
    expect(await firstValueFrom(books.pipe(filter((b) => b.t === start + 1500)))).toMatchObject({ b: [['29970.00', '3.0000']], a: [['29980.00', '0.5000']] });

    // REST market data agrees with the replay; the rules hold the recorded decimals; other pairs are not served
    const rest = await call(sim, { path: '/quote/v1/depth', query: 'symbol=BTCUSDT', apiKey: null, signatureIn: 'none' });
    expect(rest.body).toMatchObject({ b: [['29970', '3']], a: [['29980', '0.5']] });
    const restTrades = await call(sim, { path: '/quote/v1/trades', query: 'symbol=BTCUSDT', apiKey: null, signatureIn: 'none' });
    expect(restTrades.body.map((t: { v: string; q: string }) => [t.v, t.q])).toEqual([['5001', '0.01'], ['5002', '0.0125'], ['5003', '0.3']]);
    const info = await call(sim, { path: '/api/v1/exchangeInfo', apiKey: null, signatureIn: 'none' });
    expect(info.body.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['BTCUSDT']);
    expect(info.body.symbols[0].filters.slice(0, 2)).toMatchObject([{ tickSize: '0.01' }, { stepSize: '0.0001' }]);
    const other = await call(sim, { path: '/quote/v1/depth', query: 'symbol=ETHUSDT', apiKey: null, signatureIn: 'none' });
    expect(other.body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
  });

  describe('orders', () => {
    let rest: RestClient;
    let user: UserStream;

    beforeEach(async () => {
      // the simulator's clock moves only when the test advances it: the client signs with the simulator's time
      rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey, serverTimeOffsetMs: () => sim.serverTime() - Date.now() });
      user = userStream({ url: sim.privateStreamUrl, rest, WebSocketCtor: WS });
      subs.push(user.orders$.subscribe());
      await firstValueFrom(connectionOf(user).pipe(filter((s) => s.type === 'open')));
    });

    const placed = (o: Observable<OrderState>): Observable<OrderState> => kept(o);
    const fills = async (): Promise<Array<[string, string, boolean]>> =>
      ((await signedCall(sim, { path: '/api/v1/account/trades' })).body as Array<{ price: string; qty: string; isMaker: boolean }>).map((f) => [
        f.price,
        f.qty,
        f.isMaker,
      ]);

    it('a resting BUY fills at its price as recorded trades print at or below it; orders the recording never crosses stay NEW', async () => {
      const buy = placed(user.placeOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29985.5', quantity: '0.5', newClientOrderId: 'paper-buy' }));
      const low = placed(user.placeOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.1', newClientOrderId: 'paper-low' }));
      const high = placed(user.placeOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '31000', quantity: '0.1', newClientOrderId: 'paper-high' }));
      // each rests: PENDING_NEW (the stream's first report) then NEW; the answer (NEW) may overtake PENDING_NEW, which
      // then is not shown (a status never goes back)
      for (const o of [buy, low, high]) {
        const rested = await firstValueFrom(o.pipe(takeWhile((s) => s.status !== 'NEW', true), toArray()));
        expect([['PENDING_NEW', 'NEW'], ['NEW']]).toContainEqual(rested.map((s) => s.status));
      }

      clock.advance(1000); // 5003: 0.3 at 29985 ≤ 29985.5
      expect(await firstValueFrom(buy.pipe(filter((s) => s.status === 'PARTIALLY_FILLED')))).toMatchObject({ filledQuantity: '0.3' });
      clock.advance(1000); // 5004: 2 at 29975: the rest, 0.2
      const final = await lastValueFrom(buy);
      expect(final).toMatchObject({ status: 'FILLED', filledQuantity: '0.5', averagePrice: '29985.5' });
      expect(await fills()).toEqual([
        ['29985.5', '0.3', true],
        ['29985.5', '0.2', true],
      ]);
      clock.advance(10_000); // past the recording's end

      const open = await signedCall(sim, { path: '/api/v1/spot/openOrders' });
      // (the two were placed concurrently: which the simulator got first is the sockets' race, so by client order id)
      const byId = open.body.map((o: { clientOrderId: string; status: string }) => [o.clientOrderId, o.status]) as [string, string][];
      expect(byId.sort(([a], [b]) => (a < b ? -1 : 1))).toEqual([
        ['paper-high', 'NEW'],
        ['paper-low', 'NEW'],
      ]);
      const account = await signedCall(sim, { path: '/api/v1/account' });
      const usdt = account.body.balances.find((b: { asset: string }) => b.asset === 'USDT');
      // 100000 − 0.5 × 29985.5 spent; 0.1 × 29000 locked by the low BUY
      expect(usdt).toMatchObject({ total: '85007.25', locked: '2900' });
    });

    it('a marketable order fills at once against the recorded book, walking its levels, which stay as recorded', async () => {
      clock.advance(50); // the recorded book (+10 ms) and first trades
      const states = await lastValueFrom(user.placeOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.6' }).pipe(toArray()));
      expect(states[states.length - 1]).toMatchObject({ status: 'FILLED', filledQuantity: '0.6', filledQuoteQuantity: '18008.2' });
      // an IOC SELL crossing the bids: what the bids at or above its price hold, the rest cancelled
      const ioc = await lastValueFrom(
        user.placeOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', price: '29985', quantity: '2' }).pipe(toArray()),
      );
      expect(ioc[ioc.length - 1]).toMatchObject({ status: 'PARTIALLY_CANCELED', filledQuantity: '1.5' });
      // a GTC BUY crossing the asks takes what they hold within its price and rests with the rest
      const gtc = placed(user.placeOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30015', quantity: '1' }));
      expect(await firstValueFrom(gtc.pipe(filter((s) => s.status === 'PARTIALLY_FILLED')))).toMatchObject({ filledQuantity: '0.4' });
      expect(await fills()).toEqual([
        ['30010.5', '0.4', false],
        ['30020', '0.2', false],
        ['29990.25', '1.5', false],
        ['30010.5', '0.4', false],
      ]);
      const book = await call(sim, { path: '/quote/v1/depth', query: 'symbol=BTCUSDT', apiKey: null, signatureIn: 'none' });
      expect(book.body).toMatchObject({ b: [['29990.25', '1.5'], ['29980', '2']], a: [['30010.5', '0.4'], ['30020', '1.25']] });
      const publicTrades = await call(sim, { path: '/quote/v1/trades', query: 'symbol=BTCUSDT', apiKey: null, signatureIn: 'none' });
      expect(publicTrades.body.map((t: { v: string }) => t.v)).toEqual(['5001', '5002']); // paper fills are no public trades
    });
  });
});
