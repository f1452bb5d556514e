/**
 * Decimal text: the grammar every part of ex-streams accepts as a price, a quantity or an amount (the wire
 * codecs, the folds of the user stream, the order book, the simulator), read by hand, without the regex engine.
 *
 * The grammar (the `DecimalString` codec's): an optional `-`, digits, optionally `.` and digits, optionally
 * an exponent `e` / `E`, an optional sign and digits: `/^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/`. So `"27000.50"`,
 * `"0.0001"`, `"-3.5"`, `"1e-7"`, `"1.5E+3"` are decimal text; `""`, `" 1"`, `"+1"`, `".5"`, `"5."`, `"1,000"`,
 * `"NaN"` are not. Values with an exponent beyond ±{@link MAX_EXPONENT} are decimal text but have no value
 * here (they would expand into huge numbers): the value functions treat them as malformed.
 *
 * Order input is held to a plainer form (`isDecimalText` and `toDecimalText` of `lib/decimal/index.ts`, the
 * public edge): digits, optionally `.` and digits, nothing else ({@link plainDecimalFault}). Both are typed
 * {@link DecimalText}, declared here once.
 *
 * @internal
 * @module
 */

/** Exponents beyond this (in absolute value) are refused rather than expanded into huge numbers. @internal */
export const MAX_EXPONENT = 1000;

/**
 * A price, a quantity or an amount as decimal text (`'0.1'`, `'30000'`): the type of every decimal value the
 * library hands out (book levels, trades, candles, execution reports, balances) and of an order's `price`,
 * `quantity` and `amount`. A number (`0.1`) does not compile, so no binary rounding reaches an order, and a
 * value read from the book or a trade goes into an order as it is. Text computed at run time becomes one
 * through `toDecimalText` (which checks it), or `fitPrice` / `fitQuantity` (which round it to the symbol's
 * rules); plain `string` does not compile.
 *
 * Values decoded from the service follow the wire grammar (an exponent or a sign is possible: `'1e-7'`);
 * text checked by `isDecimalText` / `toDecimalText` is plain (digits, optionally a point and digits).
 *
 * @example
 * ```ts
 * import type { NewOrderRequest, OrderBook } from 'ex-streams';
 * import { toDecimalText, type DecimalText } from 'ex-streams/orders';
 *
 * const quantity: DecimalText = '0.001';
 * declare const book: OrderBook;
 * const price: DecimalText = book.bestBid?.[0] ?? toDecimalText('30000.5');
 * const order: NewOrderRequest = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price, quantity };
 * ```
 */
export type DecimalText = `${number}`;

/** The longest text {@link plainDecimalFault} accepts (digits and the point). @internal */
export const MAX_PLAIN_DECIMAL_LENGTH = 64;

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const QUOTE = 34;
const LOWER_E = 101;
const UPPER_E = 69;

/** Index after the run of ASCII digits starting at `i`. @internal */
export function skipDigits(s: string, i: number, n: number): number {
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) break;
    i++;
  }
  return i;
}

/** Most characters {@link plainTextCode} encodes: 12^14 - 1 < 2^53 / 6 (room for a factor of 6 on top, still exact). @internal */
export const PLAIN_CODE_CHARS = 14;

/**
 * An exact number standing for the characters `[from, to)` of `s` when they are digits and dots only and at most
 * {@link PLAIN_CODE_CHARS} of them (ids, plain decimals such as `"0.00012300"`), else `-1`. Distinct texts give
 * distinct numbers (`"0.1"` and `"0.10"` too: it codes text, not value): the text read as a number in base 12
 * with the digits `'0'`-`'9'` as 1-10 and `'.'` as 11, no digit 0, so no two lengths share a code; `""` is 0.
 * A memory keyed by such codes holds no string (the user stream's de-duplication, `rememberPrivateEvent`).
 *
 * @example
 * ```ts no-check
 * plainTextCode('0.5', 0, 3); // 1 * 144 + 11 * 12 + 6 = 282
 * plainTextCode('1e5', 0, 3); // -1
 * ```
 * @internal
 */
export function plainTextCode(s: string, from: number, to: number): number {
  if (to - from > PLAIN_CODE_CHARS) return -1;
  let code = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= DIGIT_0 && c <= DIGIT_9) code = code * 12 + (c - DIGIT_0 + 1);
    else if (c === DOT) code = code * 12 + 11;
    else return -1;
  }
  return code;
}

/** Decimal text as written: sign, digits before and after the point, exponent. @internal */
export interface WrittenDecimal {
  readonly negative: boolean;
  /** The digits before the point, as written (leading zeros kept). */
  readonly int: string;
  /** The digits after the point, as written (trailing zeros kept); `''` without a point. */
  readonly frac: string;
  /** The exponent as written, `undefined` without one. */
  readonly exponent: number | undefined;
}

/** Reads `s` by the grammar: its parts, or `undefined` when it is not decimal text. @internal */
export function readDecimal(s: string): WrittenDecimal | undefined {
  const n = s.length;
  const negative = n > 0 && s.charCodeAt(0) === MINUS;
  const intStart = negative ? 1 : 0;
  let i = skipDigits(s, intStart, n);
  if (i === intStart) return undefined;
  const int = s.slice(intStart, i);
  let frac = '';
  if (i < n && s.charCodeAt(i) === DOT) {
    const start = ++i;
    i = skipDigits(s, i, n);
    if (i === start) return undefined;
    frac = s.slice(start, i);
  }
  if (i === n) return { negative, int, frac, exponent: undefined };
  const c = s.charCodeAt(i);
  if (c !== LOWER_E && c !== UPPER_E) return undefined;
  const signAt = ++i;
  if (i < n && (s.charCodeAt(i) === PLUS || s.charCodeAt(i) === MINUS)) i++;
  const digitsAt = i;
  i = skipDigits(s, i, n);
  if (i === digitsAt || i !== n) return undefined;
  return { negative, int, frac, exponent: Number(s.slice(signAt)) };
}

