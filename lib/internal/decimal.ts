/**
 * Exact arithmetic on non-negative decimal text (`"27000.50"`, `"0.0001"`, `"1e-7"`), for order books
 * and trade ids: prices are compared and combined as text or as scaled `BigInt`s, never as floats.
 * None of these functions throws; malformed input gives `NaN` (comparisons) or `undefined` (arithmetic).
 *
 * @internal
 * @module
 */

const PLAIN = /^(\d+)(?:\.(\d*))?$/;
const SCIENTIFIC = /^(\d*)(?:\.(\d*))?[eE]([+-]?\d{1,4})$/;
/** Exponents beyond this are refused rather than expanded into huge strings. */
const MAX_EXPONENT = 400;

/** A decimal split into an integer part without leading zeros and a fraction without trailing zeros. */
interface Parts {
  readonly int: string;
  readonly frac: string;
}

function stripLeading(int: string): string {
  let i = 0;
  while (i < int.length - 1 && int.charCodeAt(i) === 48) i++;
  return i === 0 ? int : int.slice(i);
}

function stripTrailing(frac: string): string {
  let end = frac.length;
  while (end > 0 && frac.charCodeAt(end - 1) === 48) end--;
  return end === frac.length ? frac : frac.slice(0, end);
}

function fromScientific(text: string): Parts | undefined {
  const m = SCIENTIFIC.exec(text);
  if (m === null) return undefined;
  const int = m[1] ?? '';
  const frac = m[2] ?? '';
  if (int.length + frac.length === 0) return undefined;
  const exp = Number(m[3]);
  if (Math.abs(exp) > MAX_EXPONENT) return undefined;
  const digits = int + frac;
  const point = int.length + exp;
  if (point <= 0) return { int: '0', frac: stripTrailing('0'.repeat(-point) + digits) };
  if (point >= digits.length) return { int: stripLeading(digits + '0'.repeat(point - digits.length)), frac: '' };
  return { int: stripLeading(digits.slice(0, point)), frac: stripTrailing(digits.slice(point)) };
}

/** Splits non-negative decimal text into canonical parts, or `undefined` when it is not one. @internal */
export function decimalParts(text: string): Parts | undefined {
  const m = PLAIN.exec(text);
  if (m !== null) return { int: stripLeading(m[1] as string), frac: stripTrailing(m[2] ?? '') };
  return fromScientific(text);
}

/** Whether `text` is non-negative decimal text this module understands. @internal */
export function isDecimal(text: string): boolean {
  return decimalParts(text) !== undefined;
}

function compareParts(a: Parts, b: Parts): number {
  if (a.int.length !== b.int.length) return a.int.length < b.int.length ? -1 : 1;
  if (a.int !== b.int) return a.int < b.int ? -1 : 1;
  if (a.frac !== b.frac) return a.frac < b.frac ? -1 : 1;
  return 0;
}

/**
 * Compares two non-negative decimals exactly: `-1`, `0` or `1`; `NaN` when either is malformed.
 * `"1.50"` equals `"01.5"`; `"10"` is greater than `"9.99"`. Works for 64-bit ids in decimal text too.
 * @internal
 */
export function compareDecimal(a: string, b: string): number {
  const pa = decimalParts(a);
  const pb = decimalParts(b);
  if (pa === undefined || pb === undefined) return NaN;
  return compareParts(pa, pb);
}

/** A decimal as a scaled integer: value = units / 10^scale. */
interface Scaled {
  readonly units: bigint;
  readonly scale: number;
}

function toScaled(p: Parts, scale: number): bigint {
  return BigInt(p.int + p.frac.padEnd(scale, '0'));
}

/** The scale of a decimal as written (its fraction length, trailing zeros kept). */
function writtenScale(text: string, parts: Parts): number {
  const m = PLAIN.exec(text);
  return m !== null ? (m[2] ?? '').length : parts.frac.length;
}

function pair(a: string, b: string): readonly [Scaled, Scaled] | undefined {
  const pa = decimalParts(a);
  const pb = decimalParts(b);
  if (pa === undefined || pb === undefined) return undefined;
  const scale = Math.max(writtenScale(a, pa), writtenScale(b, pb));
  return [
    { units: toScaled(pa, scale), scale },
    { units: toScaled(pb, scale), scale },
  ];
}

/** Formats a scaled integer as decimal text with exactly `scale` fraction digits (sign kept). @internal */
export function formatScaled({ units, scale }: Scaled): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${body}` : body;
}

/** `a - b` as exact decimal text (may be negative), keeping the larger written scale. @internal */
export function subtractDecimal(a: string, b: string): string | undefined {
  const p = pair(a, b);
  return p && formatScaled({ units: p[0].units - p[1].units, scale: p[0].scale });
}

/** `a + b` as exact decimal text, keeping the larger written scale. @internal */
export function addDecimal(a: string, b: string): string | undefined {
  const p = pair(a, b);
  return p && formatScaled({ units: p[0].units + p[1].units, scale: p[0].scale });
}

/** `(a + b) / 2` as exact decimal text: one more fraction digit only when the sum is odd. @internal */
export function midDecimal(a: string, b: string): string | undefined {
  const p = pair(a, b);
  if (p === undefined) return undefined;
  const sum = p[0].units + p[1].units;
  return sum % 2n === 0n
    ? formatScaled({ units: sum / 2n, scale: p[0].scale })
    : formatScaled({ units: sum * 5n, scale: p[0].scale + 1 });
}
