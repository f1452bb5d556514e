import { type SchedulerLike, Subscription } from 'rxjs';

/**
 * Runs `work` on `scheduler` `delayMs` from now, then again each time after the delay it returns, until it returns
 * `undefined` or the returned subscription is unsubscribed. A recurring timer (the pings, the silence watchdog's
 * re-arm) built this way costs one live action at a time on every scheduler, for any number of runs.
 *
 * Each run is a fresh `scheduler.schedule(...)`, never `this.schedule(...)` from inside the work (nor `interval` /
 * `timer(due, period)`, which are built on it): a `VirtualTimeScheduler`'s action, and so a `TestScheduler`'s, does
 * not reuse itself when rescheduled from its own work but adds a new action to itself (RxJS keeps virtual actions
 * immutable for inspection). A timer re-armed N times is then a chain of N actions, each holding the next: the heap
 * grows by one action per tick, and unsubscribing it recurses N deep, past the stack (a `RangeError`) after a few
 * thousand ticks: a day of 10 s pings. `asyncScheduler` would reuse its action; a fresh one per run costs it nothing
 * that matters at these periods (one timer set and cleared per run).
 * @internal
 */
export function scheduleRepeating(scheduler: SchedulerLike, work: () => number | undefined, delayMs: number): Subscription {
  let action: Subscription | undefined;
  const subscription = new Subscription(() => action?.unsubscribe());
  const run = (): void => {
    action = undefined;
    const next = work();
    if (next !== undefined && !subscription.closed) action = scheduler.schedule(run, next);
  };
  action = scheduler.schedule(run, delayMs);
  return subscription;
}
