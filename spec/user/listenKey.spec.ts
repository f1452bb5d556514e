import { Observable, Subject } from 'rxjs';
import { TestScheduler, type RunHelpers } from 'rxjs/testing';
import { ConfigError, RateLimitedError, RequestFailedError, RequestRejectedError } from '../../lib/errors';
import { listenKey, type ListenKeyApi } from '../../lib/user/listenKey';

const MIN = 60_000;
const PATH = '/api/v1/userDataStream';
const keys = { a: 'KEY-AAAA', b: 'KEY-BBBB' };
const unknownKey = new RequestRejectedError(400, -1125, 'This listenKey does not exist.');
const reset = new RequestFailedError('PUT', PATH, 'ECONNRESET');

/** Marble responses per call, in call order; the last one repeats. `#` errors with `errors[method]`. */
interface Plan {
  readonly post?: readonly string[];
  readonly put?: readonly string[];
  readonly del?: readonly string[];
  readonly errors?: { readonly post?: Error; readonly put?: Error; readonly del?: Error };
}

/** A ListenKeyApi made of cold() marbles that logs `[time, call]` for every HTTP call it receives. */
function fakeApi(h: RunHelpers, scheduler: TestScheduler, plan: Plan) {
  const log: [number, string][] = [];
  const deletes: ReturnType<RunHelpers['cold']>[] = [];
  const next = (list: readonly string[] | undefined, fallback: string, n: number) =>
    list ? list[Math.min(n, list.length - 1)]! : fallback;
  let posts = 0;
  let puts = 0;
  let dels = 0;
  const api: ListenKeyApi = {
    createListenKey: () => {
      log.push([scheduler.now(), 'POST']);
      return h.cold(next(plan.post, '-(a|)', posts++), keys, plan.errors?.post);
    },
    extendListenKey: (key) => {
      log.push([scheduler.now(), `PUT ${key}`]);
      return h.cold(next(plan.put, '-|', puts++), {}, plan.errors?.put) as unknown as Observable<void>;
    },
    closeListenKey: (key) => {
      log.push([scheduler.now(), `DELETE ${key}`]);
      const call = h.cold(next(plan.del, '-|', dels++), {}, plan.errors?.del);
      deletes.push(call);
      return call as unknown as Observable<void>;
    },
  };
  return { api, log, deletes };
}

