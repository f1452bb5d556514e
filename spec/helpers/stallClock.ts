import type { SchedulerLike } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';

/**
 * A scheduler on `testScheduler`'s virtual time whose process "stalls" from `fromMs` for `forMs` (a long GC, a
 * busy loop): every action due during the stall runs at its own virtual frame (in order) but reads the time of
 * the stall's end, as a real timer blocked by a synchronous stall runs late, at the end of it. After the stall
 * the clock is the virtual one again.
 */
export function stallClock(testScheduler: TestScheduler, fromMs: number, forMs: number): SchedulerLike {
  const end = fromMs + forMs;
  return {
    now: () => {
      const t = testScheduler.now();
      return t >= fromMs && t < end ? end : t;
    },
    schedule: testScheduler.schedule.bind(testScheduler) as SchedulerLike['schedule'],
  };
}
