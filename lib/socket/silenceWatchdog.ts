import { Observable, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { HeartbeatTimeoutError } from '../errors';

/**
 * Errors with a {@link HeartbeatTimeoutError} once `lastSeenAt()` is `timeoutMs` or more in the past (checked
 * first when a silence that began before the watch started would reach it).
 * One scheduled action at a time, re-armed for the remaining window when it fires early, so the hot path
 * only stores a timestamp per frame (no timer per frame).
 * @internal
 */
export function silenceWatchdog(
  timeoutMs: number,
  lastSeenAt: () => number,
  scheduler: SchedulerLike,
): Observable<never> {
  // The first check comes when the silence that already began (at `lastSeenAt()`, maybe before the watch) would
  // reach `timeoutMs`, not a whole window after the watch starts.
  return new Observable<never>((subscriber) =>
    scheduler.schedule(
      function (this: SchedulerAction<undefined>) {
        const silentForMs = scheduler.now() - lastSeenAt();
        if (silentForMs >= timeoutMs) subscriber.error(new HeartbeatTimeoutError(silentForMs));
        else this.schedule(undefined, timeoutMs - silentForMs);
      },
      Math.max(0, lastSeenAt() + timeoutMs - scheduler.now()),
    ),
  );
}
