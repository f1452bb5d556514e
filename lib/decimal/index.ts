/**
 * Decimal text, the one module, at its public edge: the type {@link DecimalText} (prices and quantities decoded
 * by `DecimalString`, and order input), the check and constructor of plain decimal text for orders,
 * conversions and exact arithmetic. The grammar is `grammar.ts`'s, the value and order `compare.ts`'s, the
 * scaled `BigInt` arithmetic `scaled.ts`'s (with a double fast path in `small.ts`), and the simulator's
 * fixed-scale arithmetic `fixed.ts`'s. None of these functions throws but {@link toDecimalText}.
 *
 * @module
 */

import { ConfigError } from '../errors';
import { excerpt } from '../internal/redact';
import { type DecimalText, isDecimalGrammar, plainDecimalFault } from './grammar';
import { canonicalScaled, formatScaled, multiplyScaled, parseScaled } from './scaled';
import { divideSmall } from './small';

export type { DecimalText } from './grammar';
export { addDecimal, subtractDecimal } from './scaled';

/** Characters of rejected input quoted in a {@link toDecimalText} error. */
const QUOTED_CHARACTERS = 12;

/**
 * Whether `text` is PLAIN decimal text, fit for an order's price, quantity or amount: digits, optionally a
 * point and digits, at most 64 characters. No sign, no exponent, no space, no thousands separator, no hex, no
 * `NaN` / `Infinity`, no leading `.` or trailing `.`. Narrows `text` to {@link DecimalText}.
 *
 * @example
 * ```ts
 * import { isDecimalText } from 'ex-streams/orders';
 *
 * isDecimalText('30000.5'); // true
 * isDecimalText('0.10');    // true
 * isDecimalText('1e-7');    // false: an exponent
 * isDecimalText('-0.01');   // false: a sign
 * const input: string = '0.25';
 * if (isDecimalText(input)) console.log(input); // input: DecimalText here
 * ```
 */
export function isDecimalText(text: string): text is DecimalText {
  return plainDecimalFault(text) === undefined;
}

/**
 * `text` as {@link DecimalText} when it is plain decimal text (see {@link isDecimalText}); otherwise throws a
 * `ConfigError` saying why (`'price has an exponent (write 0.0000001, not 1e-7): "1e-7"'`), quoting at most
 * a short, redacted excerpt of `text`. `what` names the value in the message (default `'decimal text'`).
 * The text is returned as it is (`'0.10'` stays `'0.10'`); round it to a symbol's rules with `fitPrice` /
 * `fitQuantity`.
 *
 * @example
 * ```ts
 * import type { NewOrderRequest } from 'ex-streams';
 * import { toDecimalText } from 'ex-streams/orders';
 *
 * const fromForm = (price: string, quantity: string): NewOrderRequest => ({
 *   symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT',
 *   price: toDecimalText(price, 'price'),
 *   quantity: toDecimalText(quantity, 'quantity'),
 * });
 * fromForm('30000.5', '0.001'); // { ..., price: '30000.5', quantity: '0.001' }
 * fromForm('3e4', '0.001');     // throws ConfigError: 'price has an exponent (write 0.0000001, not 1e-7): "3e4"'
 * ```
 */
export function toDecimalText(text: string, what = 'decimal text'): DecimalText {
  const fault = plainDecimalFault(text);
  if (fault === undefined) return text as DecimalText; // checked just above: plain decimal text
  throw new ConfigError(what, `${fault}: ${JSON.stringify(excerpt(text, undefined, QUOTED_CHARACTERS))}`);
}

/**
 * Converts decimal text to a `number`, for display or charts. The result is the nearest double, so it is
 * not exact for every decimal (`"0.1"` → `0.1`), and `NaN` for text that is not decimal text (`""`, `" 1"`,
 * `"0x10"`, `"Infinity"`: the grammar of `DecimalString`). Keep the text
 * for anything that adds, compares or stores amounts.
 *
 * @example
 * ```ts
 * import { decimalToNumber } from 'ex-streams/orders';
 * decimalToNumber('34924.15'); // 34924.15
 * decimalToNumber('1e-7');     // 1e-7
 * ```
 */
export function decimalToNumber(text: string): number {
  return isDecimalGrammar(text) ? Number(text) : NaN;
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
 * import { averagePrice } from 'ex-streams/orders';
 * averagePrice('15000.05', '0.5'); // '30000.1'
 * averagePrice('10', '3');         // '3.333333333333333333'
 * averagePrice('0', '0');          // undefined
 * ```
 */
export function averagePrice(cumulativeQuote: string, cumulativeQty: string, fractionDigits = 18): DecimalText | undefined {
  return divideDecimal(cumulativeQuote, cumulativeQty, fractionDigits);
}

/**
 * `a × b`, exactly, as canonical decimal text (no float in between): a price a percentage away from the book,
 * an order's notional. `undefined` when either is not decimal text (or has an exponent beyond ±1000). Fit the
 * result to a symbol's tick or step with `fitPrice` / `fitQuantity` before it goes into an order.
 *
 * @example
 * ```ts
 * import { multiplyDecimal } from 'ex-streams/orders';
 * multiplyDecimal('30000.02', '0.99'); // '29700.0198'
 * multiplyDecimal('0.1', '3');         // '0.3' (a float says 0.30000000000000004)
 * ```
 */
export function multiplyDecimal(a: string, b: string): DecimalText | undefined {
  const x = parseScaled(a);
  const y = parseScaled(b);
  return x === undefined || y === undefined ? undefined : formatScaled(canonicalScaled(multiplyScaled(x, y)));
}

/** Most fraction digits the double long division ({@link divideSmall}) is asked for; beyond, BigInt. */
const MAX_SMALL_DIGITS = 64;

/**
 * `a / b`, exactly, truncated toward zero to at most `fractionDigits` fraction digits (default 18), trailing
 * zeros removed: the quantity a quote amount buys at a price, an average price. `undefined` when `b` is zero or
 * either is not decimal text (or has an exponent beyond ±1000).
 *
 * @example
 * ```ts
 * import { divideDecimal } from 'ex-streams/orders';
 * divideDecimal('20', '30000');     // '0.000666666666666666'
 * divideDecimal('10', '3', 2);      // '3.33'
 * divideDecimal('1', '0');          // undefined
 * ```
 */
export function divideDecimal(a: string, b: string, fractionDigits = 18): DecimalText | undefined {
  const digits = Math.max(0, Math.floor(fractionDigits));
  if (digits <= MAX_SMALL_DIGITS) {
    const small = divideSmall(a, b, digits);
    if (small !== undefined) return small;
  }
  const n = parseScaled(a);
  const d = parseScaled(b);
  if (n === undefined || d === undefined || d.units === 0n) return undefined;
  // (n.units / 10^n.scale) / (d.units / 10^d.scale), scaled by 10^digits
  const shift = digits - n.scale + d.scale;
  const num = shift >= 0 ? n.units * 10n ** BigInt(shift) : n.units;
  const den = shift >= 0 ? d.units : d.units * 10n ** BigInt(-shift);
  return formatScaled(canonicalScaled({ units: num / den, scale: digits }));
}
