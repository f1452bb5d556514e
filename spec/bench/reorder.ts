import { Subject } from 'rxjs';
import { EventHeap } from '../../lib/internal/heap';
import { reorderByEventTime } from '../../lib/operators/reorderByEventTime';
import { median, now } from './stats';

export interface ReorderRow {
  readonly case: string;
  /** Events held at once (the operator's `maxBuffered`, or the heap's size). */
  readonly window: number;
  readonly displacement: number;
  readonly eventsPerSec: number;
  /** Nanoseconds per event. */
  readonly nsPerEvent: number;
}

/**
 * Event times `i + r` with `r` uniform in [0, displacement): every event arrives at most `displacement`
 * places away from its sorted position (a deterministic LCG, so every run sees the same input).
 */
function displacedTimes(count: number, displacement: number): Float64Array {
  const times = new Float64Array(count);
  let seed = 12345;
  for (let i = 0; i < count; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    times[i] = 1_700_000_000_000 + i + (seed % displacement);
  }
  return times;
}

/** The whole operator: Subject → reorderByEventTime (no timer: `maxDelayMs: Infinity`, window = `maxBuffered`) → subscriber. */
function operatorOnce(events: ReadonlyArray<{ E: number }>, window: number): number {
  const source = new Subject<{ E: number }>();
  let out = 0;
  const sub = source.pipe(reorderByEventTime({ maxDelayMs: Infinity, maxBuffered: window })).subscribe(() => out++);
  const start = now();
  for (let i = 0; i < events.length; i++) source.next(events[i]!);
  const elapsed = now() - start;
  source.complete();
  sub.unsubscribe();
  if (out !== events.length) throw new Error(`bench: reorder emitted ${out} of ${events.length}`);
  return (events.length / elapsed) * 1000;
}

/** The heap alone, kept at `window` events: push one, pop one. */
function heapOnce(times: Float64Array, window: number): number {
  const heap = new EventHeap<number>();
  let sink = 0;
  const start = now();
  for (let i = 0; i < times.length; i++) {
    heap.push(times[i]!, i);
    if (heap.size > window) sink += heap.pop();
  }
  while (heap.size > 0) sink += heap.pop();
  const elapsed = now() - start;
  if (sink < 0) throw new Error('unreachable');
  return (times.length / elapsed) * 1000;
}

/** Reorder throughput, operator and heap, for each window size; median of `runs` runs (after a warm-up). */
export function reorder(count: number, windows: readonly number[], displacement: number, runs: number): ReorderRow[] {
  const times = displacedTimes(count, displacement);
  const events = Array.from(times, (E) => ({ E }));
  const rows: ReorderRow[] = [];
  const measure = (name: string, window: number, once: () => number): void => {
    once();
    const rates: number[] = [];
    for (let r = 0; r < runs; r++) rates.push(once());
    const m = median(rates);
    rows.push({ case: name, window, displacement, eventsPerSec: Math.round(m), nsPerEvent: Math.round((1e9 / m) * 10) / 10 });
  };
  for (const window of windows) {
    measure('reorderByEventTime (operator)', window, () => operatorOnce(events, window));
    measure('EventHeap (push + pop)', window, () => heapOnce(times, window));
  }
  return rows;
}
