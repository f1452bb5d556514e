import { distinctUntilChanged, filter, map, type Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { DecimalText } from '../../lib/decimal';
import type { RestKline } from '../../lib/codecs/rest/marketData';
import type { RestCalls } from '../../lib/rest/callTypes';
import { RateLimitedError, RequestTimeoutError } from '../../lib/errors';
import { marketStreams } from '../../lib/market/marketStreams';
import { closedCandles } from '../../lib/operators/closedCandles';
import { klineEnvelope, klineRecord, testExchange } from '../../lib/testing/index';
import { errorAwareTestScheduler } from '../helpers/errorMarbles';

const MIN = 60_000;
type KlinesRequest = { symbol: string; interval: string; endTime?: number | undefined; limit?: number | undefined };

/** A live candle of the stream (open time `t`, close `c`), as `klines` emits it. */
const live = (t: number, c: DecimalText) => klineRecord({ t, o: '1', h: '3', l: '1', c, v: '1' });
/** A closed candle of `GET /quote/v1/klines` (as the service serves it, and as `klines` emits it). */
const served = (t: number, c: DecimalText): RestKline => ({ t, o: '1', h: '3', l: '1', c, v: '2', closeTime: t + MIN - 1, qv: '2', n: 2 });
const emitted = ({ t, o, h, l, c, v }: RestKline) => ({ t, o, h, l, c, v });

/**
 * Issue 29, second part: `klines` across a reconnect, through the test exchange (marbles in virtual time). The
 * socket drops at 5 ms; the client reconnects at 505 ms (no jitter in the kit) and subscribes again; the
 * connection's scripts count from its open.
 */
describe('marketStreams klines across reconnects (issue 29)', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  /** A fake `GET /quote/v1/klines` over `candles`, each answer `answer(page)` (default one frame later); requests logged. */
  function fakeKlines(candles: readonly RestKline[], answer?: (page: RestKline[], n: number) => Observable<RestKline[]>) {
    const asked: KlinesRequest[] = [];
    const klines = (request: KlinesRequest): Observable<RestKline[]> => {
      asked.push(request);
      const page = candles.filter((k) => k.t <= (request.endTime ?? Infinity)).slice(-(request.limit ?? 500));
      return answer ? answer(page, asked.length) : testScheduler.createColdObservable('-p|', { p: page });
    };
    return { rest: { klines }, asked };
  }

  function setup(rest: Pick<RestCalls, 'klines'>, timeoutMs?: number) {
    const exchange = testExchange({ scheduler: testScheduler });
    const market = marketStreams(exchange.marketConfig({ klineHistory: { rest, ...(timeoutMs !== undefined && { timeoutMs }) } }));
    return { exchange, market };
  }

  it('fetches the candles missed while the socket was down and emits them in order before the new ones: closedCandles sees every minute once', () => {
    testScheduler.run(({ expectObservable, flush }) => {
      // the service's closed candles: minute 0 closed higher than the stream last showed it, minutes 1 and 2 missed,
      // minute 3 is the open one (served too: it must not come twice)
      const history = [served(0, '2.5'), served(MIN, '2.6'), served(2 * MIN, '2.7'), served(3 * MIN, '2.8')];
      const { rest, asked } = fakeKlines(history);
      const { exchange, market } = setup(rest);
      exchange.server.public('-a-b', { a: klineEnvelope(live(0, '1'), { first: true }), b: klineEnvelope(live(0, '2')) }, { connection: 1 });
      exchange.drop({ stream: 'public', at: 5 });
      exchange.server.public('-c------d', { c: klineEnvelope(live(3 * MIN, '3'), { first: true }), d: klineEnvelope(live(4 * MIN, '4')) }, { connection: 2 });

      const candles = market.klines('BTCUSDT', '1m');
      const values = { a: live(0, '1'), b: live(0, '2'), w: emitted(history[0]!), x: emitted(history[1]!), y: emitted(history[2]!), c: live(3 * MIN, '3'), d: live(4 * MIN, '4') };
      // minute 0 again in its final version, 1 and 2, then the new epoch's open candle (3) and the next (4)
      expectObservable(candles, '^ 1s !').toBe('-a-b 503ms (wxyc)d', values);
      // closed: 0 (final), 1, 2 when the missed candles come in, 3 when 4 opens
      expectObservable(candles.pipe(closedCandles()), '^ 1s !').toBe('---- 503ms (wxy)-c', values);
      expectObservable(market.klineGaps$, '^ 1s !').toBe('');
      expectObservable(market.status$.pipe(map((s) => [s.klineRefetches, s.klineGaps].join('/')), distinctUntilChanged()), '^ 1s !').toBe('a 505ms b', { a: '0/0', b: '1/0' });
      flush();
      // one fetch for both observers: the candles opening in [0, 3 min), at most the 3 the interval allows plus one
      expect(asked).toEqual([{ symbol: 'BTCUSDT', interval: '1m', endTime: 3 * MIN - 1, limit: 4 }]);
    });
  });

  it('fills a break on one socket too: a kline topic silent for its staleAfterMs is subscribed again, its first message starts a new epoch of the topic', () => {
    testScheduler.run(({ expectObservable, flush }) => {
      const history = [served(0, '2.5'), served(MIN, '2.6')];
      const { rest, asked } = fakeKlines(history);
      const exchange = testExchange({ scheduler: testScheduler });
      const market = marketStreams(exchange.marketConfig({ klineHistory: { rest }, staleAfterMs: { kline: 1000 }, subscribeTimeoutMs: 50 }));
      // the topic goes silent after 1 ms; cancelled and subscribed again at 1001; the service answers at 1500
      exchange.server.public('-a 1498ms b', { a: klineEnvelope(live(0, '1'), { first: true }), b: klineEnvelope(live(2 * MIN, '3'), { first: true }) }, { connection: 1 });
      const values = { a: live(0, '1'), x: emitted(history[0]!), y: emitted(history[1]!), b: live(2 * MIN, '3') };
      expectObservable(market.klines('BTCUSDT', '1m'), '^ 2s !').toBe('-a 1499ms (xyb)', values);
      expectObservable(market.status$.pipe(map((s) => [s.staleResubscribes, s.klineRefetches].join('/')), distinctUntilChanged()), '^ 2s !').toBe(
        'a 1000ms b 498ms c',
        { a: '0/0', b: '1/0', c: '1/1' },
      );
      flush();
      expect(asked).toEqual([{ symbol: 'BTCUSDT', interval: '1m', endTime: 2 * MIN - 1, limit: 3 }]);
      expect(exchange.sent({ kind: 'sub' }).map((f) => f.time)).toEqual([0, 1001]);
    });
  });

  it('fetches nothing when nothing was missed: no break, or the same minute on the new socket', () => {
    testScheduler.run(({ expectObservable, flush }) => {
      const { rest, asked } = fakeKlines([served(0, '9')]);
      const { exchange, market } = setup(rest);
      exchange.server.public('-a-b-c', { a: klineEnvelope(live(0, '1'), { first: true }), b: klineEnvelope(live(MIN, '2')), c: klineEnvelope(live(2 * MIN, '3')) }, { connection: 1 });
      exchange.drop({ stream: 'public', at: 7 });
      exchange.server.public('-d', { d: klineEnvelope(live(2 * MIN, '4'), { first: true }) }, { connection: 2 });
      // the output of klines() is the stream's, as without klineHistory
      expectObservable(market.klines('BTCUSDT', '1m'), '^ 1s !').toBe('-a-b-c 502ms d', {
        a: live(0, '1'),
        b: live(MIN, '2'),
        c: live(2 * MIN, '3'),
        d: live(2 * MIN, '4'),
      });
      expectObservable(market.status$.pipe(map((s) => s.klineRefetches), distinctUntilChanged()), '^ 1s !').toBe('a', { a: 0 });
      flush();
      expect(asked).toEqual([]);
    });
  });

  it('signals a rate-limited fetch as a KlineGap (and on errors$), lets the live candles flow, and fetches nothing during retryAfterMs', () => {
    testScheduler.run(({ cold, expectObservable, flush }) => {
      const limited = new RateLimitedError(429, 60_000, -1003, 'Too many requests');
      const { rest, asked } = fakeKlines([], () => cold('-#', undefined, limited));
      const { exchange, market } = setup(rest);
      exchange.server.public('-a', { a: klineEnvelope(live(0, '1'), { first: true }) }, { connection: 1 });
      exchange.drop({ stream: 'public', at: 5 });
      exchange.server.public('-c', { c: klineEnvelope(live(3 * MIN, '3'), { first: true }) }, { connection: 2 });
      exchange.drop({ stream: 'public', at: 600 });
      exchange.server.public('-d', { d: klineEnvelope(live(5 * MIN, '5'), { first: true }) }, { connection: 3 });

      // connection 2 opens at 505 (its candle at 506, held until the fetch fails at 507); connection 3 at 1600
      // (1 s after a second loss; its candle at 1601): within the pause, so no fetch and the gap at once
      const candles = { a: live(0, '1'), c: live(3 * MIN, '3'), d: live(5 * MIN, '5') };
      expectObservable(market.klines('BTCUSDT', '1m'), '^ 2s !').toBe('-a 505ms c 1093ms d', candles);
      // a second observer shares the fetch, its error and its gap: each is signalled once
      expectObservable(market.klines('BTCUSDT', '1m'), '^ 2s !').toBe('-a 505ms c 1093ms d', candles);
      const gap = (from: number, firstLiveTime: number, missing: number) => ({ symbol: 'BTCUSDT', interval: '1m', reason: 'reconnect', from, to: firstLiveTime, firstLiveTime, missing, error: limited });
      expectObservable(market.klineGaps$, '^ 2s !').toBe('507ms g 1093ms h', { g: gap(0, 3 * MIN, 3), h: gap(3 * MIN, 5 * MIN, 2) });
      expectObservable(market.errors$.pipe(filter((e) => e instanceof RateLimitedError)), '^ 2s !').toBe('507ms e', { e: limited });
      expectObservable(market.status$.pipe(map((s) => [s.klineRefetches, s.klineGaps].join('/')), distinctUntilChanged()), '^ 2s !').toBe('a 505ms b c 1093ms d', { a: '0/0', b: '1/0', c: '1/1', d: '1/2' });
      flush();
      expect(asked).toHaveLength(1);
    });
  });

  it('gives the fetch timeoutMs: the new candles wait that long at most, then flow, the gap signalled', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const { rest } = fakeKlines([], () => cold<RestKline[]>('-'));
      const { exchange, market } = setup(rest, 100);
      exchange.server.public('-a', { a: klineEnvelope(live(0, '1'), { first: true }) }, { connection: 1 });
      exchange.drop({ stream: 'public', at: 5 });
      exchange.server.public('-c-d', { c: klineEnvelope(live(2 * MIN, '3'), { first: true }), d: klineEnvelope(live(2 * MIN, '4')) }, { connection: 2 });
      const timedOut = new RequestTimeoutError('GET', '/quote/v1/klines', 100);
      // c comes at 506, the fetch gives up at 606: c and d (held) flow then
      expectObservable(market.klines('BTCUSDT', '1m'), '^ 1s !').toBe('-a 604ms (cd)', { a: live(0, '1'), c: live(2 * MIN, '3'), d: live(2 * MIN, '4') });
      expectObservable(market.klineGaps$, '^ 1s !').toBe('606ms g', {
        g: { symbol: 'BTCUSDT', interval: '1m', reason: 'reconnect', from: 0, to: 2 * MIN, firstLiveTime: 2 * MIN, missing: 2, error: timedOut },
      });
    });
  });

  it('shares one history fetch between observers subscribing at once with the same history, and one refetch after a reconnect', () => {
    testScheduler.run(({ expectObservable, flush }) => {
      const history = [served(0, '2.5'), served(MIN, '2.6'), served(2 * MIN, '2.7'), served(3 * MIN, '2.8'), served(4 * MIN, '2.9')];
      const { rest, asked } = fakeKlines(history);
      const { exchange, market } = setup(rest);
      exchange.server.public('-a', { a: klineEnvelope(live(2 * MIN, '1'), { first: true }) }, { connection: 1 });
      exchange.drop({ stream: 'public', at: 5 });
      exchange.server.public('-c', { c: klineEnvelope(live(5 * MIN, '3'), { first: true }) }, { connection: 2 });
      const values = { p: emitted(history[0]!), q: emitted(history[1]!), a: live(2 * MIN, '1'), x: emitted(history[2]!), y: emitted(history[3]!), z: emitted(history[4]!), c: live(5 * MIN, '3') };
      const expected = '--(pqa) 500ms (xyzc)';
      expectObservable(market.klines('BTCUSDT', '1m', { history: 2 }), '^ 1s !').toBe(expected, values);
      expectObservable(market.klines('BTCUSDT', '1m', { history: 2 }), '^ 1s !').toBe(expected, values);
      // one with less history takes its part of the same fetch
      expectObservable(market.klines('BTCUSDT', '1m', { history: 1 }), '^ 1s !').toBe('--(qa) 501ms (xyzc)', values);
      flush();
      expect(asked).toEqual([
        { symbol: 'BTCUSDT', interval: '1m', endTime: 2 * MIN - 1, limit: 2 },
        { symbol: 'BTCUSDT', interval: '1m', endTime: 5 * MIN - 1, limit: 4 },
      ]);
    });
  });
});
