/**
 * A bounded memory of recently seen keys: each key is remembered for `windowMs` after it was first seen,
 * and at most `maxKeys` keys are kept (the oldest are forgotten first). Backed by a `Map`, whose insertion
 * order is the age order.
 *
 * @internal
 * @module
 */

/** @internal */
export class RecentKeys {
  /** Membership. Never iterated: a `Map` iterated from its oldest entry after many deletions skips every deleted slot (O(n) per add once full). */
  private readonly known = new Set<string>();
  /** Keys and their expiries in age order: a growable ring buffer. */
  private keys: (string | undefined)[] = new Array<string | undefined>(64);
  private expiries = new Float64Array(64);
  private head = 0;
  private n = 0;

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  /**
   * Remembers `key` at time `now` and returns `true`, or returns `false` when the key is still remembered
   * (a duplicate). Forgets expired keys first. O(1) amortized.
   */
  add(key: string, now: number): boolean {
    const cap = this.expiries.length;
    while (this.n > 0 && (this.expiries[this.head]! <= now || this.n >= this.maxKeys)) {
      this.known.delete(this.keys[this.head]!);
      this.keys[this.head] = undefined;
      this.head = this.head + 1 === cap ? 0 : this.head + 1;
      this.n--;
    }
    if (this.known.has(key)) return false;
    if (this.n === this.expiries.length) this.grow();
    let i = this.head + this.n;
    if (i >= this.expiries.length) i -= this.expiries.length;
    this.keys[i] = key;
    this.expiries[i] = now + this.windowMs;
    this.n++;
    this.known.add(key);
    return true;
  }

  /** Forgets every key. */
  clear(): void {
    this.known.clear();
    this.keys.fill(undefined);
    this.head = 0;
    this.n = 0;
  }

  private grow(): void {
    const cap = this.expiries.length;
    const keys = new Array<string | undefined>(cap * 2);
    const expiries = new Float64Array(cap * 2);
    for (let k = 0, i = this.head; k < this.n; k++, i = i + 1 === cap ? 0 : i + 1) {
      keys[k] = this.keys[i];
      expiries[k] = this.expiries[i]!;
    }
    this.keys = keys;
    this.expiries = expiries;
    this.head = 0;
  }
}
