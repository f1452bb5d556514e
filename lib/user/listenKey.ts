import {
  asyncScheduler,
  catchError,
  concat,
  defer,
  distinctUntilChanged,
  finalize,
  ignoreElements,
  interval,
  map,
  merge,
  NEVER,
  of,
  ReplaySubject,
  retry,
  share,
  switchMap,
  tap,
  throwError,
  timer,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { ConfigError, RequestFailedError, RequestRejectedError } from '../errors';

/** Listen-key validity on the service (SPEC, Limits): 60 minutes. */
const LISTEN_KEY_VALIDITY_MS = 60 * 60 * 1000;

/**
 * The three listen-key calls {@link listenKey} needs. `RestClient` from `restClient(...)` satisfies it; tests
 * pass fakes. Each method returns a cold observable: one HTTP call per subscription.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import { listenKey, type ListenKeyApi } from 'ex-streams';
 *
 * // A fake for tests; a `restClient(...)` is the real one.
 * const api: ListenKeyApi = {
 *   createListenKey: () => of('key-1'),
 *   extendListenKey: () => of(undefined),
 *   closeListenKey: () => of(undefined),
 * };
 * listenKey(api).subscribe((key) => console.log(key === 'key-1')); // true
 * ```
 */
export interface ListenKeyApi {
  /** `POST /api/v1/userDataStream`: emits the new (or the account's active) key, then completes. */
  createListenKey(): Observable<string>;
  /** `PUT /api/v1/userDataStream`: completes on HTTP 200, errors otherwise. */
  extendListenKey(listenKey: string): Observable<void>;
  /** `DELETE /api/v1/userDataStream`: closes the private stream and invalidates the key. */
  closeListenKey(listenKey: string): Observable<void>;
}

/**
 * Configuration of {@link listenKey}. Every field is optional.
 *
 * @example
 * ```ts
 * import { listenKey, restClient, type ListenKeyConfig } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const config: ListenKeyConfig = { keepAliveIntervalMs: 20 * 60_000, onError: (e) => console.warn(String(e)) };
 * const key$ = listenKey(restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey }), config);
 * ```
 */
export interface ListenKeyConfig {
  /**
   * Time between two extensions (PUT), in ms, on a fixed grid from the first key. Default `1800000`
   * (30 minutes, as the service's sample client does). Must be below the 60-minute key validity.
   */
  readonly keepAliveIntervalMs?: number;
  /** First delay before retrying a call that failed on the network (doubles per attempt). Default `1000`. */
  readonly retryDelayMs?: number;
  /** Longest delay between two retries. Default `60000`. */
  readonly maxRetryDelayMs?: number;
  /**
   * Each emission forces a recreation (POST) now, e.g. after the private stream was closed because the
   * key is invalid. The answer is always emitted, even when the service returns the same key (the caller
   * is waiting for it). Default: never.
   */
  readonly recreate$?: Observable<unknown>;
  /** Close the key (DELETE) when the last subscriber leaves or the stream errors. Default `true`. */
  readonly closeOnUnsubscribe?: boolean;
  /**
   * Receives every non-fatal error: network failures before their retry, rejected extensions (before
   * recreation), a failed DELETE. Default: ignored.
   */
  readonly onError?: (error: unknown) => void;
  /** Clock for the keepalive grid and the retry delays. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * The listen key of the account, kept alive: a shared `Observable<string>` that creates a key on first
 * subscribe (POST), emits it, extends it (PUT) every `keepAliveIntervalMs`, and emits the replacement
 * whenever the key had to be recreated.
 *
 * Behaviour:
 * - shared: all subscribers use one key and one keepalive schedule; a late subscriber gets the current key
 *   at once; when the last one leaves, the key is closed (DELETE, fire-and-forget, failures go to `onError`)
 *   unless `closeOnUnsubscribe` is `false`, and the next subscriber starts afresh;
 * - a rejected extension (`RequestRejectedError`) recreates the key (POST returns the active key or a new
 *   one); the key is emitted only if it changed; a recreation forced through `recreate$` always emits;
 * - network failures (`RequestFailedError`) of any call, and HTTP 5xx / 429 / timestamp-window (`-1021`)
 *   answers to POST, are retried
 *   after `retryDelayMs`, doubling up to `maxRetryDelayMs`; the regular extensions stay on their grid (a
 *   retry still running when the next one is due is abandoned for it);
 * - a rejected creation (other `RequestRejectedError`, e.g. a bad signature) errors the observable;
 * - every timer runs on `scheduler`; no error built here carries the key.
 *
 * ```
 * POST  -k                                    (k = the key)
 * PUT   ---------30m---------PUT--------30m--------PUT ... (a rejected PUT: POST, emit if new)
 * out   -k----------------------------------------------- ...   last unsubscribe: DELETE k
 * ```
 *
 * @example
 * ```ts
 * import { Subject } from 'rxjs';
 * import { listenKey, restClient } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * const invalid = new Subject<void>();           // the private stream calls invalid.next() on close code 4001
 * const key$ = listenKey(rest, { recreate$: invalid });
 * key$.subscribe((key) => console.log('stream path /api/v1/ws/<key>', key.length));
 * ```
 */
export function listenKey(rest: ListenKeyApi, config: ListenKeyConfig = {}): Observable<string> {
  const {
    keepAliveIntervalMs = 30 * 60 * 1000,
    retryDelayMs = 1000,
    maxRetryDelayMs = 60_000,
    recreate$ = NEVER,
    closeOnUnsubscribe = true,
    onError,
    scheduler = asyncScheduler,
  } = config;
  validate(keepAliveIntervalMs, retryDelayMs, maxRetryDelayMs);

  const report = (error: unknown): void => {
    try {
      onError?.(error);
    } catch {
      // a failing hook must not stop the keepalive
    }
  };

  const withRetry = <A>(call: () => Observable<A>, retryable: (error: unknown) => boolean): Observable<A> =>
    defer(call).pipe(
      retry({
        delay: (error: unknown, count: number) => {
          if (!retryable(error)) return throwError(() => error);
          report(error);
          return timer(Math.min(retryDelayMs * 2 ** (count - 1), maxRetryDelayMs), scheduler);
        },
      }),
    );

  const create = (): Observable<string> => withRetry(() => rest.createListenKey(), isTransient);

  const extendOrRecreate = (key: string): Observable<string> =>
    withRetry(() => rest.extendListenKey(key), isNetworkFailure).pipe(
      ignoreElements(),
      catchError((error: unknown) => {
        if (!(error instanceof RequestRejectedError)) return throwError(() => error);
        report(error);
        return create();
      }),
    );

  return defer(() => {
    let current: string | undefined;
    const maintenance$ = merge(
      interval(keepAliveIntervalMs, scheduler).pipe(map(() => false)),
      recreate$.pipe(map(() => true)),
    ).pipe(
      switchMap((force) =>
        (force || current === undefined ? create() : extendOrRecreate(current)).pipe(map((key) => ({ key, force }))),
      ),
    );

    return create().pipe(
      switchMap((first) => concat(of({ key: first, force: true }), maintenance$)),
      tap(({ key }) => (current = key)),
      // A recreation asked for through `recreate$` is always answered, even with the same key (the caller
      // believes the key is dead and waits); keepalive recreations emit only a changed key.
      distinctUntilChanged((previous, next) => !next.force && previous.key === next.key),
      map(({ key }) => key),
      finalize(() => {
        if (closeOnUnsubscribe && current !== undefined) {
          const key = current;
          defer(() => rest.closeListenKey(key)).subscribe({ error: report });
        }
      }),
    );
  }).pipe(
    share({
      connector: () => new ReplaySubject<string>(1),
      resetOnError: true,
      resetOnComplete: true,
      resetOnRefCountZero: true,
    }),
  );
}

/** Network failures: worth retrying for every call. */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof RequestFailedError;
}

/**
 * Network failures, server errors, rate limiting, and a timestamp outside the service's window (a clock that
 * drifted or was corrected; the signer's server-clock offset may have caught up by the next try): worth
 * retrying for the creation call.
 */
function isTransient(error: unknown): boolean {
  return (
    error instanceof RequestFailedError ||
    (error instanceof RequestRejectedError && (error.status >= 500 || error.status === 429 || isTimestampRejection(error)))
  );
}

/** `-1021` (the code Binance-style services use), or a message about the timestamp or recvWindow. */
function isTimestampRejection(error: RequestRejectedError): boolean {
  return Number(error.code) === -1021 || /timestamp|recvwindow/i.test(error.msg ?? '');
}

function validate(keepAliveIntervalMs: number, retryDelayMs: number, maxRetryDelayMs: number): void {
  if (!(keepAliveIntervalMs > 0 && keepAliveIntervalMs < LISTEN_KEY_VALIDITY_MS)) {
    throw new ConfigError(
      'keepAliveIntervalMs',
      `must be > 0 and below the ${LISTEN_KEY_VALIDITY_MS} ms listen-key validity`,
    );
  }
  if (!(retryDelayMs > 0 && Number.isFinite(retryDelayMs))) {
    throw new ConfigError('retryDelayMs', 'must be a finite number > 0');
  }
  if (!(maxRetryDelayMs >= retryDelayMs && Number.isFinite(maxRetryDelayMs))) {
    throw new ConfigError('maxRetryDelayMs', 'must be a finite number >= retryDelayMs');
  }
}
