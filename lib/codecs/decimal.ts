/**
 * Edge helpers for decimal text (prices and quantities decoded by `DecimalString`). The grammar and the exact
 * arithmetic are those of the one decimal module (`lib/internal/decimal.ts`).
 *
 * @module
 */

import { isDecimalText, parseDecimal } from '../internal/decimal';

/**
 * Converts decimal text to a `number`, for display or charts. The result is the nearest double, so it is
 * not exact for every decimal (`"0.1"` → `0.1`), and `NaN` for text that is not decimal text (`""`, `" 1"`,
 * `"0x10"`, `"Infinity"`: the grammar of `DecimalString`). Keep the text
 * for anything that adds, compares or stores amounts.
 *
 * @example
 * ```ts
 * import { decimalToNumber } from 'ex-streams';
 * decimalToNumber('34924.15'); // 34924.15
 * decimalToNumber('1e-7');     // 1e-7
 * ```
 */
export function decimalToNumber(text: string): number {
  return isDecimalText(text) ? Number(text) : NaN;
}

/**
 * The average executed price of an order, `Z / z` (cumulative quote quantity over cumulative filled
 * quantity, SPEC executionReport), computed exactly on the decimal text with `BigInt`.
 *
 * Returns decimal text with at most `fractionDigits` fraction digits (default 18), truncated toward zero,
 * trailing zeros removed. Returns `undefined` when nothing is filled (`z` is zero) or when either input is
 * not decimal text (or has an exponent beyond ±1000).
 *
 * @example
 * ```ts
 * import { averagePrice } from 'ex-streams';
 * averagePrice('15000.05', '0.5'); // '30000.1'
 * averagePrice('10', '3');         // '3.333333333333333333'
 * averagePrice('0', '0');          // undefined
 * ```
 */
export function averagePrice(cumulativeQuote: string, cumulativeQty: string, fractionDigits = 18): string | undefined {
  const n = parseDecimal(cumulativeQuote);
  const d = parseDecimal(cumulativeQty);
  if (n === undefined || d === undefined || d.units === 0n) return undefined;
  const digits = Math.max(0, Math.floor(fractionDigits));
  // (n.units / 10^n.scale) / (d.units / 10^d.scale), scaled by 10^digits
  const shift = digits - n.scale + d.scale;
  const num = shift >= 0 ? n.units * 10n ** BigInt(shift) : n.units;
  const den = shift >= 0 ? d.units : d.units * 10n ** BigInt(-shift);
  const q = num / den;
  const negative = q < 0n;
  const abs = (negative ? -q : q).toString().padStart(digits + 1, '0');
  const whole = abs.slice(0, abs.length - digits);
  const fraction = abs.slice(abs.length - digits).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
