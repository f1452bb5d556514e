/**
 * A FIFO ring buffer of `(deadline, time)` number pairs, backed by two growable `Float64Array`s. Used by
 * `reorderByEventTime` to remember, in arrival order, when each new running maximum of the event time
 * must be released at the latest. No allocation per push or shift.
 *
 * @internal
 * @module
 */

/** @internal */
export class DeadlineQueue {
  private deadlines: Float64Array;
  private times: Float64Array;
  private head = 0;
  private n = 0;

  constructor(initialCapacity = 64) {
    const cap = Math.max(2, initialCapacity | 0);
    this.deadlines = new Float64Array(cap);
    this.times = new Float64Array(cap);
  }

  /** Number of entries. */
  get size(): number {
    return this.n;
  }

  /** Deadline of the oldest entry (`Infinity` when empty). */
  headDeadline(): number {
    return this.n > 0 ? this.deadlines[this.head]! : Infinity;
  }

  /** Time of the oldest entry (`-Infinity` when empty). */
  headTime(): number {
    return this.n > 0 ? this.times[this.head]! : -Infinity;
  }

  /** Appends an entry. */
  push(deadline: number, time: number): void {
    if (this.n === this.deadlines.length) this.grow();
    const cap = this.deadlines.length;
    let i = this.head + this.n;
    if (i >= cap) i -= cap;
    this.deadlines[i] = deadline;
    this.times[i] = time;
    this.n++;
  }

  /**
   * Appends an entry, or, when the newest entry has the same `deadline`, raises its time to `time` (both
   * would fall due together, and the later entry's time covers the earlier one's).
   */
  pushOrRaise(deadline: number, time: number): void {
    if (this.n > 0) {
      let last = this.head + this.n - 1;
      if (last >= this.deadlines.length) last -= this.deadlines.length;
      if (this.deadlines[last] === deadline) {
        if (time > this.times[last]!) this.times[last] = time;
        return;
      }
    }
    this.push(deadline, time);
  }

  /** Drops the oldest entry (no-op when empty). */
  shift(): void {
    if (this.n === 0) return;
    this.n--;
    this.head = this.n === 0 ? 0 : (this.head + 1) % this.deadlines.length;
  }

  /** Drops every entry. */
  clear(): void {
    this.head = 0;
    this.n = 0;
  }

  private grow(): void {
    const cap = this.deadlines.length;
    const deadlines = new Float64Array(cap * 2);
    const times = new Float64Array(cap * 2);
    for (let k = 0, i = this.head; k < this.n; k++, i = i + 1 === cap ? 0 : i + 1) {
      deadlines[k] = this.deadlines[i]!;
      times[k] = this.times[i]!;
    }
    this.deadlines = deadlines;
    this.times = times;
    this.head = 0;
  }
}
