/**
 * Exact arithmetic on decimals as scaled `BigInt`s ({@link Scaled}: value = units / 10^scale), and the sums and
 * differences of decimal text built on it. Never through floats.
 *
 * @internal
 * @module
 */

import { type Parts, valueOf } from './compare';
import { type DecimalText, readDecimal } from './grammar';

/** A decimal as a scaled integer: value = units / 10^scale. @internal */
export interface Scaled {
  readonly units: bigint;
  readonly scale: number;
}

/**
 * The exact value of decimal text as a scaled integer, at the scale it is written with (its fraction length,
 * trailing zeros kept; for an exponent form, the fewest digits that hold it, never below 0): `"1.50"` →
 * `150 / 10^2`, `"-1e-7"` → `-1 / 10^7`, `"1.5e3"` → `1500 / 10^0`. `undefined` when it is not decimal text
 * or its exponent is out of bounds. @internal
 */
export function parseScaled(text: string): Scaled | undefined {
  const read = readDecimal(text);
  if (read === undefined) return undefined;
  const parts = valueOf(read);
  if (parts === undefined) return undefined;
  const scale = read.exponent === undefined ? read.frac.length : parts.frac.length;
  return scaledOf(parts, scale);
}

function scaledOf(parts: Parts, scale: number): Scaled {
  const digits = BigInt(parts.int + parts.frac.padEnd(scale, '0'));
  return { units: parts.negative ? -digits : digits, scale };
}

/** `a` at a larger (or equal) scale. */
function rescale(a: Scaled, scale: number): bigint {
  return scale === a.scale ? a.units : a.units * 10n ** BigInt(scale - a.scale);
}

function pair(a: string, b: string): readonly [bigint, bigint, number] | undefined {
  const x = parseScaled(a);
  const y = parseScaled(b);
  return x === undefined || y === undefined ? undefined : commonScale(x, y);
}

/** Formats a scaled integer as decimal text with exactly `scale` fraction digits (sign kept). @internal */
export function formatScaled({ units, scale }: Scaled): DecimalText {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  // Digits, at most one point, at most a leading minus: decimal text by construction (the one place it is built).
  return (negative ? `-${body}` : body) as DecimalText;
}

/**
 * A scaled integer in its canonical form: the fewest fraction digits that hold it (`150 / 10^2` →
 * `15 / 10^1`), so {@link formatScaled} writes no trailing zero: `'20000.1'`, `'20000'`, `'0.5'`. @internal
 */
export function canonicalScaled({ units, scale }: Scaled): Scaled {
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return { units, scale };
}

/** `a` and `b` at their common (larger) scale: `[a units, b units, scale]`. @internal */
export function commonScale(a: Scaled, b: Scaled): readonly [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [rescale(a, scale), rescale(b, scale), scale];
}

/** Compares two scaled integers by value: `-1`, `0` or `1`. @internal */
export function compareScaled(a: Scaled, b: Scaled): number {
  const [x, y] = commonScale(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `a × b`, exactly (the scales add). @internal */
export function multiplyScaled(a: Scaled, b: Scaled): Scaled {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/**
 * The multiple of `step` (positive) nearest to `value` (not negative) on one side: `'down'` the largest not
 * above it, `'up'` the smallest not below it. Exact: `value` itself when it is a multiple. @internal
 */
export function toStep(value: Scaled, step: Scaled, rounding: 'down' | 'up'): Scaled {
  const [v, k, scale] = commonScale(value, step);
  const rest = v % k;
  const down = v - rest;
  return { units: rounding === 'up' && rest !== 0n ? down + k : down, scale };
}

/** Whether `value` is a whole multiple of `step` (positive). @internal */
export function isStepMultiple(value: Scaled, step: Scaled): boolean {
  const [v, k] = commonScale(value, step);
  return v % k === 0n;
}

/**
 * `a − b`, exactly, as decimal text (no float in between, any number of digits): a spread, a price a few ticks
 * away, what is left of an amount. The result keeps the larger number of fraction digits written in `a` or `b`
 * (`'100.50' − '100.40'` → `'0.10'`) and may be negative (`'1' − '1.25'` → `'-0.25'`: decimal text, though not
 * plain text an order may carry: `isDecimalText` says `false`, `fitPrice` refuses it); zero is never `'-0'`.
 * Inputs are decimal text by the wire grammar (a sign and an exponent are read: `'1e-7'`); `undefined` when
 * either is not (or has an exponent beyond ±1000). To step a price by whole ticks of its symbol, `ticksAway`
 * also fits the result to the rules.
 *
 * @example
 * ```ts
 * import { subtractDecimal } from 'ex-streams/orders';
 * subtractDecimal('30000.10', '0.01'); // '30000.09'
 * subtractDecimal('0.3', '0.1');       // '0.2' (a float says 0.19999999999999998)
 * subtractDecimal('1', '1.25');        // '-0.25'
 * subtractDecimal('1,5', '1');         // undefined
 * ```
 */
export function subtractDecimal(a: string, b: string): DecimalText | undefined {
  const p = pair(a, b);
  return p && formatScaled({ units: p[0] - p[1], scale: p[2] });
}

/**
 * `a + b`, exactly, as decimal text (no float in between, any number of digits). The result keeps the larger
 * number of fraction digits written in `a` or `b` (`'1.50' + '1'` → `'2.50'`) and may be negative when an input
 * is (`'-2' + '0.5'` → `'-1.5'`); zero is never `'-0'`. Inputs are decimal text by the wire grammar (a sign and
 * an exponent are read); `undefined` when either is not (or has an exponent beyond ±1000).
 *
 * @example
 * ```ts
 * import { addDecimal } from 'ex-streams/orders';
 * addDecimal('0.1', '0.2');                 // '0.3' (a float says 0.30000000000000004)
 * addDecimal('29999.99', '0.01');           // '30000.00'
 * addDecimal('0.000000000000000000001', '1'); // '1.000000000000000000001'
 * addDecimal('abc', '1');                   // undefined
 * ```
 */
export function addDecimal(a: string, b: string): DecimalText | undefined {
  const p = pair(a, b);
  return p && formatScaled({ units: p[0] + p[1], scale: p[2] });
}

/** `(a + b) / 2` as exact decimal text: one more fraction digit only when the sum is odd. @internal */
export function midDecimal(a: string, b: string): DecimalText | undefined {
  const p = pair(a, b);
  if (p === undefined) return undefined;
  const sum = p[0] + p[1];
  return sum % 2n === 0n ? formatScaled({ units: sum / 2n, scale: p[2] }) : formatScaled({ units: sum * 5n, scale: p[2] + 1 });
}

