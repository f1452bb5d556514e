import { defer, type Observable, of, type SchedulerLike, timer } from 'rxjs';

/**
 * Paces requests with the generic cell rate algorithm: up to `burst` requests at once, then one every
 * `1000 / ratePerSecond` ms, in FIFO order. `slot()` reserves the next free time when subscribed and
 * emits once then; unsubscribing before that gives the slot up (it is not reused).
 *
 * @internal
 */
export interface Pacer {
  slot(): Observable<unknown>;
}

/** @internal */
export function pacer(ratePerSecond: number, burst: number, scheduler: SchedulerLike): Pacer {
  const intervalMs = 1000 / ratePerSecond;
  const toleranceMs = (Math.max(1, burst) - 1) * intervalMs;
  let theoreticalArrival = -Infinity;
  return {
    slot: () =>
      defer(() => {
        const now = scheduler.now();
        const arrival = Math.max(theoreticalArrival, now);
        const due = Math.max(now, arrival - toleranceMs);
        theoreticalArrival = arrival + intervalMs;
        return due <= now ? of(0) : timer(due - now, scheduler);
      }),
  };
}
