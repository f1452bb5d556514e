import { Observable, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * Paces requests with the generic cell rate algorithm: up to `burst` requests at once, then one every
 * `1000 / ratePerSecond` ms, in FIFO order. `slot()` asks for the next free time when subscribed and emits
 * once then; only a slot that was granted (emitted) uses credit, so unsubscribing before that gives it back
 * (the next waiter, or the next request, takes it at once).
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
  /** The theoretical arrival time after the last granted slot. */
  let theoreticalArrival = -Infinity;
  /** The requests waiting, in order (a Set keeps insertion order and removes in O(1)). */
  const waiting = new Set<() => void>();
  let timer: Subscription | undefined;
  const dueAt = (now: number): number => Math.max(now, theoreticalArrival - toleranceMs);
  const grant = (now: number, go: () => void): void => {
    theoreticalArrival = Math.max(theoreticalArrival, now) + intervalMs;
    go();
  };
  const arm = (now: number): void => {
    if (timer === undefined && waiting.size > 0) timer = scheduler.schedule(pump, dueAt(now) - now);
  };
  function pump(): void {
    timer = undefined;
    const now = scheduler.now();
    for (const go of waiting) {
      if (dueAt(now) > now) break;
      waiting.delete(go);
      grant(now, go);
    }
    arm(now);
  }
  return {
    slot: () =>
      new Observable<unknown>((subscriber) => {
        const go = (): void => {
          subscriber.next(0);
          subscriber.complete();
        };
        const now = scheduler.now();
        if (waiting.size === 0 && dueAt(now) <= now) {
          grant(now, go);
          return undefined;
        }
        waiting.add(go);
        arm(now);
        return () => {
          if (waiting.delete(go) && waiting.size === 0) {
            timer?.unsubscribe();
            timer = undefined;
          }
        };
      }),
  };
}
