// Data path (notes/architecture.md, "The data path"): step 3, JSON text → value, the book levels' branch.
import { quotedDecimalEnd } from '../decimal/grammar';
import { ownQuotedText } from '../internal/ownText';
/**
 * `JSON.parse` with the levels of a book read by hand. A book's levels (`"a":[["76321.15","0.00100"],…]`) are
 * most of a depth frame, and `JSON.parse` builds them at about twice the cost of a scanner that knows their
 * shape and checks their decimal text on the way (measured in `notes/performance-history.md`, "The sixth pass").
 * This module finds each such array standing as an object's value outside any string, scans it, parses the
 * rest of the text with `JSON.parse` (each array replaced by a placeholder string) and puts the arrays back.
 * Whenever anything is not as expected (whitespace inside the levels, a number, an escape, a duplicate key,
 * a placeholder not found exactly once), it answers {@link NOT_SCANNED} and the caller parses the whole text
 * with `JSON.parse`: the result, when there is one, equals `JSON.parse(text)` (`spec/frame/levelsJson.spec.ts`
 * proves it on generated texts).
 *
 * When the caller hands it a {@link ScannedLevels}, the arrays it built are kept there, and travel with the frame:
 * the socket session hands them to its sink with the message, the router to the depth check, which then skips the
 * decimal scans already done here (each array once). The session clears them when its frame has been handled, so a
 * mark never outlives the synchronous handling of its frame (a record the user holds and changes is checked in full).
 * @internal
 * @module
 */

/** {@link parseWithScannedLevels}' answer when the text is not for it: parse it with `JSON.parse`. @internal */
export const NOT_SCANNED: unique symbol = Symbol('not scanned');

/** Texts shorter than this are parsed by `JSON.parse` alone (a few levels do not pay the extra steps). */
const MIN_LENGTH = 1024;
/** Nesting deeper than this is not walked when the arrays are put back (see {@link putBack}). */
const MAX_DEPTH = 32;
/** Arrays of fewer levels are left to `JSON.parse`. */
const MIN_LEVELS = 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * The placeholder of the k-th array: a string starting with U+0000, which JSON text can only hold as the
 * escape `\u0000`; texts holding that escape are not scanned, so a placeholder found is one put there.
 */
const PLACEHOLDER_PREFIX = '\u0000levels:';
const placeholderText = (k: number): string => `"\\u0000levels:${k}"`;

/**
 * The level arrays one parse built (see the module doc), each checked there (pairs of digits with an optional
 * fraction), for the checks of the same frame: {@link ScannedLevels.take} vouches for each array once. One per
 * socket session, refilled by each frame's parse and cleared once the frame has been handled. @internal
 */
export class ScannedLevels {
  private arrays: (object | undefined)[] = [];

  /** Whether the last parse scanned any array (not yet cleared). */
  get any(): boolean {
    return this.arrays.length > 0;
  }

  /** Whether `u` is one of the arrays, not yet asked about; asking forgets it. */
  take(u: unknown): boolean {
    if (typeof u !== 'object' || u === null) return false;
    const i = this.arrays.indexOf(u);
    if (i < 0) return false;
    this.arrays[i] = undefined;
    return true;
  }

  /** Forgets every array (the frame they came from has been handled). */
  clear(): void {
    if (this.arrays.length > 0) this.arrays = [];
  }

  /** Keeps the arrays of a parse (replacing those of an earlier one). */
  keep(arrays: object[]): void {
    this.arrays = arrays;
  }
}

/** What each level is copied from (see {@link scanLevels}). */
const LEVEL: readonly string[] = ['', ''];

/**
 * Scans the levels `[["p","q"],…]` starting at `i` (the outer `[`, followed by at least one level). Returns the
 * end (after the outer `]`) and fills `out`, or returns -1 (then `out` is to be dropped). No whitespace, strings
 * only, decimal text only. The market's full books (here) and incremental deltas (`depthRecordReader`) read their
 * levels with it.
 *
 * Each level is a copy of one template array, not an array literal: V8 tracks a literal's allocation site, and a
 * book's levels outlive a scavenge (the book keeps them), so it soon allocates every level of that site in the old
 * generation; there a dead level keeps its two young strings alive until the next full collection, and every
 * scavenge promotes them (`npm run bench -- --only=incremental`: ~465 KB promoted a scavenge, a delta 7.6-8.0 µs;
 * 0.3 KB and 6.3 µs copied from the template). @internal
 */
export function scanLevels(s: string, i: number, out: [string, string][]): number {
  i++; // [
  for (;;) {
    if (s.charCodeAt(i) !== OPEN_BRACKET || s.charCodeAt(i + 1) !== QUOTE) return -1;
    const p0 = i + 2;
    const p1 = quotedDecimalEnd(s, p0);
    if (p1 < 0 || s.charCodeAt(p1 + 1) !== COMMA || s.charCodeAt(p1 + 2) !== QUOTE) return -1;
    const q0 = p1 + 3;
    const q1 = quotedDecimalEnd(s, q0);
    if (q1 < 0 || s.charCodeAt(q1 + 1) !== CLOSE_BRACKET) return -1;
    const level = LEVEL.slice() as [string, string];
    level[0] = ownQuotedText(s, p0, p1);
    level[1] = ownQuotedText(s, q0, q1);
    out.push(level);
    i = q1 + 2;
    const c = s.charCodeAt(i);
    if (c === CLOSE_BRACKET) return i + 1;
    if (c !== COMMA) return -1;
    i++;
  }
}

