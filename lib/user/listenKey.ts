import type { Observable } from 'rxjs';
import { sharedListenKey } from './internal/sharedListenKey';
import type { ListenKeyApi, ListenKeyConfig } from './listenKeyConfig';

export type { ListenKeyApi, ListenKeyConfig } from './listenKeyConfig';

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
 * import { restClient } from 'ex-streams';
 * import { listenKey } from 'ex-streams/connection';
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
