/**
 * The value of decimal text and one total order over text ({@link compareDecimal}): exact, never through floats,
 * and without parsing for the plain text of market data.
 *
 * @internal
 * @module
 */

import { MAX_EXPONENT, plainIntLength, readDecimal, type WrittenDecimal } from './grammar';

const DIGIT_0 = 48;
const DOT = 46;

/** A decimal's value: sign, integer part without leading zeros, fraction without trailing zeros (zero is `+0`). */
export interface Parts {
  readonly negative: boolean;
  readonly int: string;
  readonly frac: string;
}

function stripLeading(int: string): string {
  let i = 0;
  while (i < int.length - 1 && int.charCodeAt(i) === DIGIT_0) i++;
  return i === 0 ? int : int.slice(i);
}

function stripTrailing(frac: string): string {
  let end = frac.length;
  while (end > 0 && frac.charCodeAt(end - 1) === DIGIT_0) end--;
  return end === frac.length ? frac : frac.slice(0, end);
}

/** The value of decimal text in canonical parts; `undefined` when malformed or its exponent is out of bounds. */
export function valueOf(text: WrittenDecimal): Parts | undefined {
  let int: string;
  let frac: string;
  const exp = text.exponent ?? 0;
  if (exp === 0) {
    int = stripLeading(text.int);
    frac = stripTrailing(text.frac);
  } else {
    if (Math.abs(exp) > MAX_EXPONENT) return undefined;
    const digits = text.int + text.frac;
    const point = text.int.length + exp;
    if (point <= 0) {
      int = '0';
      frac = stripTrailing('0'.repeat(-point) + digits);
    } else if (point >= digits.length) {
      int = stripLeading(digits + '0'.repeat(point - digits.length));
      frac = '';
    } else {
      int = stripLeading(digits.slice(0, point));
      frac = stripTrailing(digits.slice(point));
    }
  }
  const zero = int === '0' && frac === '';
  return { negative: text.negative && !zero, int, frac };
}

function partsOf(text: string): Parts | undefined {
  const read = readDecimal(text);
  return read === undefined ? undefined : valueOf(read);
}

/** Whether `text` is decimal text with a value here (exponent within bounds). @internal */
export function isDecimal(text: string): boolean {
  return partsOf(text) !== undefined;
}

/** Whether `text` is decimal text with a value here, and not below zero (`"-0"` is zero). @internal */
export function isNonNegativeDecimal(text: string): boolean {
  // Plain text (digits, a point, digits: the market's form) has a value and no sign: no parsing.
  if (plainIntLength(text) >= 0) return true;
  const parts = partsOf(text);
  return parts !== undefined && !parts.negative;
}

/** What {@link comparePlain} returns when one text is not plain. */
const NOT_PLAIN = 2;

/** Whether `s` from `i` on is only zeros and points (with plain text: a fraction that adds nothing, or zero itself). @internal */
export function onlyZeros(s: string, i: number): boolean {
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== DIGIT_0 && c !== DOT) return false;
  }
  return true;
}

/**
 * {@link compareDecimal} of two plain texts (see {@link plainIntLength}) without parsing or allocating: the
 * longer integer part is the larger; with integer parts of one length the texts are aligned on the point, so the
 * first differing character decides, and a text that only extends the other is larger unless it extends it by
 * zeros. {@link NOT_PLAIN} when either text is not plain.
 */
function comparePlain(a: string, b: string): number {
  const ia = plainIntLength(a);
  if (ia < 0) return NOT_PLAIN;
  const ib = plainIntLength(b);
  if (ib < 0) return NOT_PLAIN;
  return comparePlainText(a, ia, b, ib);
}

/**
 * {@link compareDecimal} of two plain texts whose integer-part lengths (from {@link plainIntLength}, both ≥ 0)
 * the caller already has: one pass over their common prefix at most. @internal
 */
export function comparePlainText(a: string, ia: number, b: string, ib: number): number {
  if (ia !== ib) return ia < ib ? -1 : 1;
  if (a === b) return 0;
  // Aligned on the point, plain texts order as text (the engine's own comparison), except a text that only
  // extends the other by zeros ("1.50" against "1.5"): equal.
  if (a.length !== b.length) {
    if (a.length > b.length) {
      if (a.startsWith(b) && onlyZeros(a, b.length)) return 0;
    } else if (b.startsWith(a) && onlyZeros(b, a.length)) return 0;
  }
  return a < b ? -1 : 1;
}

function compareMagnitude(a: Parts, b: Parts): number {
  if (a.int.length !== b.int.length) return a.int.length < b.int.length ? -1 : 1;
  if (a.int !== b.int) return a.int < b.int ? -1 : 1;
  if (a.frac !== b.frac) return a.frac < b.frac ? -1 : 1;
  return 0;
}

/**
 * Compares two texts as decimals, exactly: `-1`, `0` or `1`, never `NaN`. A total order over all text:
 * decimals by value (`"1.50"` equals `"01.5"` and `"1.5e0"`; `"10"` is above `"9.99"`; `"-2"` below `"1"`;
 * 64-bit ids in decimal text compare exactly); text that is not a decimal (or whose exponent is out of bounds)
 * sorts below every decimal, and among itself by UTF-16 code units.
 * @internal
 */
export function compareDecimal(a: string, b: string): number {
  if (a === b) return 0; // the common case of the folds (an unchanged amount): no parsing
  const plain = comparePlain(a, b);
  if (plain !== NOT_PLAIN) return plain;
  const x = partsOf(a);
  const y = partsOf(b);
  if (x === undefined || y === undefined) {
    if (x === undefined && y === undefined) return a < b ? -1 : 1;
    return x === undefined ? -1 : 1;
  }
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  const magnitude = compareMagnitude(x, y);
  return x.negative ? -magnitude || 0 : magnitude;
}

/**
 * {@link compareDecimal} of two texts the caller knows are digits only (trade ids): by length, then as text, when
 * neither has a leading zero; through {@link compareDecimal} otherwise. @internal
 */
export function compareDigits(a: string, b: string): number {
  if ((a.length > 1 && a.charCodeAt(0) === DIGIT_0) || (b.length > 1 && b.charCodeAt(0) === DIGIT_0)) return compareDecimal(a, b);
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

