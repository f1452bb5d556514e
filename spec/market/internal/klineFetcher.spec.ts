import { type Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { RateLimitedError, RequestRejectedError } from '../../../lib/errors';
import { fetchKlineRange, klineFetcher, type KlinePageRequest } from '../../../lib/market/internal/klineFetcher';
import { errorAwareTestScheduler } from '../../helpers/errorMarbles';

type K = { t: number };
const I = 10;
const candles = (from: number, to: number): K[] => Array.from({ length: (to - from) / I + 1 }, (_, i) => ({ t: from + i * I }));

describe('klineFetcher', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  /** A fake `GET /quote/v1/klines` over `served`, per symbol; each page answers `answer(page)` (default one frame later). */
  function fakePages(served: readonly K[], answer?: (page: K[], n: number) => Observable<K[]>) {
    const asked: (KlinePageRequest & { symbol: string })[] = [];
    const fetchPage = (symbol: string, _interval: string, request: KlinePageRequest): Observable<K[]> => {
      asked.push({ symbol, ...request });
      const page = served.filter((c) => c.t <= request.endTime).slice(-request.limit);
      return answer ? answer(page, asked.length) : testScheduler.createColdObservable('-p|', { p: page });
    };
    return { fetchPage, asked };
  }

  it('shares a fetch in flight with an observer whose range it covers; each takes its part; nothing is kept once done', () => {
    testScheduler.run(({ cold, expectObservable, flush }) => {
      const { fetchPage, asked } = fakePages(candles(10, 200));
      const refetches: number[] = [];
      const fetch = klineFetcher({ fetchPage, scheduler: testScheduler, onRefetch: () => refetches.push(testScheduler.now()) });
      const wide = { endTime: 99, from: 50, count: 6 };
      expectObservable(fetch('BTCUSDT', '1m', wide, 'reconnect')).toBe('-(a|)', { a: { candles: candles(50, 90) } });
      // subscribed while the first is in flight: covered (same end, a later start, fewer candles), no request of its own
      expectObservable(cold('a').pipe(() => fetch('BTCUSDT', '1m', { endTime: 99, from: 70, count: 3 }, 'reconnect'))).toBe('-(a|)', {
        a: { candles: candles(70, 90) },
      });
      // not covered: another symbol, another end, or reaching further back
      expectObservable(fetch('ETHUSDT', '1m', wide, 'reconnect')).toBe('-(a|)', { a: { candles: candles(50, 90) } });
      expectObservable(fetch('BTCUSDT', '1m', { endTime: 89, from: 50, count: 6 }, 'history')).toBe('-(a|)', { a: { candles: candles(50, 80) } });
      // after it is done, the same range is fetched again (nothing kept)
      expectObservable(cold('--a').pipe(() => fetch('BTCUSDT', '1m', wide, 'reconnect')), '--^').toBe('---(a|)', { a: { candles: candles(50, 90) } });
      flush();
      expect(asked).toEqual([
        { symbol: 'BTCUSDT', endTime: 99, limit: 6 },
        { symbol: 'ETHUSDT', endTime: 99, limit: 6 },
        { symbol: 'BTCUSDT', endTime: 89, limit: 6 },
        { symbol: 'BTCUSDT', endTime: 99, limit: 6 },
      ]);
      // the history fetch is no refetch
      expect(refetches).toEqual([0, 0, 2]);
    });
  });

  it('reports a failed fetch once however many share it, and after a RateLimitedError fetches nothing for retryAfterMs, for any symbol', () => {
    testScheduler.run(({ cold, expectObservable, flush }) => {
      const limited = new RateLimitedError(429, 100, -1003, 'Too many requests');
      const { fetchPage, asked } = fakePages(candles(10, 200), (page, n) => (n === 1 ? cold('-#', undefined, limited) : cold('-p|', { p: page })));
      const errors: unknown[] = [];
      const fetch = klineFetcher({ fetchPage, scheduler: testScheduler, onError: (e) => errors.push(e) });
      const range = { endTime: 99, from: 50, count: 6 };
      expectObservable(fetch('BTCUSDT', '1m', range, 'reconnect')).toBe('-(a|)', { a: { candles: [], error: limited } });
      expectObservable(fetch('BTCUSDT', '1m', range, 'reconnect')).toBe('-(a|)', { a: { candles: [], error: limited } });
      // within the pause (until 101): no request, the pause's error
      expectObservable(cold('-- 50ms a').pipe(() => fetch('ETHUSDT', '1m', range, 'reconnect')), '-- 50ms ^').toBe('-- 50ms (a|)', {
        a: { candles: [], error: limited },
      });
      // after it: fetched
      expectObservable(fetch('ETHUSDT', '1m', range, 'reconnect'), '101ms ^').toBe('102ms (a|)', { a: { candles: candles(50, 90) } });
      flush();
      expect(errors).toEqual([limited]);
      expect(asked).toEqual([
        { symbol: 'BTCUSDT', endTime: 99, limit: 6 },
        { symbol: 'ETHUSDT', endTime: 99, limit: 6 },
      ]);
    });
  });

  it('never throws out: a fetchPage that throws, or a page the service garbled, ends the fetch with what it has', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const refused = new RequestRejectedError(400, -1130, "Invalid data sent for parameter 'endTime'.");
      const throwing = () => {
        throw refused;
      };
      expectObservable(fetchKlineRange<K>(throwing, { endTime: 99, from: -Infinity, count: 5 })).toBe('(a|)', { a: { candles: [], error: refused } });
      // candles after endTime, and NaN times, are ignored; the next page (ending at 89) has nothing older: the end
      const garbled = () => cold('-p|', { p: [{ t: 500 }, { t: NaN }, { t: 90 }, { t: 90 }] });
      expectObservable(fetchKlineRange<K>(garbled, { endTime: 99, from: -Infinity, count: 5 }, { pageLimit: 4 })).toBe('--(a|)', {
        a: { candles: [{ t: 90 }] },
      });
    });
  });
});
