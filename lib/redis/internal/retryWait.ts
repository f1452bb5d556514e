import type { SchedulerLike, Subscription } from 'rxjs';

/**
 * The consumer's waits before a retry (its read and push loops): a backoff from {@link MIN_RETRY_MS} doubling up to
 * {@link MAX_RETRY_MS}, on the relay's scheduler, that a stop ends at once (no timer outlives its loop).
 *
 * @internal
 * @module
 */

/** Wait after a failed command before the next, ms (doubling up to {@link MAX_RETRY_MS}). @internal */
export const MIN_RETRY_MS = 50;
/** @internal */
export const MAX_RETRY_MS = 1000;

/** A wait before a retry: its timer, and what ends it. @internal */
export interface Wait {
  readonly timer: Subscription;
  readonly wake: () => void;
}

/** Ends `wait` now, if one is under way (a stop: no timer outlives its loop). @internal */
export function endWait(wait: Wait | undefined): void {
  wait?.timer.unsubscribe();
  wait?.wake();
}

/** `ms` on `scheduler`; `hold` is given the wait (and `undefined` once over), so that a stop can end it early. @internal */
export function sleep(scheduler: SchedulerLike, ms: number, hold: (waiting: Wait | undefined) => void): Promise<void> {
  return new Promise((resolve) => {
    const wake = (): void => {
      hold(undefined);
      resolve();
    };
    hold({ timer: scheduler.schedule(wake, ms), wake });
  });
}
