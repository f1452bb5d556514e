/**
 * A bounded memory of recently seen keys: each key is remembered for `windowMs` after it was first seen,
 * and at most `maxKeys` keys are kept (the oldest are forgotten first).
 *
 * @internal
 * @module
 */

import { FNV_OFFSET, fnv1a, fnv1aNumber } from './fnv1a';

/** Numbers in a key of {@link RecentKeys.addNumbers}. */
const PARTS = 4;

/** @internal */
export class RecentKeys {
  /**
   * Keys, their hashes and expiries in age order: a growable ring buffer. A key is either a string (`keys`) or
   * a tuple of {@link PARTS} integers (`keys` holds `undefined`, `nums` the integers at `PARTS * position`; see
   * {@link addNumbers}).
   */
  private keys: (string | undefined)[] = new Array<string | undefined>(64);
  private nums = new Float64Array(64 * PARTS);
  private hashes = new Int32Array(64);
  private expiries = new Float64Array(64);
  private head = 0;
  private n = 0;
  /**
   * Membership: an open-addressing table (linear probing, at most half full) of ring positions + 1 (0: empty),
   * in typed arrays. A `Set` of strings re-hashed its whole table every few ten thousand adds under this
   * churn (deleted entries accumulate) and kept the GC busy; here a delete shifts the probe run back.
   */
  private slots = new Int32Array(128);

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  /**
   * Remembers `key` at time `now` and returns `true`, or returns `false` when the key is still remembered
   * (a duplicate). Forgets expired keys first. O(1) amortized.
   */
  add(key: string, now: number): boolean {
    return this.addString(key, fnv1a(key), now);
  }

  /**
   * {@link add} for the key `(a, b, c, d)`, four integers (safe integers: compared with `===`), equal to another
   * such key when all four are equal, never equal to a string key. It holds no string: a memory of 100 000
   * keys made of strings taken from parsed events keeps those strings alive (and promoted to the old
   * generation) for the whole window; numbers cost the garbage collector nothing. No allocation per call.
   */
  addNumbers(a: number, b: number, c: number, d: number, now: number): boolean {
    const h = fnv1aNumber(fnv1aNumber(fnv1aNumber(fnv1aNumber(FNV_OFFSET, a), b), c), d);
    this.forgetExpired(now);
    const slots = this.slots;
    const mask = slots.length - 1;
    const nums = this.nums;
    let i = h & mask;
    for (let s = slots[i]!; s !== 0; s = slots[i]!) {
      const r = s - 1;
      const at = r * PARTS;
      if (this.hashes[r] === h && this.keys[r] === undefined && nums[at] === a && nums[at + 1] === b && nums[at + 2] === c && nums[at + 3] === d) {
        return false;
      }
      i = (i + 1) & mask;
    }
    const r = this.append(i, h, undefined, now);
    const at = r * PARTS;
    this.nums[at] = a;
    this.nums[at + 1] = b;
    this.nums[at + 2] = c;
    this.nums[at + 3] = d;
    return true;
  }

  private addString(key: string, h: number, now: number): boolean {
    this.forgetExpired(now);
    const slots = this.slots;
    const mask = slots.length - 1;
    let i = h & mask;
    for (let s = slots[i]!; s !== 0; s = slots[i]!) {
      const r = s - 1;
      if (this.hashes[r] === h && this.keys[r] === key) return false;
      i = (i + 1) & mask;
    }
    this.append(i, h, key, now);
    return true;
  }

  /** Forgets the expired keys, and the oldest while at `maxKeys`. */
  private forgetExpired(now: number): void {
    while (this.n > 0 && (this.expiries[this.head]! <= now || this.n >= this.maxKeys)) this.forgetOldest();
  }

  /** Appends a key (its table slot `i` found free by the probe) and returns its ring position. */
  private append(i: number, h: number, key: string | undefined, now: number): number {
    if (this.n === this.expiries.length) {
      this.grow();
      this.insert(this.at(this.n), h);
    } else this.slots[i] = this.at(this.n) + 1;
    const r = this.at(this.n);
    this.keys[r] = key;
    this.hashes[r] = h;
    this.expiries[r] = now + this.windowMs;
    this.n++;
    return r;
  }

  /** Forgets every key. */
  clear(): void {
    this.keys.fill(undefined);
    this.slots.fill(0);
    this.head = 0;
    this.n = 0;
  }

  /** Ring position of the `k`-th oldest key. */
  private at(k: number): number {
    const i = this.head + k;
    return i >= this.expiries.length ? i - this.expiries.length : i;
  }

  private insert(r: number, h: number): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    let i = h & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = r + 1;
  }

  private forgetOldest(): void {
    const r = this.head;
    const slots = this.slots;
    const mask = slots.length - 1;
    let i = this.hashes[r]! & mask;
    while (slots[i] !== r + 1) i = (i + 1) & mask;
    // Backward-shift deletion: move later entries of the probe run into the hole when their home allows.
    for (let j = (i + 1) & mask; slots[j] !== 0; j = (j + 1) & mask) {
      const home = this.hashes[slots[j]! - 1]! & mask;
      const between = i <= j ? i < home && home <= j : i < home || home <= j;
      if (!between) {
        slots[i] = slots[j]!;
        i = j;
      }
    }
    slots[i] = 0;
    this.keys[r] = undefined;
    this.head = r + 1 === this.expiries.length ? 0 : r + 1;
    this.n--;
  }

  /** Doubles the ring (oldest first at position 0) and rebuilds the table at twice its size. */
  private grow(): void {
    const cap = this.expiries.length;
    const keys = new Array<string | undefined>(cap * 2);
    const nums = new Float64Array(cap * 2 * PARTS);
    const hashes = new Int32Array(cap * 2);
    const expiries = new Float64Array(cap * 2);
    for (let k = 0, i = this.head; k < this.n; k++, i = i + 1 === cap ? 0 : i + 1) {
      keys[k] = this.keys[i];
      nums.set(this.nums.subarray(i * PARTS, i * PARTS + PARTS), k * PARTS);
      hashes[k] = this.hashes[i]!;
      expiries[k] = this.expiries[i]!;
    }
    this.keys = keys;
    this.nums = nums;
    this.hashes = hashes;
    this.expiries = expiries;
    this.head = 0;
    this.slots = new Int32Array(cap * 4);
    for (let k = 0; k < this.n; k++) this.insert(k, hashes[k]!);
  }
}
