import { Observable, type SchedulerLike } from 'rxjs';
import { HeartbeatTimeoutError } from '../errors';
import { scheduleRepeating } from '../internal/scheduleRepeating';

/**
 * How {@link silenceWatchdog} tells a silent peer from a process that could not listen: after a synchronous
 * stall (a long GC, heavy computation) the timers run before the frames waiting on the socket are read, and the
 * pings due during the stall were not even sent, so the silence the check measures is the process's own.
 * @internal
 */
export interface StallGrace {
  /**
   * How long the peer gets, once the process runs again after a stall, before a silence of `timeoutMs` counts
   * (the socket session: one ping interval, for a ping sent at the stall's end to be answered).
   */
  readonly graceMs: number;
  /** How late a check may run before the process counts as having stalled (the socket session: a tenth of a ping interval). */
  readonly toleranceMs: number;
  /** The scheduler time at which another timer of the same process (the pings) last found it stalled, if ever. */
  readonly stalledAt?: (() => number | undefined) | undefined;
}

/**
 * Errors with a {@link HeartbeatTimeoutError} once `lastSeenAt()` is `timeoutMs` or more in the past (checked
 * first when a silence that began before the watch started would reach it).
 * One scheduled action at a time, re-armed for the remaining window when it fires early, so the hot path
 * only stores a timestamp per frame (no timer per frame); each re-arm is a fresh action (`scheduleRepeating`), so a
 * watch of any length holds one action, in virtual time too.
 *
 * With `stall`, a silence found just after the process stalled is not a verdict yet: when the check itself ran
 * more than `toleranceMs` late, or `stalledAt()` is within `graceMs`, the check comes again `graceMs` after the
 * stall's end (once per silence: a frame seen meanwhile starts the count again), so the frames already waiting
 * on the socket are read and a ping sent after the stall can be answered. A stall of any length with a live peer
 * then costs nothing, and a silent peer is still found within `timeoutMs + graceMs` of its last frame (of the
 * stall's end, after a stall).
 * @internal
 */
export function silenceWatchdog(
  timeoutMs: number,
  lastSeenAt: () => number,
  scheduler: SchedulerLike,
  stall?: StallGrace,
): Observable<never> {
  return new Observable<never>((subscriber) => {
    // The first check comes when the silence that already began (at `lastSeenAt()`, maybe before the watch) would
    // reach `timeoutMs`, not a whole window after the watch starts.
    let dueAt = Math.max(scheduler.now(), lastSeenAt() + timeoutMs);
    /** The end of the last stall this watch saw. */
    let stalledAt: number | undefined;
    /** `lastSeenAt()` of the silence whose verdict was deferred once already. */
    let deferredFor: number | undefined;
    /** The next check `delayMs` from `now`. */
    const rearm = (now: number, delayMs: number): number => {
      dueAt = now + delayMs;
      return delayMs;
    };
    return scheduleRepeating(
      scheduler,
      () => {
        const now = scheduler.now();
        const seen = lastSeenAt();
        const silentForMs = now - seen;
        if (stall !== undefined && now - dueAt > stall.toleranceMs) stalledAt = now;
        if (silentForMs < timeoutMs) return rearm(now, timeoutMs - silentForMs);
        if (stall !== undefined && deferredFor !== seen) {
          const other = stall.stalledAt?.();
          const lastStall = other === undefined ? stalledAt : stalledAt === undefined ? other : Math.max(other, stalledAt);
          if (lastStall !== undefined && now - lastStall < stall.graceMs) {
            deferredFor = seen;
            return rearm(now, lastStall + stall.graceMs - now);
          }
        }
        subscriber.error(new HeartbeatTimeoutError(silentForMs));
        return undefined;
      },
      dueAt - scheduler.now(),
    );
  });
}
