import { map, type MonoTypeOperatorFunction, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { DecodeError, RateLimitedError, RequestTimeoutError } from '../../../lib/errors';
import { KlinePageRefusedError, klinePageFault } from '../../../lib/market/internal/klinePageCheck';
import { fetchKlineRange, type KlinePageRequest, type KlineRangeConfig } from '../../../lib/market/internal/klineFetcher';
import { klineHistory as klineHistoryOf, type KlineHistoryGap } from '../../../lib/market/internal/klineHistory';
import { closedCandles } from '../../../lib/operators/closedCandles';
import { errorAwareTestScheduler } from '../../helpers/errorMarbles';

type K = { t: number; c: string };
const I = 10; // the interval, in virtual ms
/** Candles opening at `from`, `from + I`, … up to `to`, closing at `tag`. */
const candles = (from: number, to: number, tag = 'rest'): K[] => Array.from({ length: (to - from) / I + 1 }, (_, i) => ({ t: from + i * I, c: tag }));
const k = (t: number, c = 'live'): K => ({ t, c });

/** The first part of issue 29's operator on bare candles (one a message, one epoch): the history before the first live one. */
function klineHistory(
  fetchPage: (request: KlinePageRequest) => Observable<K[]>,
  config: KlineRangeConfig & { history: number; onShortfall?: (gap: KlineHistoryGap) => void },
): MonoTypeOperatorFunction<K> {
  const { history, onShortfall, ...rangeConfig } = config;
  return (live) =>
    live.pipe(
      map((candle) => ({ first: false, epoch: 1, data: [candle] })),
      klineHistoryOf({ history, intervalMs: I, fetch: (range) => fetchKlineRange(fetchPage, range, rangeConfig), onGap: onShortfall }),
    );
}

describe('klineHistory', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  /** A fake `GET /quote/v1/klines` over `served` (each page answers one frame later); pages asked are logged. */
  function fakeRest(served: readonly K[], answer: (request: KlinePageRequest, page: K[], n: number) => Observable<K[]>) {
    const requests: KlinePageRequest[] = [];
    const fetchPage = (request: KlinePageRequest): Observable<K[]> => {
      requests.push(request);
      const page = served.filter((c) => c.t <= request.endTime).slice(-request.limit);
      return answer(request, page, requests.length);
    };
    return { fetchPage, requests };
  }

  it('emits the closed candles before the first live one, oldest first, then the live ones: the open candle once, the live one', () => {
    testScheduler.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      // the service already has the open candle (t 100) in its history: it must not come twice
      const { fetchPage, requests } = fakeRest(candles(10, 100), (_, page) => cold('-p|', { p: page }));
      const live = hot('  --a------b---c--|', { a: k(100), b: k(100, 'live 2'), c: k(110) });
      const expected = '  ---(xyza)b---c--|';
      expectObservable(live.pipe(klineHistory(fetchPage, { history: 3 }))).toBe(expected, {
        x: k(70, 'rest'),
        y: k(80, 'rest'),
        z: k(90, 'rest'),
        a: k(100),
        b: k(100, 'live 2'),
        c: k(110),
      });
      expectSubscriptions(live.subscriptions).toBe('  ^---------------!');
      testScheduler.flush();
      expect(requests).toEqual([{ endTime: 99, limit: 3 }]);
    });
  });

  it('holds the live candles while the history is fetched, then lets them through in order', () => {
    testScheduler.run(({ cold, hot, expectObservable }) => {
      const { fetchPage } = fakeRest(candles(10, 90), (_, page) => cold('---p|', { p: page }));
      const live = hot('-a-b-------c|', { a: k(100), b: k(100, 'live 2'), c: k(110) });
      const expected = '----(yzab)-c|';
      expectObservable(live.pipe(klineHistory(fetchPage, { history: 2 }))).toBe(expected, {
        y: k(80, 'rest'),
        z: k(90, 'rest'),
        a: k(100),
        b: k(100, 'live 2'),
        c: k(110),
      });
    });
  });

  it('pages back from the first live candle with no hole and no overlap between pages', () => {
    testScheduler.run(({ cold, hot, expectObservable }) => {
      const { fetchPage, requests } = fakeRest(candles(10, 90), (_, page) => cold('-p|', { p: page }));
      const live = hot('-a------------|', { a: k(100) });
      const history = candles(50, 90);
      expectObservable(live.pipe(klineHistory(fetchPage, { history: 5, pageLimit: 2 }))).toBe('----(vwxyza)--|', {
        v: history[0],
        w: history[1],
        x: history[2],
        y: history[3],
        z: history[4],
        a: k(100),
      });
      testScheduler.flush();
      // newest page first; each next page ends one ms before the oldest candle in hand; the last asks only for what is left
      expect(requests).toEqual([
        { endTime: 99, limit: 2 },
        { endTime: 79, limit: 2 },
        { endTime: 59, limit: 1 },
      ]);
    });
  });

  it('stops at a short page: the service has fewer candles than asked, and says so (a history gap, no fetch error)', () => {
    testScheduler.run(({ cold, hot, expectObservable }) => {
      const shortfalls: KlineHistoryGap[] = [];
      const { fetchPage, requests } = fakeRest(candles(70, 90), (_, page) => cold('-p|', { p: page }));
      const live = hot('-a--------|', { a: k(100) });
      expectObservable(live.pipe(klineHistory(fetchPage, { history: 10, pageLimit: 2, onShortfall: (s) => shortfalls.push(s) }))).toBe(
        '---(xyza)-|',
        { x: k(70, 'rest'), y: k(80, 'rest'), z: k(90, 'rest'), a: k(100) },
      );
      testScheduler.flush();
      expect(requests).toEqual([
        { endTime: 99, limit: 2 },
        { endTime: 79, limit: 2 },
      ]);
      // issue 40: 3 of 10 came with no signal before; now the 7 missing are a history gap
      expect(shortfalls).toEqual([{ reason: 'history', from: 0, to: 70, firstLiveTime: 100, missing: 7, error: undefined, fault: 'short' }]);
    });
  });

  describe('a page off the grid, duplicated or out of order (issue 40)', () => {
    const refusing = (page: K[]) => {
      const checkPage = (rows: readonly { t: number }[]): Error | undefined => {
        const fault = klinePageFault(rows, I, 100);
        return fault && new KlinePageRefusedError('BTCUSDT', '10ms', fault.fault, fault.openTime);
      };
      return (source: Observable<K>) =>
        source.pipe(
          map((candle) => ({ first: false, epoch: 1, data: [candle] })),
          klineHistoryOf({ history: 3, intervalMs: I, fetch: (range) => fetchKlineRange(() => testScheduler.createColdObservable('-p|', { p: page }), range, { checkPage }), onGap: (g) => gaps.push(g) }),
        );
    };
    let gaps: KlineHistoryGap[] = [];
    beforeEach(() => {
      gaps = [];
    });
    it.each([
      ['off-grid', [k(75, 'rest'), k(85, 'rest'), k(95, 'rest')], 75],
      ['duplicate', [k(70, 'rest'), k(80, 'rest'), k(80, 'rest')], 80],
      ['out-of-order', [k(90, 'rest'), k(80, 'rest'), k(70, 'rest')], 80],
    ] as const)('%s: the page is refused (no candle of it emitted), a history gap with that fault and a DecodeError', (fault, page, openTime) => {
      testScheduler.run(({ hot, expectObservable }) => {
        const live = hot('-a---|', { a: k(100) });
        expectObservable(live.pipe(refusing([...page]))).toBe('--(a)|', { a: k(100) });
        testScheduler.flush();
        expect(gaps).toEqual([
          { reason: 'history', from: 70, to: 100, firstLiveTime: 100, missing: 3, fault, error: new KlinePageRefusedError('BTCUSDT', '10ms', fault, openTime) },
        ]);
        expect(gaps[0]?.error).toBeInstanceOf(DecodeError);
        expect((gaps[0]?.error as DecodeError).message).toBe(`BTCUSDT 10ms: a GET /quote/v1/klines page was refused: the row opening at ${openTime} is ${fault}`);
      });
    });
    it('a page on the grid, in order, passes', () => {
      expect(klinePageFault([{ t: 70 }, { t: 80 }, { t: 90 }, { t: 100 }], I, 100)).toBeUndefined();
      expect(klinePageFault([{ t: 7 }, { t: 8 }], 0, 100)).toBeUndefined();
    });
  });

  it('on a failed page: emits the newer candles in hand, reports what is missing, and the live candles flow on', () => {
    testScheduler.run(({ cold, hot, expectObservable }) => {
      const shortfalls: KlineHistoryGap[] = [];
      const limited = new RateLimitedError(429, 1000, -1003, 'Too many requests');
      const { fetchPage } = fakeRest(candles(10, 90), (_, page, n) => (n === 1 ? cold('-p|', { p: page }) : cold('-#', undefined, limited)));
      const live = hot('-a-------b|', { a: k(100), b: k(110) });
      expectObservable(live.pipe(klineHistory(fetchPage, { history: 5, pageLimit: 2, onShortfall: (s) => shortfalls.push(s) }))).toBe(
        '---(yza)-b|',
        { y: k(80, 'rest'), z: k(90, 'rest'), a: k(100), b: k(110) },
      );
      testScheduler.flush();
      expect(shortfalls).toEqual([{ reason: 'history', from: 50, to: 80, firstLiveTime: 100, missing: 3, error: limited }]);
    });
  });

  it('gives a page timeoutMs, then the held live candles go on and the whole history is reported missing', () => {
    testScheduler.run(({ cold, hot, expectObservable, time }) => {
      const shortfalls: KlineHistoryGap[] = [];
      const timeoutMs = time('-----|');
      const { fetchPage } = fakeRest(candles(10, 90), () => cold<K[]>('-'));
      const live = hot('-a-b--------c|', { a: k(100), b: k(100, 'live 2'), c: k(110) });
      expectObservable(live.pipe(klineHistory(fetchPage, { history: 3, timeoutMs, onShortfall: (s) => shortfalls.push(s) }))).toBe(
        '------(ab)--c|',
        { a: k(100), b: k(100, 'live 2'), c: k(110) },
      );
      testScheduler.flush();
      expect(shortfalls).toEqual([{ reason: 'history', from: 70, to: 100, firstLiveTime: 100, missing: 3, error: new RequestTimeoutError('GET', '/quote/v1/klines', timeoutMs) }]);
    });
  });

  it('fetches nothing when the live stream ends before its first candle, and passes its error on', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const { fetchPage, requests } = fakeRest(candles(10, 90), (_, page) => cold('-p|', { p: page }));
      expectObservable(cold<K>('--#').pipe(klineHistory(fetchPage, { history: 3 }))).toBe('--#');
      testScheduler.flush();
      expect(requests).toEqual([]);
    });
  });

  describe('across a break (a new epoch)', () => {
    type M = { first: boolean; epoch: number; data: K[] };
    const m = (epoch: number, candle: K, first = false): M => ({ first, epoch, data: [candle] });
    /** The operator with only the refetch (no history), over a fake REST whose pages answer one frame later. */
    function refetching(served: readonly K[], answer?: (page: K[], n: number) => Observable<K[]>) {
      const gaps: KlineHistoryGap[] = [];
      const { fetchPage, requests } = fakeRest(served, (_, page, n) => (answer ? answer(page, n) : testScheduler.createColdObservable('-p|', { p: page })));
      const operator = klineHistoryOf<K>({ history: 0, intervalMs: I, fetch: (range) => fetchKlineRange(fetchPage, range), onGap: (g) => gaps.push(g) });
      return { operator, requests, gaps };
    }

    it('fetches the closed candles from the last one emitted (maybe open then) to the first of the new epoch, emits them oldest first, then the live ones', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const { operator, requests } = refetching(candles(10, 200, 'closed'));
        const live = hot('-a-b---c------------d-|', { a: m(1, k(100, 'open'), true), b: m(1, k(100, 'open 2')), c: m(2, k(140), true), d: m(2, k(150)) });
        // 100 comes again in its final version, then 110, 120, 130 the break hid, then the new epoch's candles
        const out = live.pipe(operator);
        expectObservable(out).toBe('-a-b----(wxyzc)-----d-|', {
          a: k(100, 'open'),
          b: k(100, 'open 2'),
          w: k(100, 'closed'),
          x: k(110, 'closed'),
          y: k(120, 'closed'),
          z: k(130, 'closed'),
          c: k(140),
          d: k(150),
        });
        // downstream, every candle closes once, in its final version: no duplicate, no hole
        expectObservable(out.pipe(closedCandles())).toBe('--------(wxyz)------e-|', {
          w: k(100, 'closed'),
          x: k(110, 'closed'),
          y: k(120, 'closed'),
          z: k(130, 'closed'),
          e: k(140),
        });
        testScheduler.flush();
        // one page: the candles opening in [100, 139], at most the 4 the interval allows plus one
        expect(requests).toEqual([{ endTime: 139, limit: 5 }, { endTime: 139, limit: 5 }]);
      });
    });

    it('does not repeat the last candle when its fetched version is the one emitted, nor fetch when no candle was missed', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const served = candles(10, 200, 'live');
        const { operator, requests } = refetching(served);
        const live = hot('-a-b-c-d-e------|', {
          a: m(1, k(100), true),
          b: m(1, k(110)),
          c: m(2, k(110, 'again'), true), // the same minute on the new socket: nothing was missed
          d: m(2, k(120)),
          e: m(3, k(140), true), // 110 and 120 closed as emitted: 120 (final as emitted) is not repeated, 130 is new
        });
        expectObservable(live.pipe(operator)).toBe('-a-b-c-d--(xe)--|', { a: k(100), b: k(110), c: k(110, 'again'), d: k(120), x: k(130), e: k(140) });
        testScheduler.flush();
        expect(requests).toEqual([{ endTime: 139, limit: 3 }]);
      });
    });

    it('fetches nothing without a break: a stream of one epoch passes as it came', () => {
      testScheduler.run(({ hot, expectObservable }) => {
        const { operator, requests } = refetching(candles(10, 200));
        const live = hot('-a-b-c-|', { a: m(1, k(100), true), b: m(1, k(130)), c: m(1, k(140)) });
        expectObservable(live.pipe(operator)).toBe('-a-b-c-|', { a: k(100), b: k(130), c: k(140) });
        testScheduler.flush();
        expect(requests).toEqual([]);
      });
    });

    it('after a fetch that fails, signals the range that may be missing (the last candle too: maybe not final) and lets the live candles flow', () => {
      testScheduler.run(({ cold, hot, expectObservable }) => {
        const limited = new RateLimitedError(429, 1000, -1003, 'Too many requests');
        const { operator, gaps } = refetching(candles(10, 200), () => cold('-#', undefined, limited));
        const live = hot('-a---c-d-|', { a: m(1, k(100), true), c: m(2, k(140), true), d: m(2, k(150)) });
        expectObservable(live.pipe(operator)).toBe('-a----cd-|', {
          a: k(100),
          c: k(140),
          d: k(150),
        });
        testScheduler.flush();
        expect(gaps).toEqual([{ reason: 'reconnect', from: 100, to: 140, firstLiveTime: 140, missing: 4, error: limited }]);
      });
    });

    it('after a fetch that brought only the newer candles, emits them and signals the older range', () => {
      testScheduler.run(({ cold, hot, expectObservable }) => {
        const limited = new RateLimitedError(429, 1000, -1003, 'Too many requests');
        const gaps: KlineHistoryGap[] = [];
        const { fetchPage } = fakeRest(candles(10, 200, 'closed'), (_, page, n) => (n === 1 ? cold('-p|', { p: page }) : cold('-#', undefined, limited)));
        const operator = klineHistoryOf<K>({
          history: 0,
          intervalMs: I,
          fetch: (range) => fetchKlineRange(fetchPage, range, { pageLimit: 2 }),
          onGap: (g) => gaps.push(g),
        });
        const live = hot('-a---c--------|', { a: m(1, k(100), true), c: m(2, k(140), true) });
        expectObservable(live.pipe(operator)).toBe('-a-----(yzc)--|', { a: k(100), y: k(120, 'closed'), z: k(130, 'closed'), c: k(140) });
        testScheduler.flush();
        expect(gaps).toEqual([{ reason: 'reconnect', from: 100, to: 120, firstLiveTime: 140, missing: 2, error: limited }]);
      });
    });
  });
});
