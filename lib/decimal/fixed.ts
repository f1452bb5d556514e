/**
 * The simulator's decimal arithmetic: integers scaled by 10^18 (BigInt: the units of a `Scaled` at scale 18),
 * so prices and quantities never touch floats, read by the one grammar and written at fixed or shortest form.
 *
 * @internal
 * @module
 */

import { readDecimal } from './grammar';

/**
 * Decimal arithmetic on integers scaled by 10^18 (BigInt), so prices and quantities never touch floats.
 * @internal
 */
export const SCALE = 18;
/** @internal */
export const ONE = 10n ** BigInt(SCALE);

/**
 * Parses plain decimal text ("12", "0.5", "3.25": the one decimal grammar of `grammar.ts`, without a
 * sign or an exponent, as the simulated exchange accepts it) with at most `maxDecimals` decimals; undefined
 * otherwise. @internal
 */
export function parseDecimal(text: string, maxDecimals = SCALE): bigint | undefined {
  const d = readDecimal(text);
  if (d === undefined || d.negative || d.exponent !== undefined || d.frac.length > maxDecimals) return undefined;
  return BigInt(d.int) * ONE + BigInt(d.frac.padEnd(SCALE, '0') || '0');
}

/**
 * An order's decimal text: its value; `'tooPrecise'` when it is plain decimal text whose digits go on beyond 18
 * decimals (so it is a multiple of no tick or step); undefined when it is not plain decimal text (a sign, an
 * exponent, anything else). Zeros beyond the 18th decimal change nothing. @internal
 */
export function parseOrderDecimal(text: string): bigint | 'tooPrecise' | undefined {
  const d = readDecimal(text);
  if (d === undefined || d.negative || d.exponent !== undefined) return undefined;
  if (/[1-9]/.test(d.frac.slice(SCALE))) return 'tooPrecise';
  return BigInt(d.int) * ONE + BigInt(d.frac.slice(0, SCALE).padEnd(SCALE, '0') || '0');
}

/** Formats with exactly `decimals` decimals (truncating). @internal */
export function formatFixed(value: bigint, decimals: number): string {
  const neg = value < 0n;
  // One conversion to text, cut at the scale (a division, a remainder and two conversions took ~30 % longer: the
  // simulator writes two per book level, 400 levels a book).
  const digits = (neg ? -value : value).toString();
  const cut = digits.length - SCALE;
  const int = cut > 0 ? digits.slice(0, cut) : '0';
  if (decimals <= 0) return neg ? `-${int}` : int;
  const frac = cut >= 0 ? digits.slice(cut, cut + decimals) : `${'0'.repeat(-cut)}${digits}`.slice(0, decimals);
  return `${neg ? '-' : ''}${int}.${frac}`;
}

/**
 * `units` × 10^-`decimals` written with exactly `decimals` decimals: what {@link formatFixed} writes for that value,
 * from a whole number of units below {@link MAX_UNITS} (its digits, the point put in: no float, no bigint; the
 * simulator's depth pushes write 800 of them a book). @internal
 */
export function formatUnits(units: number, decimals: number): string {
  const digits = String(units);
  if (decimals <= 0) return digits;
  const padded = digits.length > decimals ? digits : `${'0'.repeat(decimals + 1 - digits.length)}${digits}`;
  const cut = padded.length - decimals;
  return `${padded.slice(0, cut)}.${padded.slice(cut)}`;
}

/** Bound (exclusive) of the whole numbers of units the simulator computes and writes exactly (below 2^53). @internal */
export const MAX_UNITS = 2 ** 52;

/** Shortest text form ("1.5", "0", "100"). @internal */
export function formatDecimal(value: bigint): string {
  const text = formatFixed(value, SCALE);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** a × b (both scaled). Exact when the decimals of a and b add up to at most 18. @internal */
export function mul(a: bigint, b: bigint): bigint {
  return (a * b) / ONE;
}

/** a ÷ b (both scaled), truncated to 18 decimals; 0 when b is 0. @internal */
export function div(a: bigint, b: bigint): bigint {
  return b === 0n ? 0n : (a * ONE) / b;
}

/** The smaller of two. @internal */
export function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** Decimals `value` needs when written out (0 for an integer; `unit(n)` needs n). @internal */
export function decimalsOf(value: bigint): number {
  let frac = (value < 0n ? -value : value) % ONE;
  if (frac === 0n) return 0;
  let decimals = SCALE;
  while (frac % 10n === 0n) {
    frac /= 10n;
    decimals -= 1;
  }
  return decimals;
}

/** 10^-decimals, scaled. @internal */
export function unit(decimals: number): bigint {
  return 10n ** BigInt(SCALE - decimals);
}
