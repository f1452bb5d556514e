import { type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { RateLimitedError, RequestTimeoutError } from '../../../lib/errors';
import { klineHistory, type KlineHistoryShortfall, type KlinePageRequest } from '../../../lib/market/internal/klineHistory';
import { errorAwareTestScheduler } from '../../helpers/errorMarbles';

type K = { t: number; c: string };
const I = 10; // the interval, in virtual ms
/** Candles opening at `from`, `from + I`, … up to `to`, closing at `tag`. */
const candles = (from: number, to: number, tag = 'rest'): K[] => Array.from({ length: (to - from) / I + 1 }, (_, i) => ({ t: from + i * I, c: tag }));
const k = (t: number, c = 'live'): K => ({ t, c });

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

  it('stops at a short page: the service has fewer candles than asked, which is no gap', () => {
    testScheduler.run(({ cold, hot, expectObservable }) => {
      const shortfalls: KlineHistoryShortfall[] = [];
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
      expect(shortfalls).toEqual([]);
    });
  });

  it('on a failed page: emits the newer candles in hand, reports what is missing, and the live candles flow on', () => {
    testScheduler.run(({ cold, hot, expectObservable }) => {
      const shortfalls: KlineHistoryShortfall[] = [];
      const limited = new RateLimitedError(429, 1000, -1003, 'Too many requests');
      const { fetchPage } = fakeRest(candles(10, 90), (_, page, n) => (n === 1 ? cold('-p|', { p: page }) : cold('-#', undefined, limited)));
      const live = hot('-a-------b|', { a: k(100), b: k(110) });
      expectObservable(live.pipe(klineHistory(fetchPage, { history: 5, pageLimit: 2, onShortfall: (s) => shortfalls.push(s) }))).toBe(
        '---(yza)-b|',
        { y: k(80, 'rest'), z: k(90, 'rest'), a: k(100), b: k(110) },
      );
      testScheduler.flush();
      expect(shortfalls).toEqual([{ firstLiveTime: 100, missing: 3, error: limited }]);
    });
  });

  it('gives a page timeoutMs, then the held live candles go on and the whole history is reported missing', () => {
    testScheduler.run(({ cold, hot, expectObservable, time }) => {
      const shortfalls: KlineHistoryShortfall[] = [];
      const timeoutMs = time('-----|');
      const { fetchPage } = fakeRest(candles(10, 90), () => cold<K[]>('-'));
      const live = hot('-a-b--------c|', { a: k(100), b: k(100, 'live 2'), c: k(110) });
      expectObservable(live.pipe(klineHistory(fetchPage, { history: 3, timeoutMs, onShortfall: (s) => shortfalls.push(s) }))).toBe(
        '------(ab)--c|',
        { a: k(100), b: k(100, 'live 2'), c: k(110) },
      );
      testScheduler.flush();
      expect(shortfalls).toEqual([{ firstLiveTime: 100, missing: 3, error: new RequestTimeoutError('GET', '/quote/v1/klines', timeoutMs) }]);
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
});
