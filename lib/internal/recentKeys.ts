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
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  /**
   * Remembers `key` at time `now` and returns `true`, or returns `false` when the key is still remembered
   * (a duplicate). Forgets expired keys first.
   */
  add(key: string, now: number): boolean {
    const expiries = this.expiries;
    for (const [k, expiry] of expiries) {
      if (expiry > now && expiries.size < this.maxKeys) break;
      expiries.delete(k);
    }
    if (expiries.has(key)) return false;
    expiries.set(key, now + this.windowMs);
    return true;
  }

  /** Forgets every key. */
  clear(): void {
    this.expiries.clear();
  }
}
