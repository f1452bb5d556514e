/**
 * Positional decimal text of a finite number, for codecs that accept prices and quantities as JSON numbers.
 *
 * @internal
 * @module
 */

/**
 * The digits of `String(n)` (the shortest text that reads back as `n`) written without an exponent:
 * `1e21` → `"1000000000000000000000"`, `1.5e-7` → `"0.00000015"`, `-2.5e-7` → `"-0.00000025"`,
 * `-0` → `"0"`. Exact: only the characters of `String(n)` are moved, so `Number(plainNumberText(n)) === n`.
 * The caller passes a finite number (for `NaN`/`±Infinity` the result is `String(n)`).
 *
 * @internal
 */
export function plainNumberText(n: number): string {
  const text = String(n);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const negative = text.charCodeAt(0) === 45; // '-'
  const mantissa = text.slice(negative ? 1 : 0, e);
  const exponent = Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const point = (dot < 0 ? mantissa.length : dot) + exponent;
  const sign = negative ? '-' : '';
  // String(n) uses an exponent only for |n| < 1e-6 (point ≤ -6) or |n| ≥ 1e21 (point ≥ 22 > 17 digits).
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
}
