/**
 * The clock every simulator timer and validity window runs on.
 *
 * Implement it to drive the simulator from your own time source; {@link manualClock} is the one tests use.
 *
 * @example
 * ```ts
 * import { startSimulator, manualClock } from 'ex-streams/simulator';
 * const clock = manualClock(1_700_000_000_000);
 * const sim = await startSimulator({ clock });
 * clock.advance(60 * 60_000); // listen keys expire, idle sessions close
 * await sim.close();
 * ```
 */
export interface SimulatorClock {
  /** Current time in milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds; returns a handle for {@link SimulatorClock.clearTimeout}. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer; unknown or already-fired handles are ignored. */
  clearTimeout(handle: unknown): void;
}

/**
 * A {@link SimulatorClock} whose time moves only when told to (see {@link manualClock}).
 *
 * @example
 * ```ts
 * import { manualClock, type ManualClock } from 'ex-streams/simulator';
 * const clock: ManualClock = manualClock(0);
 * clock.setTimeout(() => undefined, 500);
 * clock.pending(); // 1
 * clock.advance(500); // fires it
 * clock.pending(); // 0
 * ```
 */
export interface ManualClock extends SimulatorClock {
  /** Moves time forward by `ms`, firing every timer that falls due, in due-time order (ties: creation order). */
  advance(ms: number): void;
  /** Number of timers waiting to fire. */
  pending(): number;
}

/**
 * The default clock: `Date.now()` and Node's timers.
 *
 * @example
 * ```ts
 * import { startSimulator, realClock } from 'ex-streams/simulator';
 * const sim = await startSimulator({ clock: realClock() });
 * ```
 */
export function realClock(): SimulatorClock {
  return {
    now: () => Date.now(),
    setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

interface ManualTimer {
  readonly seq: number;
  readonly due: number;
  readonly fn: () => void;
}

/**
 * A clock that starts at `startMs` and moves only through `advance(ms)`, which fires due timers in order
 * (a timer scheduled by a firing timer fires in the same `advance` when it falls due inside the window).
 * Lets a test cross a 60-minute listen-key validity without waiting.
 *
 * @example
 * ```ts
 * import { manualClock } from 'ex-streams/simulator';
 * const clock = manualClock(0);
 * clock.setTimeout(() => console.log('fired at', clock.now()), 1000);
 * clock.advance(1500); // logs "fired at 1000"; clock.now() === 1500
 * ```
 */
export function manualClock(startMs = 0): ManualClock {
  let current = startMs;
  let seq = 0;
  const timers = new Map<number, ManualTimer>();
  const nextDue = (limit: number): ManualTimer | undefined => {
    let best: ManualTimer | undefined;
    for (const t of timers.values()) {
      if (t.due <= limit && (best === undefined || t.due < best.due || (t.due === best.due && t.seq < best.seq))) best = t;
    }
    return best;
  };
  return {
    now: () => current,
    setTimeout: (fn, ms) => {
      seq += 1;
      timers.set(seq, { seq, due: current + Math.max(0, ms), fn });
      return seq;
    },
    clearTimeout: (handle) => {
      timers.delete(handle as number);
    },
    advance: (ms) => {
      const target = current + Math.max(0, ms);
      for (let t = nextDue(target); t !== undefined; t = nextDue(target)) {
        timers.delete(t.seq);
        current = t.due;
        t.fn();
      }
      current = target;
    },
    pending: () => timers.size,
  };
}
