/**
 * Decimal text, the one module: the grammar every part of ex-streams accepts as a price, a quantity or an
 * amount (the wire codecs, the folds of the user stream, the order book, the simulator), one total order over
 * text ({@link compareDecimal}), and exact arithmetic on scaled `BigInt`s. Never through floats.
 *
 * The grammar (the `DecimalString` codec's): an optional `-`, digits, optionally `.` and digits, optionally
 * an exponent `e` / `E`, an optional sign and digits: `/^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/`. So `"27000.50"`,
 * `"0.0001"`, `"-3.5"`, `"1e-7"`, `"1.5E+3"` are decimal text; `""`, `" 1"`, `"+1"`, `".5"`, `"5."`, `"1,000"`,
 * `"NaN"` are not. Values with an exponent beyond ±{@link MAX_EXPONENT} are decimal text but have no value
 * here (they would expand into huge numbers): the value functions treat them as malformed.
 *
 * Order input is held to a plainer form (`isDecimalText` and `toDecimalText` of `lib/codecs/decimal.ts`, the
 * public edge): digits, optionally `.` and digits, nothing else ({@link plainDecimalFault}). Both are typed
 * {@link DecimalText}, declared here once.
 *
 * None of these functions throws (given a positive step, for the ones that take a step). Two are public
 * (`addDecimal`, `subtractDecimal`, re-exported by `ex-streams`); the rest are internal.
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
 * import { toDecimalText, type DecimalText, type NewOrderRequest, type OrderBook } from 'ex-streams';
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

/** A decimal's value: sign, integer part without leading zeros, fraction without trailing zeros (zero is `+0`). */
interface Parts {
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
function valueOf(text: WrittenDecimal): Parts | undefined {
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

/** Whether `s` from `i` on is only zeros and at most one point (a fraction that adds nothing). */
function onlyZeros(s: string, i: number): boolean {
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
export function parseDecimal(text: string): Scaled | undefined {
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
  const x = parseDecimal(a);
  const y = parseDecimal(b);
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
 * import { subtractDecimal } from 'ex-streams';
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
 * import { addDecimal } from 'ex-streams';
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
 * which gives the same text: `spec/internal/decimal.property.spec.ts`). An average price per fill without
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