describe('listenKey', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('creates a key, extends it every 30 minutes for 3 hours and closes it on unsubscribe', () => {
    testScheduler.run((h) => {
      const { api, log, deletes } = fakeApi(h, testScheduler, {});
      const unsub = '^ 190m !';
      h.expectObservable(listenKey(api), unsub).toBe('-a', keys);
      testScheduler.schedule(() => {
        const end = 1 + 190 * MIN;
        const puts = [30, 60, 90, 120, 150, 180].map((m): [number, string] => [1 + m * MIN, 'PUT KEY-AAAA']);
        expect(log).toEqual([[0, 'POST'], ...puts, [end, 'DELETE KEY-AAAA']]);
        h.expectSubscriptions(deletes[0]!.subscriptions).toBe('- 190m ^!');
      }, 200 * MIN);
    });
  });

  it('does not close the key when closeOnUnsubscribe is false', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, {});
      h.expectObservable(listenKey(api, { closeOnUnsubscribe: false }), '^ 45m !').toBe('-a', keys);
      testScheduler.schedule(() => expect(log).toEqual([[0, 'POST'], [1 + 30 * MIN, 'PUT KEY-AAAA']]), 60 * MIN);
    });
  });

  it('recreates the key when an extension is rejected and emits the new key', () => {
    const reported: unknown[] = [];
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, {
        post: ['-(a|)', '-(b|)'],
        put: ['-#', '-|'],
        errors: { put: unknownKey },
      });
      const key$ = listenKey(api, { onError: (e) => reported.push(e) });
      h.expectObservable(key$, '^ 70m !').toBe('-a 30m 1ms b', keys);
      testScheduler.schedule(() => {
        expect(log).toEqual([
          [0, 'POST'],
          [1 + 30 * MIN, 'PUT KEY-AAAA'],
          [2 + 30 * MIN, 'POST'],
          [1 + 60 * MIN, 'PUT KEY-BBBB'],
          [1 + 70 * MIN, 'DELETE KEY-BBBB'],
        ]);
      }, 80 * MIN);
    });
    expect(reported).toEqual([unknownKey]);
  });

  it('does not emit the same key again when the recreation returns the active key', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, { post: ['-(a|)'], put: ['-#', '-|'], errors: { put: unknownKey } });
      h.expectObservable(listenKey(api), '^ 70m !').toBe('-a', keys);
      testScheduler.schedule(() => {
        expect(log.map(([, call]) => call)).toEqual(['POST', 'PUT KEY-AAAA', 'POST', 'PUT KEY-AAAA', 'DELETE KEY-AAAA']);
        expect(log[3]![0]).toBe(1 + 60 * MIN);
      }, 80 * MIN);
    });
  });

  it('retries a network failure with a growing backoff and keeps the 30-minute grid', () => {
    const reported: unknown[] = [];
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, { put: ['-#', '-#', '-#', '-|'], errors: { put: reset } });
      const key$ = listenKey(api, { onError: (e) => reported.push(e), closeOnUnsubscribe: false, random: () => 1 });
      h.expectObservable(key$, '^ 65m !').toBe('-a', keys);
      testScheduler.schedule(() => {
        const t = 1 + 30 * MIN;
        expect(log).toEqual([
          [0, 'POST'],
          [t, 'PUT KEY-AAAA'],
          [t + 1 + 1000, 'PUT KEY-AAAA'],
          [t + 2 + 3000, 'PUT KEY-AAAA'],
          [t + 3 + 7000, 'PUT KEY-AAAA'],
          [1 + 60 * MIN, 'PUT KEY-AAAA'],
        ]);
      }, 70 * MIN);
    });
    expect(reported).toEqual([reset, reset, reset]);
  });

  it('abandons retries of an extension when the next one is due', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, { put: ['-#'], errors: { put: reset } });
      const key$ = listenKey(api, { keepAliveIntervalMs: 10_000, retryDelayMs: 4000, closeOnUnsubscribe: false, random: () => 1 });
      h.expectObservable(key$, '^ 25s !').toBe('-a', keys);
      testScheduler.schedule(() => {
        // PUT at 10 001, fails at 10 002, retried at 14 002 (fails 14 003), next retry would be 22 003:
        // the grid's PUT at 20 001 replaces it.
        expect(log.map(([time]) => time)).toEqual([0, 10_001, 14_002, 20_001, 24_002]);
      }, 30_000);
    });
  });

  it('recreates the key when recreate$ emits, and keeps the grid', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, { post: ['-(a|)', '-(b|)'] });
      const recreate$ = h.hot('40m x');
      h.expectObservable(listenKey(api, { recreate$ }), '^ 65m !').toBe('-a 2399999ms b', keys);
      testScheduler.schedule(() => {
        expect(log).toEqual([
          [0, 'POST'],
          [1 + 30 * MIN, 'PUT KEY-AAAA'],
          [40 * MIN, 'POST'],
          [1 + 60 * MIN, 'PUT KEY-BBBB'],
          [1 + 65 * MIN, 'DELETE KEY-BBBB'],
        ]);
      }, 70 * MIN);
    });
  });

  it('answers a forced recreation even when the service returns the same key', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, {});
      const recreate$ = h.hot('10m x 5m y');
      h.expectObservable(listenKey(api, { recreate$ }), '^ 20m !').toBe('-a 599999ms a 300000ms a', keys);
      testScheduler.schedule(() => {
        expect(log.map(([, call]) => call)).toEqual(['POST', 'POST', 'POST', 'DELETE KEY-AAAA']);
      }, 30 * MIN);
    });
  });

  it('shares one key between consumers and replays it to late subscribers', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, {});
      const key$ = listenKey(api);
      h.expectObservable(key$, '^ 20m !').toBe('-a', keys);
      h.expectObservable(key$, '10m ^ 25m !').toBe('10m a', keys);
      testScheduler.schedule(() => {
        expect(log).toEqual([
          [0, 'POST'],
          [1 + 30 * MIN, 'PUT KEY-AAAA'],
          [1 + 35 * MIN, 'DELETE KEY-AAAA'],
        ]);
      }, 40 * MIN);
    });
  });

  it('starts afresh after the last consumer left', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, { post: ['-(a|)', '-(b|)'] });
      const key$ = listenKey(api);
      h.expectObservable(key$, '^ 5m !').toBe('-a', keys);
      h.expectObservable(key$, '10m ^ 5m !').toBe('10m -b', keys);
      testScheduler.schedule(() => {
        expect(log.map(([, call]) => call)).toEqual(['POST', 'DELETE KEY-AAAA', 'POST', 'DELETE KEY-BBBB']);
      }, 20 * MIN);
    });
  });

  it('retries a network failure of the first creation, then emits the key', () => {
    testScheduler.run((h) => {
      const failed = new RequestFailedError('POST', PATH, 'ECONNREFUSED');
      const { api, log } = fakeApi(h, testScheduler, { post: ['-#', '-#', '-(a|)'], errors: { post: failed } });
      h.expectObservable(listenKey(api, { random: () => 1 }), '^ 10s !').toBe('3003ms a', keys);
      testScheduler.schedule(() => expect(log.map(([time]) => time)).toEqual([0, 1001, 3002, 10_001]), 20_000);
    });
  });

  it('retries a 5xx answer to the creation', () => {
    testScheduler.run((h) => {
      const unavailable = new RequestRejectedError(503);
      const { api } = fakeApi(h, testScheduler, { post: ['-#', '-(a|)'], errors: { post: unavailable } });
      h.expectObservable(listenKey(api, { random: () => 1 }), '^ 10s !').toBe('1002ms a', keys);
    });
  });

  it('retries a creation rejected for its timestamp (a clock outside the window), by code or by message', () => {
    testScheduler.run((h) => {
      const byCode = new RequestRejectedError(400, -1021, 'Timestamp for this request is outside of the recvWindow.');
      const { api } = fakeApi(h, testScheduler, { post: ['-#', '-(a|)'], errors: { post: byCode } });
      h.expectObservable(listenKey(api, { random: () => 1 }), '^ 10s !').toBe('1002ms a', keys);
      const byText = new RequestRejectedError(400, '-9', 'timestamp too far ahead');
      const other = fakeApi(h, testScheduler, { post: ['-#', '-(a|)'], errors: { post: byText } });
      h.expectObservable(listenKey(other.api, { random: () => 1 }), '^ 10s !').toBe('1002ms a', keys);
    });
  });

  it('never ends on a rejected creation: reports it and retries with capped, jittered backoff until unsubscribed', () => {
    const reported: unknown[] = [];
    const badSignature = new RequestRejectedError(401, -1022, 'Signature for this request is not valid.');
    const noKey = new RequestRejectedError(200, undefined, 'response has no listenKey');
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, { post: ['-#'], errors: { post: badSignature } });
      const random = () => 0.5;
      h.expectObservable(listenKey(api, { onError: (e) => reported.push(e), random, maxRetryDelayMs: 4000 }), '^ 20s !').toBe('');
      const other = fakeApi(h, testScheduler, { post: ['-#', '-#', '-(a|)'], errors: { post: noKey } });
      h.expectObservable(listenKey(other.api, { random }), '^ 20s !').toBe('1503ms a', keys);
      testScheduler.schedule(() => {
        // waits 0.5 * min(4000, 1000 * 2^(n-1)): 500, 1000, 2000, 2000, … after each 1 ms answer; no DELETE (no key)
        const times = [0, 501, 1502, 3503, 5504, 7505, 9506, 11_507, 13_508, 15_509, 17_510, 19_511];
        expect(log).toEqual(times.map((t) => [t, 'POST']));
      }, 30_000);
    });
    expect(reported.length).toBe(12);
    expect(reported.every((e) => e === badSignature)).toBe(true);
  });

  it('keeps a stream whose recreation is rejected alive, and closes the last key on unsubscribe', () => {
    testScheduler.run((h) => {
      const banned = new RequestRejectedError(403, -2015, 'Invalid API-key, IP, or permissions for action.');
      const { api, log } = fakeApi(h, testScheduler, {
        post: ['-(a|)', '-#', '-#', '-(b|)'],
        put: ['-#'],
        errors: { put: unknownKey, post: banned },
      });
      h.expectObservable(listenKey(api, { random: () => 1 }), '^ 40m !').toBe('-a 30m 3003ms b', keys);
      testScheduler.schedule(
        () => expect(log.map(([, call]) => call)).toEqual(['POST', 'PUT KEY-AAAA', 'POST', 'POST', 'POST', 'DELETE KEY-BBBB']),
        50 * MIN,
      );
    });
  });

  it('waits at least Retry-After after a rate limit (429 / 418), and the longest backoff for a bare one', () => {
    testScheduler.run((h) => {
      const limited = new RateLimitedError(429, 30_000, -1003, 'Too many requests');
      const a = fakeApi(h, testScheduler, { post: ['-#', '-(a|)'], errors: { post: limited } });
      h.expectObservable(listenKey(a.api, { random: () => 0.5 }), '^ 60s !').toBe('30002ms a', keys);
      const banned = new RateLimitedError(418, 180_000);
      const b = fakeApi(h, testScheduler, { post: ['-#', '-(a|)'], errors: { post: banned } });
      h.expectObservable(listenKey(b.api, { random: () => 0.5 }), '^ 5m !').toBe('180002ms a', keys);
      const bare = new RequestRejectedError(418);
      const c = fakeApi(h, testScheduler, { post: ['-#', '-(a|)'], errors: { post: bare } });
      h.expectObservable(listenKey(c.api, { random: () => 0.5 }), '^ 5m !').toBe('60002ms a', keys);
      testScheduler.schedule(() => expect(a.log.map(([t]) => t)).toEqual([0, 30_001]), 59_000);
    });
  });

  it('extends again after a rate-limited extension (Retry-After), without recreating the key', () => {
    const limited = new RateLimitedError(429, 45_000);
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, { put: ['-#', '-|'], errors: { put: limited } });
      h.expectObservable(listenKey(api, { random: () => 0.5, closeOnUnsubscribe: false }), '^ 40m !').toBe('-a', keys);
      testScheduler.schedule(() => expect(log).toEqual([[0, 'POST'], [1 + 30 * MIN, 'PUT KEY-AAAA'], [2 + 30 * MIN + 45_000, 'PUT KEY-AAAA']]), 45 * MIN);
    });
  });

  it('backs off forced recreations in a row (every key dies at once), and forgets after a healthy key', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, {});
      // the stream says "dead" 1 ms after each key, 8 times, then again 5 minutes later
      const recreate$ = new Subject<void>();
      const key$ = listenKey(api, { recreate$, random: () => 1, maxRetryDelayMs: 8000 });
      const emitted: number[] = [];
      const sub = key$.subscribe(() => {
        if (emitted.push(testScheduler.now()) <= 8) testScheduler.schedule(() => recreate$.next(), 1);
      });
      testScheduler.schedule(() => recreate$.next(), 5 * MIN);
      testScheduler.schedule(() => sub.unsubscribe(), 10 * MIN);
      testScheduler.flush();
      // each POST answers in 1 ms; waits 0, then 1000, 2000, 4000, 8000 (the cap), 8000, …
      expect(emitted).toEqual([1, 3, 1005, 3007, 7009, 15_011, 23_013, 31_015, 39_017, 5 * MIN + 1]);
      expect(log.filter(([, call]) => call === 'POST').length).toBe(10); // a key that lived minutes: at once again
    });
  });

  it('shares one key and one keepalive between every listenKey() of one api, deleting it after the last leaves', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, {});
      h.expectObservable(listenKey(api), '^ 40m !').toBe('-a', keys);
      h.expectObservable(listenKey(api, { keepAliveIntervalMs: 10 * MIN }), '5m ^ 50m !').toBe('5m a', keys);
      testScheduler.schedule(() => {
        expect(log).toEqual([
          [0, 'POST'],
          [1 + 30 * MIN, 'PUT KEY-AAAA'],
          [1 + 55 * MIN, 'DELETE KEY-AAAA'],
        ]);
      }, 60 * MIN);
    });
  });

  it('creates the next key only after the previous DELETE answered', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, { del: ['----|'] });
      h.expectObservable(listenKey(api), '^ 5ms !').toBe('-a', keys);
      // unsubscribed at 6: DELETE at 6, answered at 10; the next subscriber (7) posts at 10 and gets the key at 11
      h.expectObservable(listenKey(api), '-------^ 10ms !').toBe('-----------a', keys);
      testScheduler.schedule(
        () => expect(log).toEqual([[0, 'POST'], [6, 'DELETE KEY-AAAA'], [10, 'POST'], [18, 'DELETE KEY-AAAA']]),
        30,
      );
    });
  });

  it('deletes the key of a creation still in flight at teardown when it answers', () => {
    testScheduler.run((h) => {
      const { api, log } = fakeApi(h, testScheduler, { post: ['-----(a|)', '-(b|)'] });
      h.expectObservable(listenKey(api), '^-!').toBe('', keys);
      h.expectObservable(listenKey(api), '---^ 10ms !').toBe('-------b', keys);
      testScheduler.schedule(
        () => expect(log).toEqual([[0, 'POST'], [5, 'DELETE KEY-AAAA'], [6, 'POST'], [14, 'DELETE KEY-BBBB']]),
        30,
      );
    });
  });

  it('reports a failed DELETE to onError without erroring anyone', () => {
    const reported: unknown[] = [];
    const gone = new RequestFailedError('DELETE', PATH, 'ECONNRESET');
    testScheduler.run((h) => {
      const { api, deletes } = fakeApi(h, testScheduler, { del: ['-#'], errors: { del: gone } });
      h.expectObservable(listenKey(api, { onError: (e) => reported.push(e) }), '^ 1m !').toBe('-a', keys);
      testScheduler.schedule(() => h.expectSubscriptions(deletes[0]!.subscriptions).toBe('- 1m ^!'), 2 * MIN);
    });
    expect(reported).toEqual([gone]);
  });

  it('rejects a keepalive interval that would let the key expire', () => {
    const api = {} as ListenKeyApi;
    expect(() => listenKey(api, { keepAliveIntervalMs: 60 * MIN })).toThrow(ConfigError);
    expect(() => listenKey(api, { keepAliveIntervalMs: 0 })).toThrow(ConfigError);
    expect(() => listenKey(api, { retryDelayMs: 0 })).toThrow(ConfigError);
    expect(() => listenKey(api, { retryDelayMs: 5000, maxRetryDelayMs: 1000 })).toThrow(ConfigError);
    expect(() => listenKey(api, { keepAliveIntervalMs: 59 * MIN })).not.toThrow();
  });
});
