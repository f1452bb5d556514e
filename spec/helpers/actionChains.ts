import { type SchedulerLike, VirtualAction, type VirtualTimeScheduler } from 'rxjs';

/** What {@link watchActionChains} measured. */
export interface ActionChains {
  /**
   * The longest chain of virtual actions rescheduled from their own work: `VirtualAction.schedule` called on an action
   * that is running adds a new action to it (RxJS keeps virtual actions immutable), so a timer re-armed N times that
   * way is a chain of N actions, each holding the next, and unsubscribing it recurses N deep. 0 when every timer
   * schedules a fresh action.
   */
  longest(): number;
  /** Puts `VirtualAction.prototype.schedule` back. */
  restore(): void;
}

/**
 * Measures the chains of virtual actions (`TestScheduler`, `VirtualTimeScheduler`) from now until `restore()`,
 * by wrapping `VirtualAction.prototype.schedule`.
 */
export function watchActionChains(): ActionChains {
  const proto = VirtualAction.prototype as unknown as { schedule: (this: VirtualAction<unknown>, state?: unknown, delay?: number) => unknown };
  const original = proto.schedule;
  const depth = new WeakMap<object, number>();
  let longest = 0;
  proto.schedule = function (state, delay = 0) {
    const running = this.id !== undefined && Number.isFinite(delay);
    const action = original.call(this, state, delay);
    if (running && action !== this && typeof action === 'object' && action !== null) {
      const d = (depth.get(this) ?? 0) + 1;
      depth.set(action, d);
      longest = Math.max(longest, d);
    }
    return action;
  };
  return { longest: () => longest, restore: () => void (proto.schedule = original) };
}

/**
 * Samples `scheduler.actions.length` (the actions queued) every `everyMs` until `untilMs`, with a fresh action each
 * time (itself no chain); `max()` is the most seen.
 */
export function sampleQueuedActions(scheduler: VirtualTimeScheduler, everyMs: number, untilMs: number): { max(): number } {
  let max = 0;
  const sample = (): void => {
    max = Math.max(max, scheduler.actions.length);
    if (scheduler.now() + everyMs <= untilMs) (scheduler as SchedulerLike).schedule(sample, everyMs);
  };
  scheduler.schedule(sample, everyMs);
  return { max: () => max };
}
