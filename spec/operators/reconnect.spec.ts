import { defer, type Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { ConfigError, ConnectionClosedError, RateLimitedError } from '../../lib/errors';
import { reconnect, type ReconnectInfo } from '../../lib/operators/reconnect';
import { errorAwareTestScheduler } from '../helpers/errorMarbles';
import { sequenceRandom } from '../helpers/sequenceRandom';

describe('reconnect', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  /** Subscribes to the given sources one after the other (the n-th subscription gets the n-th source). */
  function inTurn<T>(sources: Observable<T>[]): Observable<T> {
    let n = 0;
    return defer(() => sources[Math.min(n++, sources.length - 1)]!);
  }

  it('passes values through and resubscribes after a jittered delay', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('a-b-#');
      const result = source.pipe(reconnect({ minDelayMs: 10, random: () => 0.5, scheduler: testScheduler }));
      //  first: a-b-#  (error at 4), wait round(0.5 * 10) = 5, second from 9: a-b-#, wait round(0.5 * 20) = 10, third from 23
      expectObservable(result, '30ms !').toBe('a-b- 5ms a-b- 10ms a-b-');
      expectSubscriptions(source.subscriptions).toBe(['^---!', '9ms ^---!', '23ms ^---!']);
    });
  });

  it('follows the full-jitter backoff sequence and gives up after maxRetries', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('--#', undefined, new Error('down'));
      const infos: ReconnectInfo[] = [];
      const result = source.pipe(
        reconnect({
          minDelayMs: 10,
          maxDelayMs: 30,
          factor: 2,
          maxRetries: 4,
          random: sequenceRandom([0.5, 0.9, 0.5, 0.25]),
          scheduler: testScheduler,
          onReconnecting: (info) => infos.push(info),
        }),
      );
      // caps 10, 20, min(30, 40) = 30, 30 → delays 5, 18, 15, 8 (rounded)
      expectObservable(result).toBe('56ms #', undefined, new Error('down'));
      expectSubscriptions(source.subscriptions).toBe(['^-!', '7ms ^-!', '27ms ^-!', '44ms ^-!', '54ms ^-!']);
      testScheduler.flush();
      expect(infos.map(({ attempt, delayMs }) => [attempt, delayMs])).toEqual([
        [1, 5],
        [2, 18],
        [3, 15],
        [4, 8],
      ]);
      expect(infos.every((i) => i.cause instanceof Error && i.cause.message === 'down')).toBe(true);
    });
  });

  it('waits at least what the error asks for (retryAfterMs), capped at maxDelayMs', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const rateLimited = new RateLimitedError(429, 40);
      const upgrade429 = new ConnectionClosedError(1006, '', false, { failure: 'http-status', httpStatus: 429, retryAfterMs: 500 });
      const plain = new ConnectionClosedError(1006, '', false);
      const source = inTurn([cold('--#', undefined, rateLimited), cold('--#', undefined, upgrade429), cold('--#', undefined, plain), cold('-a')]);
      const infos: ReconnectInfo[] = [];
      const result = source.pipe(
        reconnect({ minDelayMs: 10, maxDelayMs: 100, random: () => 0.5, scheduler: testScheduler, onReconnecting: (i) => infos.push(i) }),
      );
      // errors at 2, 44, 146; backoff 5, 10, 20; asked 40 (kept), 500 (capped at 100), nothing (the backoff 20)
      expectObservable(result, '200ms !').toBe('167ms a');
      testScheduler.flush();
      expect(infos.map((i) => i.delayMs)).toEqual([40, 100, 20]);
    });
  });

  it('starts the attempt counter again after a healthy period of resetAfterMs', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const quick1 = cold('--#');
      const healthy = cold('a 29ms #');
      const quick2 = cold('--#');
      const infos: ReconnectInfo[] = [];
      const result = inTurn([quick1, quick1, healthy, quick2]).pipe(
        reconnect({
          minDelayMs: 10,
          resetAfterMs: 20,
          random: () => 0.5,
          scheduler: testScheduler,
          onReconnecting: (i) => infos.push(i),
        }),
      );
      // quick1 @0 err 2, wait 5 → quick1 @7 err 9, wait 10 → healthy @19 (a), err 49 (lived 30 ≥ 20: reset),
      // wait 5 → quick2 @54 err 56, wait 10 (attempt 2) → quick2 @66 err 68 (attempt 3)
      expectObservable(result, '70ms !').toBe('19ms a');
      expectSubscriptions(quick1.subscriptions).toBe(['^-!', '7ms ^-!']);
      expectSubscriptions(healthy.subscriptions).toBe(['19ms ^ 29ms !']);
      expectSubscriptions(quick2.subscriptions).toBe(['54ms ^-!', '66ms ^-!']);
      testScheduler.flush();
      expect(infos.map((i) => i.attempt)).toEqual([1, 2, 1, 2, 3]);
    });
  });

  it('keeps counting when the source never stays up for resetAfterMs', () => {
    testScheduler.run(({ cold }) => {
      const source = cold('5ms #');
      const infos: ReconnectInfo[] = [];
      source
        .pipe(reconnect({ minDelayMs: 1, maxRetries: 3, resetAfterMs: 6, random: () => 0, scheduler: testScheduler, onReconnecting: (i) => infos.push(i) }))
        .subscribe({ error: () => undefined });
      testScheduler.flush();
      expect(infos.map((i) => i.attempt)).toEqual([1, 2, 3]);
    });
  });

  it('passes an error on at once when shouldReconnect refuses it', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const auth = new Error('rejected');
      const source = cold('a-#', undefined, auth);
      const result = source.pipe(reconnect({ shouldReconnect: (e) => e !== auth, scheduler: testScheduler }));
      expectObservable(result).toBe('a-#', undefined, auth);
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
  });

  it('leaves no timer behind when unsubscribed during a wait', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('--#');
      const result = source.pipe(reconnect({ minDelayMs: 100, random: () => 0.5, scheduler: testScheduler }));
      expectObservable(result, '10ms !').toBe('');
      expectSubscriptions(source.subscriptions).toBe('^-!');
      let pending = -1;
      testScheduler.schedule(() => (pending = testScheduler.actions.length), 20);
      testScheduler.flush();
      expect(pending).toBe(0);
    });
  });

  it('completes when the source completes', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold('a|').pipe(reconnect({ scheduler: testScheduler }))).toBe('a|');
    });
  });

  it('rejects impossible settings with a ConfigError', () => {
    expect(() => reconnect({ minDelayMs: -1 })).toThrow(ConfigError);
    expect(() => reconnect({ minDelayMs: 100, maxDelayMs: 10 })).toThrow(ConfigError);
    expect(() => reconnect({ factor: 0.5 })).toThrow('factor must be >= 1');
    expect(() => reconnect({ maxRetries: -1 })).toThrow(ConfigError);
  });
});
