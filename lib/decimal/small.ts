/**
 * Division of small plain decimal text in doubles, when every step is exact: the fast path of `divideDecimal`
 * and `averagePrice` (the BigInt path of `lib/decimal/index.ts` gives the same text).
 *
 * @internal
 * @module
 */

import type { DecimalText } from './grammar';

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const DOT = 46;

/** Units of the plain decimal text read last by {@link readPlainSmall} (module state: no allocation per call). */
let smallUnits = 0;
/** Fraction digits of the plain decimal text read last by {@link readPlainSmall}. */
let smallScale = 0;

/** Below this, `r * 10` of a long-division step stays an exact double (2^53 / 10). */
const EXACT_STEP_BOUND = 900_719_925_474_099;

/**
 * Reads plain non-negative decimal text (`digits` or `digits.digits`) whose units stay exact in a double
 * (below 2^53) into {@link smallUnits} / {@link smallScale}; false for anything else (a sign, an exponent, more
 * digits), which the BigInt path then handles.
 */
function readPlainSmall(s: string): boolean {
  const n = s.length;
  let units = 0;
  let scale = -1;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= DIGIT_0 && c <= DIGIT_9) {
      units = units * 10 + (c - DIGIT_0);
      if (scale >= 0) scale++;
    } else if (c === DOT && scale < 0 && i > 0 && i < n - 1) scale = 0;
    else return false;
  }
  if (n === 0 || units > Number.MAX_SAFE_INTEGER) return false;
  smallUnits = units;
  smallScale = scale < 0 ? 0 : scale;
  return true;
}

/** `floor(a / b)` for exact non-negative integers `a`, `b > 0` below 2^53: the double quotient, checked against its remainder (a correctly rounded quotient of two such integers does not reach the next integer, but the check costs two multiplications). */
function floorDiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  if (q * b > a) q--;
  else if ((q + 1) * b <= a) q++;
  return q;
}

/**
 * `c` as canonical decimal text (leading zeros of its integer part and trailing zeros of its fraction dropped) when
 * `a / b` is exactly `c` and `c` has at most `digits` fraction digits, so that it is what `divideSmall(a, b, digits)`
 * answers; told by one exact multiplication in doubles (`c × b = a`). `undefined` when it is not, or when the
 * numbers are not plain text small enough to tell that way: then divide. An order's average price is usually a
 * price the service sent beside it (a limit order filled at its price): checking it costs ~50 ns where the
 * division costs ~300 (`notes/performance-history.md`, "The order loop"). @internal
 */
export function exactQuotient(a: string, b: string, c: string, digits: number): DecimalText | undefined {
  if (!readPlainSmall(c)) return undefined;
  const cUnits = smallUnits;
  const cScale = smallScale;
  if (!readPlainSmall(b) || smallUnits === 0) return undefined;
  const product = cUnits * smallUnits;
  const productScale = cScale + smallScale;
  if (product > Number.MAX_SAFE_INTEGER || !readPlainSmall(a)) return undefined;
  if (!align(smallUnits, smallScale, product, productScale) || alignedX !== alignedY) return undefined;
  const n = c.length;
  let end = n;
  const dot = cScale > 0 ? n - cScale - 1 : n;
  if (cScale > 0) {
    while (end > dot + 1 && c.charCodeAt(end - 1) === DIGIT_0) end--;
    if (end === dot + 1) end = dot;
  }
  if (end > dot && end - dot - 1 > digits) return undefined;
  let start = 0;
  while (start < dot - 1 && c.charCodeAt(start) === DIGIT_0) start++;
  return (start === 0 && end === n ? c : c.slice(start, end)) as DecimalText;
}

/** The units of {@link align}'s two numbers at their common scale (module state, as `smallUnits`). */
let alignedX = 0;
let alignedY = 0;

/**
 * `x / 10^xScale` and `y / 10^yScale` (exact integer units below 2^53) at the larger of their scales, into
 * {@link alignedX} / {@link alignedY}; false when that leaves the exact doubles (a shift beyond 15 digits, units
 * past 2^53).
 */
function align(x: number, xScale: number, y: number, yScale: number): boolean {
  const shift = yScale - xScale;
  if (shift > 15 || shift < -15) return false;
  alignedX = shift > 0 ? x * POW10[shift]! : x;
  alignedY = shift < 0 ? y * POW10[-shift]! : y;
  return alignedX <= Number.MAX_SAFE_INTEGER && alignedY <= Number.MAX_SAFE_INTEGER;
}

/** `10^k` for k = 0…15. */
const POW10: readonly number[] = Array.from({ length: 16 }, (_, k) => 10 ** k);
/** k zeros for k = 0…15: a chunk's padding. */
const ZEROS: readonly string[] = Array.from({ length: 16 }, (_, k) => '0'.repeat(k));
/** The fraction's chunks of the division in progress (module state, as `smallUnits`: no array per call; it grows past 64, `divideDecimal`'s most, if asked). */
const chunks: number[] = new Array<number>(64).fill(0);

/**
 * `a / b` truncated to at most `digits` fraction digits, trailing zeros removed, by long division in doubles
 * when every step is exact (plain non-negative text, small units, `b`'s units below 2^53 / 10 after the scales
 * are matched); `undefined` when that does not hold or `b` is zero (the caller then takes the BigInt path,
 * which gives the same text: `spec/decimal/decimal.spec.ts`). An average price per fill without
 * BigInt: measured in notes/performance-history.md ("The order loop"). @internal
 */
export function divideSmall(a: string, b: string, digits: number): DecimalText | undefined {
  if (!readPlainSmall(a)) return undefined;
  const numUnits = smallUnits;
  const numScale = smallScale;
  if (!readPlainSmall(b) || smallUnits === 0) return undefined;
  // (num / 10^numScale) / (den / 10^denScale): both at the larger scale, the quotient is theirs
  if (!align(numUnits, numScale, smallUnits, smallScale) || alignedY >= EXACT_STEP_BOUND) return undefined;
  const num = alignedX;
  const den = alignedY;
  const int = floorDiv(num, den);
  let rest = num - int * den;
  if (rest === 0 || digits <= 0) return String(int) as DecimalText;
  // The fraction digits, as many per step as keep `rest × 10^k` exact (below 2^53: k = 8 for a denominator of
  // 8 digits), each step's digits kept as a number until the end; the text is made once, trailing zeros dropped
  // first (whole zero chunks, then the last chunk's by division), each chunk written zero-padded (no `padStart`,
  // no slice: ~320 instead of ~400 ns for an 18-digit average, numbers that miss the engine's number-string cache).
  let perStep = 1;
  while (perStep < 15 && den * POW10[perStep + 1]! <= Number.MAX_SAFE_INTEGER) perStep++;
  let count = 0;
  let written = 0;
  let lastWidth = perStep;
  while (written < digits && rest !== 0) {
    const width = digits - written < perStep ? digits - written : perStep;
    const t = rest * POW10[width]!;
    const d = floorDiv(t, den);
    rest = t - d * den;
    chunks[count++] = d;
    written += width;
    lastWidth = width;
  }
  while (count > 0 && chunks[count - 1] === 0) {
    count--;
    lastWidth = perStep;
  }
  if (count === 0) return String(int) as DecimalText;
  let last = chunks[count - 1]!;
  while (last % 10 === 0) {
    last /= 10;
    lastWidth--;
  }
  let out = `${int}.`;
  for (let j = 0; j < count - 1; j++) {
    const text = String(chunks[j]);
    out += ZEROS[perStep - text.length]! + text;
  }
  const text = String(last);
  return (out + ZEROS[lastWidth - text.length]! + text) as DecimalText;
}
