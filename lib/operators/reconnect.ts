import { asyncScheduler, defer, type MonoTypeOperatorFunction, retry, type SchedulerLike, throwError, timer } from 'rxjs';
import { ConfigError, ConnectionClosedError, RateLimitedError } from '../errors';

/**
 * What {@link ReconnectConfig.onReconnecting} is told before each wait.
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { reconnect } from 'ex-streams/connection';
 * declare const source$: Observable<unknown>;
 * source$.pipe(reconnect({ onReconnecting: ({ attempt, delayMs, cause }) => console.log(attempt, delayMs, cause) }));
 * // 1 312 ConnectionClosedError: connection closed (code 1006)
 * ```
 */
export interface ReconnectInfo {
  /** 1 for the first retry after a healthy period, then 2, 3, … */
  readonly attempt: number;
  /** The wait before resubscribing, in ms: the jittered backoff, or what the error asked for when longer. */
  readonly delayMs: number;
  /** The error that ended the previous subscription. */
  readonly cause: unknown;
}

/**
 * Configuration of {@link reconnect}. Every field is optional.
 *
 * @example
 * ```ts
 * import type { Observable } from 'rxjs';
 * import { RequestRejectedError } from 'ex-streams';
 * import { reconnect } from 'ex-streams/connection';
 * declare const source$: Observable<unknown>;
 * source$.pipe(reconnect({ maxRetries: 5, shouldReconnect: (e) => !(e instanceof RequestRejectedError) }));
 * ```
 */
export interface ReconnectConfig {
  /** Base delay: the cap of the first retry's wait, in ms. Default 500. */
  readonly minDelayMs?: number | undefined;
  /**
   * Largest wait, in ms, also of a wait an error asks for (`retryAfterMs`). Default 30 000 (a service that is
   * down for minutes is asked twice a minute).
   */
  readonly maxDelayMs?: number | undefined;
  /** Growth of the cap per attempt. Default 2. */
  readonly factor?: number | undefined;
  /** Retries in a row before giving up and passing the error on. Default `Infinity` (forever). */
  readonly maxRetries?: number | undefined;
  /**
   * A subscription that lived this long (ms) before failing counts as healthy: the attempt counter starts
   * again at 1. Default 60 000.
   */
  readonly resetAfterMs?: number | undefined;
  /** `false` passes the error on instead of retrying (e.g. an authentication rejection). Default: always `true`. */
  readonly shouldReconnect?: ((error: unknown) => boolean) | undefined;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  readonly random?: (() => number) | undefined;
  /** Clock and timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
  /** Called before each wait (e.g. to publish a "reconnecting" status). */
  readonly onReconnecting?: ((info: ReconnectInfo) => void) | undefined;
}

/**
 * Resubscribes to the source when it errors, after an exponential backoff with full jitter:
 * `delay = random() * min(maxDelayMs, minDelayMs * factor ^ (attempt - 1))`, rounded to whole ms.
 * An error that says how long to wait (`retryAfterMs` of a `RateLimitedError`, or of a `ConnectionClosedError`
 * whose websocket upgrade was answered with `Retry-After`) waits at least that long, capped at `maxDelayMs`.
 * Shaped like RxJS `retry`, usable on any observable. The attempt counter goes back to 1 when the failed
 * subscription had lived `resetAfterMs`; errors for which `shouldReconnect` is false, and the error after
 * `maxRetries` retries in a row, are passed on. Values and completion pass through unchanged. Throws a
 * `ConfigError` for a negative delay, `maxDelayMs < minDelayMs`, `factor < 1` or a negative `maxRetries`.
 *
 * ```
 * source (1st):  --a--#
 * source (2nd):        <delay>--b--#
 * reconnect():   --a-----------b------ …
 * ```
 *
 * @example
 * ```ts
 * import { reconnect } from 'ex-streams/connection';
 * import { webSocket } from 'rxjs/webSocket';
 * webSocket('wss://example.test/ws')
 *   .pipe(reconnect({ maxDelayMs: 10_000, onReconnecting: ({ attempt, delayMs }) => console.log(attempt, delayMs) }))
 *   .subscribe();
 * // after a drop: 1 312, then (if it fails again) 2 871, …
 * ```
 */
export function reconnect<T>(config: ReconnectConfig = {}): MonoTypeOperatorFunction<T> {
  const {
    minDelayMs = 500,
    maxDelayMs = 30_000,
    factor = 2,
    maxRetries = Infinity,
    resetAfterMs = 60_000,
    shouldReconnect = () => true,
    random = Math.random,
    scheduler = asyncScheduler,
    onReconnecting,
  } = config;
  if (!(minDelayMs >= 0) || !(maxDelayMs >= minDelayMs)) {
    throw new ConfigError('minDelayMs', 'must be >= 0 and at most maxDelayMs');
  }
  if (!(factor >= 1)) throw new ConfigError('factor', 'must be >= 1');
  if (!(maxRetries >= 0)) throw new ConfigError('maxRetries', 'must be >= 0');
  return (source) =>
    defer(() => {
      let attempt = 0;
      let subscribedAt = 0;
      const tracked = defer(() => {
        subscribedAt = scheduler.now();
        return source;
      });
      return tracked.pipe(
        retry({
          delay: (error: unknown) => {
            if (scheduler.now() - subscribedAt >= resetAfterMs) attempt = 0;
            if (attempt >= maxRetries || !shouldReconnect(error)) return throwError(() => error);
            attempt += 1;
            const delayMs = Math.max(backoffDelayMs(attempt, minDelayMs, maxDelayMs, factor, random), Math.min(maxDelayMs, askedWaitMs(error)));
            onReconnecting?.({ attempt, delayMs, cause: error });
            return timer(delayMs, scheduler);
          },
        }),
      );
    });
}

/**
 * The one backoff formula of the library (see {@link reconnect}): full jitter over a capped exponential,
 * `round(random() * min(maxDelayMs, minDelayMs * factor ^ (attempt - 1)))`, `attempt` from 1.
 * @internal
 */
export function backoffDelayMs(
  attempt: number,
  minDelayMs: number,
  maxDelayMs: number,
  factor: number,
  random: () => number,
): number {
  return Math.round(random() * Math.min(maxDelayMs, minDelayMs * factor ** (attempt - 1)));
}

/** The wait an error asks for itself (a `Retry-After` read into `retryAfterMs`), else 0. */
function askedWaitMs(error: unknown): number {
  const asked = error instanceof RateLimitedError || error instanceof ConnectionClosedError ? error.retryAfterMs : undefined;
  return asked !== undefined && asked > 0 ? asked : 0;
}
