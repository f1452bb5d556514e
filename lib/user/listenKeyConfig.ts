import type { Observable, SchedulerLike } from 'rxjs';

/**
 * The three listen-key calls {@link listenKey} needs. `RestClient` from `restClient(...)` satisfies it; tests
 * pass fakes. Each method returns a cold observable: one HTTP call per subscription.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import { listenKey, type ListenKeyApi } from 'ex-streams/connection';
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
  /**
   * Optional: the client's estimate of serverTime − localTime, in ms (`RestClient` has it). The user stream
   * adds it to its clock when it judges event times (`maxEventTimeSkewMs`). Default: taken as 0.
   */
  serverTimeOffsetMs?(): number;
  /**
   * Optional: how far off `serverTimeOffsetMs()` can be, in ms (`RestClient` has it). The user stream dates a gap
   * from events read late at the earliest local time their `E` can stand for, and a balance snapshot at the
   * earliest time the service's clock can have read. Default: 0.
   */
  serverTimeOffsetErrorMs?(): number;
}

/**
 * Configuration of {@link listenKey}. Every field is optional.
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import { listenKey, type ListenKeyConfig } from 'ex-streams/connection';
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
  readonly keepAliveIntervalMs?: number | undefined;
  /**
   * Cap of the first retry's wait, in ms: a failed call is retried after `random() * min(maxRetryDelayMs,
   * retryDelayMs * 2 ^ (attempt - 1))` (the formula of `reconnect`). Default `1000`.
   */
  readonly retryDelayMs?: number | undefined;
  /** Longest delay between two retries, in ms. Default `60000`. */
  readonly maxRetryDelayMs?: number | undefined;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  readonly random?: (() => number) | undefined;
  /**
   * Each emission forces a recreation (POST) now, e.g. after the private stream was closed because the
   * key is invalid. The answer is always emitted, even when the service returns the same key (the caller
   * is waiting for it). Default: never.
   */
  readonly recreate$?: Observable<unknown>;
  /** Close the key (DELETE) when the last subscriber leaves or the stream errors. Default `true`. */
  readonly closeOnUnsubscribe?: boolean | undefined;
  /**
   * Receives every error, none of which ends the observable: failed or rejected creations before their
   * retry, network failures, rejected extensions (before recreation), a failed DELETE. Default: ignored.
   */
  readonly onError?: ((error: unknown) => void) | undefined;
  /** Clock for the keepalive grid and the retry delays. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
}
