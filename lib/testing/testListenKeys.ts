import { asyncScheduler, defer, EMPTY, type Observable, of, type SchedulerLike, throwError } from 'rxjs';
import { RequestFailedError, RequestRejectedError } from '../errors';
import type { ListenKeyApi } from '../user/listenKey';

/**
 * The three listen-key calls: `create` (POST), `extend` (PUT), `close` (DELETE).
 *
 * @example
 * ```ts
 * import type { TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.listenKeys.failNext('extend'); // the next keepalive fails on the network
 * ```
 */
export type ListenKeyCallName = 'create' | 'extend' | 'close';

/**
 * One call made to {@link TestListenKeys}, with its virtual time and outcome.
 *
 * @example
 * ```ts
 * import type { TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.listenKeys.calls;
 * // [{ time: 0, call: 'create', key: 'test-listen-key-1', outcome: 'ok' },
 * //  { time: 1800000, call: 'extend', key: 'test-listen-key-1', outcome: 'ok' }]
 * ```
 */
export interface ListenKeyCall {
  readonly time: number;
  readonly call: ListenKeyCallName;
  /** The key created, extended or closed (absent for a failed creation). */
  readonly key?: string;
  /** `ok`; `rejected` (HTTP answer, `RequestRejectedError`); `failed` (a scripted error from `failNext`). */
  readonly outcome: 'ok' | 'rejected' | 'failed';
}

/**
 * Configuration of {@link testListenKeys}. Every field is optional.
 *
 * @example
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * import { testListenKeys } from 'ex-streams/testing';
 * declare const testScheduler: TestScheduler;
 * const rest = testListenKeys({ scheduler: testScheduler, prefix: 'key-' }); // keys key-1, key-2, …
 * ```
 */
export interface TestListenKeysConfig {
  /** Clock for the recorded call times. Default `asyncScheduler` (pass the `TestScheduler`). */
  readonly scheduler?: SchedulerLike | undefined;
  /** Keys are `${prefix}1`, `${prefix}2`, … Default `'test-listen-key-'`. */
  readonly prefix?: string | undefined;
  /** Called when a key stops being valid (`expire()` or `closeListenKey`). The test exchange closes its sockets (4001). */
  readonly onInvalidated?: ((key: string, reason: string) => void) | undefined;
}

/**
 * A fake of the listen-key REST calls, behaving like the service: see {@link testListenKeys}.
 *
 * @example
 * ```ts
 * import { userStream } from 'ex-streams';
 * import type { TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * const user = userStream({ ...exchange.userConfig(), rest: exchange.listenKeys });
 * exchange.listenKeys.expire({ at: 50 }); // the socket is closed with 4001, the stream gets a new key
 * ```
 */
export interface TestListenKeys extends ListenKeyApi {
  /** Every call so far, oldest first. */
  readonly calls: readonly ListenKeyCall[];
  /** The key `createListenKey` returns now, if one is valid. */
  active(): string | undefined;
  /** Whether the key was issued by this fake. */
  issued(key: string): boolean;
  /** Whether the key was issued and is still valid (not expired, not closed). */
  isValid(key: string): boolean;
  /** At virtual time `at` (default now), the active key expires (reason `'listen key expired'`). */
  expire(options?: { readonly at?: number | undefined }): void;
  /**
   * The next `count` (default 1) calls of `call` fail with `error` (default: a `RequestFailedError`, a network
   * failure, which `listenKey` retries; pass a `RequestRejectedError` for an HTTP rejection).
   */
  failNext(call: ListenKeyCallName, options?: { readonly error?: Error | undefined; readonly count?: number | undefined }): void;
}

const PATH = '/api/v1/userDataStream';
const METHOD: Record<ListenKeyCallName, string> = { create: 'POST', extend: 'PUT', close: 'DELETE' };

/**
 * A `ListenKeyApi` for tests (pass it as `rest` to `userStream` or `listenKey`), behaving like the service:
 * `createListenKey` returns the active key or, when none is valid, a new one (`test-listen-key-1`, `-2`, …);
 * `extendListenKey` completes for a valid key and errors with `RequestRejectedError` (400, -1125) otherwise;
 * `closeListenKey` invalidates the key. Calls answer synchronously on subscription and are recorded in
 * `calls` with their virtual time. `expire()` and `failNext()` script the failures.
 *
 * @example
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * import { listenKey } from 'ex-streams/connection';
 * import { testListenKeys } from 'ex-streams/testing';
 * const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
 * testScheduler.run(({ cold, expectObservable }) => {
 *   const rest = testListenKeys({ scheduler: testScheduler });
 *   rest.expire({ at: 5 });
 *   const recreate$ = cold('-------r');
 *   expectObservable(listenKey(rest, { recreate$, scheduler: testScheduler }), '^ 9ms !')
 *     .toBe('k------l', { k: 'test-listen-key-1', l: 'test-listen-key-2' });
 * });
 * ```
 */
export function testListenKeys(config: TestListenKeysConfig = {}): TestListenKeys {
  const { scheduler = asyncScheduler, prefix = 'test-listen-key-', onInvalidated } = config;
  const calls: ListenKeyCall[] = [];
  const valid = new Set<string>();
  const all = new Set<string>();
  const failures: Record<ListenKeyCallName, Error[]> = { create: [], extend: [], close: [] };
  let current: string | undefined;
  let issuedCount = 0;

  const record = (call: ListenKeyCallName, outcome: ListenKeyCall['outcome'], key?: string): void => {
    calls.push({ time: scheduler.now(), call, ...(key !== undefined && { key }), outcome });
  };
  const invalidate = (key: string, reason: string): void => {
    if (!valid.delete(key)) return;
    if (current === key) current = undefined;
    onInvalidated?.(key, reason);
  };
  /** A scripted failure of `call`, if one is pending. */
  const failure = <A>(call: ListenKeyCallName, key?: string): Observable<A> | undefined => {
    const error = failures[call].shift();
    if (error === undefined) return undefined;
    record(call, 'failed', key);
    return throwError(() => error);
  };

  return {
    calls,
    active: () => current,
    issued: (key) => all.has(key),
    isValid: (key) => valid.has(key),
    createListenKey: () =>
      defer(() => {
        const failed = failure<string>('create');
        if (failed) return failed;
        if (current === undefined) {
          current = `${prefix}${++issuedCount}`;
          valid.add(current);
          all.add(current);
        }
        record('create', 'ok', current);
        return of(current);
      }),
    extendListenKey: (key) =>
      defer(() => {
        const failed = failure<void>('extend', key);
        if (failed) return failed;
        if (!valid.has(key)) {
          record('extend', 'rejected', key);
          return throwError(() => new RequestRejectedError(400, -1125, 'This listenKey does not exist.'));
        }
        record('extend', 'ok', key);
        return EMPTY;
      }),
    closeListenKey: (key) =>
      defer(() => {
        const failed = failure<void>('close', key);
        if (failed) return failed;
        if (!valid.has(key)) {
          record('close', 'rejected', key);
          return throwError(() => new RequestRejectedError(400, -1125, 'This listenKey does not exist.'));
        }
        record('close', 'ok', key);
        invalidate(key, 'listen key deleted');
        return EMPTY;
      }),
    expire: ({ at } = {}) => {
      scheduler.schedule(() => {
        if (current !== undefined) invalidate(current, 'listen key expired');
      }, Math.max(0, (at ?? scheduler.now()) - scheduler.now()));
    },
    failNext: (call, { error = new RequestFailedError(METHOD[call], PATH, 'simulated network failure'), count = 1 } = {}) => {
      for (let i = 0; i < count; i++) failures[call].push(error);
    },
  };
}