/** The character before `i` that is not JSON whitespace, or -1. */
function previousToken(s: string, i: number): number {
  for (let j = i - 1; j >= 0; j--) {
    const c = s.charCodeAt(j);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c;
  }
  return -1;
}

/**
 * Puts the scanned arrays back in place of their placeholders in `value` (the parse of the text with
 * placeholders); returns how many it put back. Own enumerable keys only, as `JSON.parse` makes them; a
 * placeholder under `__proto__` is not put back (the count then tells the caller).
 */
function putBack(value: unknown, arrays: readonly [string, string][][], depth = 0): number {
  // Deeper than any message of the service: not walked (the count then says "not found"), so a hostile
  // nesting cannot exhaust the stack.
  if (depth > MAX_DEPTH) return -Infinity;
  let found = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'string') {
        const k = placeholderIndex(v, arrays.length);
        if (k >= 0) {
          value[i] = arrays[k];
          found++;
        }
      } else if (typeof v === 'object' && v !== null) found += putBack(v, arrays, depth + 1);
    }
    return found;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    if (typeof v === 'string') {
      const k = placeholderIndex(v, arrays.length);
      if (k >= 0 && key !== '__proto__') {
        record[key] = arrays[k];
        found++;
      }
    } else if (typeof v === 'object' && v !== null) found += putBack(v, arrays, depth + 1);
  }
  return found;
}

/** The index of the placeholder `v`, or -1. */
function placeholderIndex(v: string, count: number): number {
  if (v.length === 0 || v.charCodeAt(0) !== 0 || !v.startsWith(PLACEHOLDER_PREFIX)) return -1;
  const k = Number(v.slice(PLACEHOLDER_PREFIX.length));
  return Number.isInteger(k) && k >= 0 && k < count ? k : -1;
}

/**
 * `JSON.parse(text)` with the level arrays scanned by hand (see the module doc), or {@link NOT_SCANNED} when
 * the text has none worth it, is not as expected, or is not valid JSON (the caller's `JSON.parse` then says
 * why). Never throws. `scanned`: where the arrays are kept for the checks of the same frame (replacing those of
 * an earlier parse).
 *
 * @example
 * ```ts no-check
 * const text = `{"a":[${Array.from({ length: 200 }, (_, i) => `["${i}.5","1"]`).join(',')}]}`;
 * parseWithScannedLevels(text); // { a: [['0.5', '1'], ['1.5', '1'], …] }, the same as JSON.parse(text)
 * parseWithScannedLevels('{"a":1}'); // NOT_SCANNED
 * ```
 * @internal
 */
export function parseWithScannedLevels(text: string, scanned?: ScannedLevels): unknown {
  const n = text.length;
  if (n < MIN_LENGTH || text.indexOf('\\u0000') >= 0) return NOT_SCANNED;
  let candidate = text.indexOf('[["');
  if (candidate < 0) return NOT_SCANNED;
  const arrays: [string, string][][] = [];
  let shell = '';
  let copied = 0;
  // Walks the text outside strings (strings are skipped to their closing quote), so a candidate is known to
  // stand outside any string; only candidates that are an object's value (after `:`) are scanned.
  let i = 0;
  while (candidate >= 0) {
    while (i < candidate) {
      if (text.charCodeAt(i) !== QUOTE) {
        i++;
        continue;
      }
      // A string: to its closing quote (one not escaped: an even run of backslashes before it).
      let q = i;
      for (;;) {
        q = text.indexOf('"', q + 1);
        if (q < 0) return NOT_SCANNED;
        let b = q - 1;
        while (text.charCodeAt(b) === BACKSLASH) b--;
        if ((q - 1 - b) % 2 === 0) break;
      }
      i = q + 1;
    }
    if (i === candidate && previousToken(text, i) === COLON) {
      const levels: [string, string][] = [];
      const end = scanLevels(text, i, levels);
      if (end > 0 && levels.length >= MIN_LEVELS) {
        shell += text.slice(copied, i) + placeholderText(arrays.length);
        arrays.push(levels);
        copied = i = end;
      }
    }
    candidate = text.indexOf('[["', Math.max(i, candidate + 1));
  }
  if (arrays.length === 0) return NOT_SCANNED;
  let value: unknown;
  try {
    value = JSON.parse(shell + text.slice(copied));
  } catch {
    return NOT_SCANNED;
  }
  if (typeof value !== 'object' || value === null || putBack(value, arrays) !== arrays.length) return NOT_SCANNED;
  scanned?.keep(arrays);
  return value;
}
