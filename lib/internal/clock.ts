import { asyncScheduler, type SchedulerLike } from 'rxjs';

/**
 * The one place where ex-streams reads the time: the injected scheduler's clock. Everything that needs
 * "now" (signing timestamps, heartbeat windows, gap intervals) goes through here, so a `TestScheduler`
 * virtualizes all of it.
 * @internal
 */
export function nowMs(scheduler: SchedulerLike = asyncScheduler): number {
  return scheduler.now();
}
