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

  /** Runs `fn` every `ms` (first run after `ms`); returns a cancel function. */
  every(ms: number, fn: () => void): () => void {
    let cancel: () => void = () => undefined;
    let stopped = false;
    const arm = (): void => {
      cancel = this.after(ms, () => {
        if (stopped) return;
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
