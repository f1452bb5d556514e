import { map, type Observable, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { RateLimitedError, RequestFailedError, RequestTimeoutError } from '../../lib/errors';
import { backfillTrades, type BackfillTradesConfig } from '../../lib/operators/backfillTrades';
import { distinctTrades, type TradeBatch, type TradeGap } from '../../lib/operators/distinctTrades';

type T = { v: string };
const ids = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
const batch = (v: string[], first = false, epoch = 1): TradeBatch<T> => ({ symbol: 'BTCUSDT', first, epoch, data: v.map((id) => ({ v: id })) });
const trades = (v: string[]): T[] => v.map((id) => ({ v: id }));

const VALUES: Record<string, T> = { ...Object.fromEntries(ids(1, 9).map((id) => [id, { v: id }])), x: { v: '10' }, y: { v: '11' } };

describe('backfillTrades', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  /** backfillTrades then distinctTrades, as `trades()` composes them; gaps of both land in `gaps`. */
  function pipeline(fetch: (symbol: string) => Observable<readonly T[]>, config: BackfillTradesConfig = {}) {
    const gaps: TradeGap[] = [];
    const errors: unknown[] = [];
    const onGap = (gap: TradeGap): void => void gaps.push(gap);
    const op = (source: Observable<TradeBatch<T>>) =>
      source.pipe(
        backfillTrades(fetch, { replaySize: 3, limit: 5, scheduler: testScheduler, onGap, onError: (e) => errors.push(e), ...config }),
        distinctTrades({ replaySize: 3, onGap }),
      );
    return { op, gaps, errors };
  }

  it('fills a gap from the fetch, holding the live messages meanwhile: every id once, in order, no gap', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const fetched = cold('--f|', { f: trades(ids(4, 9)) }); // reaches back to 4, the last seen
      const calls: string[] = [];
      const { op, gaps } = pipeline((symbol) => (calls.push(symbol), fetched));
      const source = cold('-a----b-c-----------d----|', {
        a: batch(ids(1, 4), true), // 1..4
        b: batch(ids(7, 9), true, 2), // a full replay newer than 4: 5 and 6 were missed
        c: batch(['10']), // live, held until the fetch answers at 8
        d: batch(['11']),
      });
      expectObservable(source.pipe(op)).toBe('-(1234)-(56789x)----y----|', VALUES);
      expectSubscriptions(fetched.subscriptions).toBe('------^-!');
      testScheduler.flush();
      expect(calls).toEqual(['BTCUSDT']);
      expect(gaps).toEqual([]);
    });
  });

  it('signals only the trades older than a full fetch that does not reach back', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const { op, gaps, errors } = pipeline(() => cold('-f|', { f: trades(ids(6, 10)) })); // limit 5: 5 may be lost
      const source = cold('-a---------b---------|', { a: batch(ids(1, 4), true), b: batch(ids(8, 10), true, 2) });
      expectObservable(source.pipe(op)).toBe('-(1234)-----(6789x)--|', VALUES);
      testScheduler.flush();
      expect(gaps).toEqual([{ symbol: 'BTCUSDT', lastSeenId: '4', firstNewId: '6', epoch: 2 }]);
      expect(errors).toEqual([]);
    });
  });

  it('does not fetch for a short replay, a replay that reaches back, or a non-first message', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      let calls = 0;
      const { op, gaps } = pipeline(() => (calls++, cold('-f|', { f: [] })));
      const source = cold('-a------b------c------d------|', {
        a: batch(['1', '2'], true),
        b: batch(['5', '6'], true, 2), // short: holds every trade the service had
        c: batch(['6', '7', '8'], true, 3), // reaches back to 6
        d: batch(['20', '21', '22']), // not a first message
      });
      const values = { ...VALUES, x: { v: '20' }, y: { v: '21' }, z: { v: '22' } };
      expectObservable(source.pipe(op)).toBe('-(12)---(56)---(78)---(xyz)--|', values);
      testScheduler.flush();
      expect(calls).toBe(0);
      expect(gaps).toEqual([]);
    });
  });

  it('leaves the gap to distinctTrades when the fetch fails, and reports the error', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const failure = new RequestFailedError('GET', '/quote/v1/trades', 'connection refused');
      const { op, gaps, errors } = pipeline(() => cold('-#', undefined, failure));
      const source = cold('-a---------b---------|', { a: batch(ids(1, 4), true), b: batch(ids(7, 9), true, 2) });
      expectObservable(source.pipe(op)).toBe('-(1234)-----(789)----|', VALUES);
      testScheduler.flush();
      expect(gaps).toEqual([{ symbol: 'BTCUSDT', lastSeenId: '4', firstNewId: '7', epoch: 2 }]);
      expect(errors).toEqual([failure]);
    });
  });

  it('gives a fetch timeoutMs, then lets the held messages go with a RequestTimeoutError', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const never = cold<T[]>('-');
      const { op, gaps, errors } = pipeline(() => never, { timeoutMs: 100 });
      const source = cold('-a---------b-c|', { a: batch(ids(1, 4), true), b: batch(ids(7, 9), true, 2), c: batch(['10']) });
      // b at 11 waits for the fetch until 111, c (live, at 13) behind it
      expectObservable(source.pipe(op)).toBe('-(1234) 104ms (789x|)', VALUES);
      expectSubscriptions(never.subscriptions).toBe('-----------^ 99ms !');
      testScheduler.flush();
      expect(gaps).toEqual([{ symbol: 'BTCUSDT', lastSeenId: '4', firstNewId: '7', epoch: 2 }]);
      expect(errors).toEqual([new RequestTimeoutError('GET', '/quote/v1/trades', 100)]);
    });
  });

  it('makes no fetch for retryAfterMs after a RateLimitedError', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      let calls = 0;
      const limited = new RateLimitedError(429, 1000, -1003, 'Too many requests');
      const { op, gaps } = pipeline(() => (calls++ === 0 ? cold('-#', undefined, limited) : cold('-f|', { f: trades(ids(19, 26)) })));
      const source = cold('-a---------b---------c 989ms d 9ms e|', {
        a: batch(ids(1, 3), true),
        b: batch(ids(7, 9), true, 2), // at 11: the fetch is rate limited at 12, no fetch until 1012
        c: batch(ids(13, 15), true, 3), // at 21: no fetch, the gap goes to distinctTrades
        d: batch(ids(17, 19), true, 4), // at 1011: still paused
        e: batch(ids(24, 26), true, 5), // at 1021: fetched again, filled
      });
      const all = [...ids(1, 3), ...ids(7, 9), ...ids(13, 15), ...ids(17, 26)];
      expectObservable(source.pipe(op, map((t) => t.v), toArray())).toBe('1022ms (a|)', { a: all });
      testScheduler.flush();
      expect(calls).toBe(2);
      expect(gaps.map((g) => `${g.lastSeenId}>${g.firstNewId}`)).toEqual(['3>7', '9>13', '15>17']);
    });
  });
});
