import { asyncScheduler, type SchedulerLike } from 'rxjs';

/**
 * `scheduler.now()` with the default scheduler filled in. The time rule (notes/architecture.md, "Time"): lib code
 * reads the time only through an injected `SchedulerLike`'s `now()` (this helper, or `scheduler.now()` directly
 * where a scheduler is already in hand), and waits only through that scheduler (`timer`, `delay`, `schedule`), so
 * a `TestScheduler` virtualizes all of it. No wall-clock read and no raw timer of the runtime in `lib/` outside
 * `lib/simulator/`; spec/internal/clock.spec.ts lists them and fails if one appears. This helper is not the only
 * reader: it is for code whose scheduler is optional (signing timestamps, the user stream's session tracking).
 * @internal
 */
export function nowMs(scheduler: SchedulerLike = asyncScheduler): number {
  return scheduler.now();
}
