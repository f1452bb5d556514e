import type { Observable, SchedulerLike } from 'rxjs';
import { sharedListenKey } from './internal/sharedListenKey';

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

/**
 * The listen key of the account, kept alive: a shared `Observable<string>` that creates a key on first
 * subscribe (POST), emits it, extends it (PUT) every `keepAliveIntervalMs`, and emits the replacement
 * whenever the key had to be recreated.
 *
 * Behaviour:
 * - shared per `rest` object, across calls: every subscription to any `listenKey(rest, …)` (and every
 *   `userStream` on that `rest`) made while a key lives uses that one key and one keepalive schedule (the
 *   settings of the subscription that started it; each subscriber's `recreate$` and `onError` are its own);
 *   a late subscriber gets the current key at once; when the last one leaves, the key is closed (DELETE,
 *   failures go to `onError`) unless `closeOnUnsubscribe` is `false`, and the next subscriber starts afresh
 *   once that DELETE answered (so the service's "active key" is not deleted under it);
 * - a creation still in flight when the last subscriber leaves is not aborted: its key is deleted when it
 *   answers;
 * - the service's answers never end it: a failed or rejected creation (network, 4xx, 5xx, an answer without
 *   a key) goes to `onError` and is retried after `random() * min(maxRetryDelayMs, retryDelayMs * 2^(n-1))`,
 *   and never sooner than a rate limit's `retryAfterMs` (`RateLimitedError`; a bare 429 / 418 waits
 *   `maxRetryDelayMs`), until the last subscriber leaves; only a `ConfigError` errors it;
 * - a rejected extension recreates the key (POST returns the active key or a new one); the key is emitted
 *   only if it changed; a recreation forced through `recreate$` always emits; forced recreations in a row
 *   (each key dying within a minute) back off with the same formula, so a service that rejects every key
 *   is not flooded with POSTs;
 * - network failures of an extension are retried with the same backoff; the regular extensions stay on
 *   their grid (a retry still running when the next one is due is abandoned for it);
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
  return sharedListenKey(rest, config);
}
