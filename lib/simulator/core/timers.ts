import type { SimulatorClock } from './clock';

/**
 * Every timer of one simulator, on its clock, so `close()` can cancel them all at once.
 * @internal
 */
export class Timers {
  private readonly live = new Set<unknown>();
  private closed = false;

  constructor(private readonly clock: SimulatorClock) {}

  /** Runs `fn` once after `ms`; returns a cancel function. */
  after(ms: number, fn: () => void): () => void {
    if (this.closed) return () => undefined;
    const handle = this.clock.setTimeout(() => {
      this.live.delete(handle);
      fn();
    }, ms);
    this.live.add(handle);
    return () => {
      if (this.live.delete(handle)) this.clock.clearTimeout(handle);
    };
  }

  /**
   * Runs `fn` every `ms` (first run after `ms`) on a fixed cadence: the n-th run is due at start + n·`ms`, however
   * late the runs before it were; a run that falls due while an earlier one is still late is skipped (a push of the
   * venue is not made up for). Re-armed `ms` after each run instead, every run's lateness moved the later ones: timers
   * late together (a busy turn of the event loop, a collection) stayed together, and a whole venue's push timers, spread
   * over their period, drifted into bursts of the same topic (seen as 50-100 pushes within a few ms).
   */
  every(ms: number, fn: () => void): () => void {
    let cancel: () => void = () => undefined;
    let stopped = false;
    let due = this.clock.now() + ms;
    const arm = (): void => {
      const now = this.clock.now();
      // Never more than a period away: a clock set back (the wall clock stepped) would hold the next run for as long.
      if (due - now > ms) due = now + ms;
      cancel = this.after(due - now, () => {
        if (stopped) return;
        const ranAt = this.clock.now();
        due = ms > 0 ? due + (Math.floor(Math.max(0, ranAt - due) / ms) + 1) * ms : ranAt;
        arm();
        fn();
      });
    };
    arm();
    return () => {
      stopped = true;
      cancel();
    };
  }

  clearAll(): void {
    this.closed = true;
    for (const h of this.live) this.clock.clearTimeout(h);
    this.live.clear();
  }
}