/** The grammar in full (sign, fraction, exponent), without allocating. */
function isDecimalGrammarGeneral(s: string): boolean {
  const n = s.length;
  let i = n > 0 && s.charCodeAt(0) === MINUS ? 1 : 0;
  let start = i;
  i = skipDigits(s, i, n);
  if (i === start) return false;
  if (i === n) return true;
  let c = s.charCodeAt(i);
  if (c === DOT) {
    start = ++i;
    i = skipDigits(s, i, n);
    if (i === start) return false;
    if (i === n) return true;
    c = s.charCodeAt(i);
  }
  if (c !== LOWER_E && c !== UPPER_E) return false;
  i++;
  if (i < n) {
    c = s.charCodeAt(i);
    if (c === PLUS || c === MINUS) i++;
  }
  start = i;
  i = skipDigits(s, i, n);
  return i !== start && i === n;
}

/**
 * Whether `s` is decimal text by the wire grammar above (sign and exponent allowed), without the regex engine
 * and without allocating. The common form of market data (`digits` or `digits.digits`) is read once, each
 * character once; anything else (a sign, an exponent, a non-digit) is decided by the general check. What the
 * codecs accept; order input is held to the plainer {@link plainDecimalFault}. @internal
 */
export function isDecimalGrammar(s: string): s is DecimalText {
  const n = s.length;
  let i = 0;
  let c = 0;
  for (; i < n; i++) {
    c = s.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) break;
  }
  if (i === n) return n > 0;
  if (i === 0 || c !== DOT) return isDecimalGrammarGeneral(s);
  const fraction = ++i;
  for (; i < n; i++) {
    c = s.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) break;
  }
  return i === n ? i > fraction : isDecimalGrammarGeneral(s);
}

/**
 * Why `s` is not PLAIN decimal text (digits, optionally `.` and digits; at most {@link MAX_PLAIN_DECIMAL_LENGTH}
 * characters), or `undefined` when it is. No sign, no exponent, no space, no other character: what an order
 * may carry (`isDecimalText`, `toDecimalText`). The reason never quotes `s`. @internal
 */
export function plainDecimalFault(s: string): string | undefined {
  const n = s.length;
  if (n === 0) return 'is empty';
  if (n > MAX_PLAIN_DECIMAL_LENGTH) return `is longer than ${MAX_PLAIN_DECIMAL_LENGTH} characters`;
  const first = s.charCodeAt(0);
  if (first === MINUS || first === PLUS) return 'has a sign';
  if (first === DOT) return 'starts with a point (write 0.5, not .5)';
  const int = skipDigits(s, 0, n);
  if (int === n) return undefined;
  if (int > 0 && s.charCodeAt(int) === DOT) {
    if (int + 1 === n) return 'ends with a point (write 5, not 5.)';
    const end = skipDigits(s, int + 1, n);
    if (end === n) return undefined;
    return faultAt(s, end);
  }
  return faultAt(s, int);
}

/** Why the character at `i` (not a digit, not the one point) breaks plain decimal text. */
function faultAt(s: string, i: number): string {
  const c = s.charCodeAt(i);
  if ((c === LOWER_E || c === UPPER_E) && isDecimalGrammar(s)) return 'has an exponent (write 0.0000001, not 1e-7)';
  if (c === DOT) return 'has more than one point';
  return 'has a character other than digits and one point';
}

/**
 * The length of the integer part of plain decimal text (`digits` or `digits.digits`, no sign, no exponent, no
 * leading zero before another digit), or -1 when `s` is not plain: market prices, quantities and ids.
 * @internal
 */
export function plainIntLength(s: string): number {
  const n = s.length;
  const i = skipDigits(s, 0, n);
  if (i === 0 || (i > 1 && s.charCodeAt(0) === DIGIT_0)) return -1;
  if (i === n) return i;
  if (s.charCodeAt(i) !== DOT || i + 1 === n) return -1;
  return skipDigits(s, i + 1, n) === n ? i : -1;
}


/**
 * The end of the decimal text `digits[.digits]` starting at `i` in `s` and closed by a quote (the index of that
 * quote), or -1 when the text there is not of that form. Such text is decimal text. The JSON scanners (a book's
 * levels, the struct readers) read the common form of market data with it, in place, without a slice. @internal
 */
export function quotedDecimalEnd(s: string, i: number): number {
  // Its own loops, no call (not `skipDigits`): it runs for every price and quantity of a book (`npm run bench -- --only=api`:
  // `depth()` 202/167 → 240/227 % of the JSON.parse floor; notes/performance-history.md, "Redis fan-out", session 17).
  const n = s.length;
  let j = i;
  let c = 0;
  while (j < n && (c = s.charCodeAt(j)) >= DIGIT_0 && c <= DIGIT_9) j++;
  if (j === i || j === n) return -1;
  if (c === QUOTE) return j;
  if (c !== DOT) return -1;
  const fraction = ++j;
  while (j < n && (c = s.charCodeAt(j)) >= DIGIT_0 && c <= DIGIT_9) j++;
  return j > fraction && j < n && c === QUOTE ? j : -1;
}

