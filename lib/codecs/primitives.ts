import { type DecimalText, isDecimalGrammar, skipDigits } from '../decimal/grammar';
import { plainNumberText } from '../internal/plainNumberText';
import type * as t from 'io-ts';
import { AsIs, FAIL, type Fast, primitive } from './fastCheck';

/**
 * The tolerant primitive codecs every wire codec is built from. Each one accepts the few spellings real
 * deployments send for a field and decodes to one type; each one encodes back to that type (identity).
 * Each is declared by one check (the value or `FAIL`), which is both the fast path of every shape built
 * from it and, wrapped, its `validate` (`primitive` in `fastCheck.ts`): one definition, no second copy.
 * Data path: the record checks of the streams (`struct` fields) call these checks directly.
 *
 * @module
 */

const MINUS = 45;
const MAX_INT_DIGITS = 16;

/** `/^-?\d{1,16}$/.test(s)`, without the regex engine. @internal */
export function isIntText(s: string): boolean {
  const n = s.length;
  const start = n > 0 && s.charCodeAt(0) === MINUS ? 1 : 0;
  const digits = n - start;
  return digits >= 1 && digits <= MAX_INT_DIGITS && skipDigits(s, start, n) === n;
}

/** Digits read by {@link intCheck} (and the struct readers) without `Number()`: 15 digits always fit a double exactly. @internal */
export const EXACT_DIGITS = 15;

function intCheck(u: unknown): Fast<number> {
  if (typeof u === 'number') return Number.isSafeInteger(u) ? u : FAIL;
  if (typeof u !== 'string') return FAIL;
  // The common case (times as text: 13 digits) read digit by digit: exact, and no Number() parse.
  const n = u.length;
  if (n >= 1 && n <= EXACT_DIGITS) {
    let value = 0;
    let i = 0;
    for (; i < n; i++) {
      const d = u.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      value = value * 10 + d;
    }
    if (i === n) return value;
  }
  if (isIntText(u)) {
    const n = Number(u);
    if (Number.isSafeInteger(n)) return n;
  }
  return FAIL;
}

/**
 * An integer (millisecond times `t`, `E`, `O`, `U`, `sendTime`, `ping`, `pong`, request ids): a JSON
 * number or numeric text, decoded to a `number`.
 *
 * Accepts safe integers (`|n| ≤ 2^53 - 1`) and text made of an optional `-` and 1 to 16 digits whose
 * value is a safe integer. Rejects fractions (`1.5`, `"1.0"`), `NaN`, `±Infinity`, empty text, text with
 * spaces, signs other than `-`, exponents or trailing characters (`"12a"`, `"1e3"`).
 *
 * @example
 * ```ts
 * import { IntFromNumberOrString } from 'ex-streams/codecs';
 * IntFromNumberOrString.decode('1625562619577'); // right(1625562619577)
 * IntFromNumberOrString.decode(1625562619577);   // right(1625562619577)
 * IntFromNumberOrString.decode('12a');           // left(...)
 * ```
 */
export const IntFromNumberOrString: t.Type<number, number, unknown> = primitive(
  'IntFromNumberOrString',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u),
  intCheck,
  AsIs.safeInteger,
);

/**
 * An identifier (trade `v`, order `i`, client order `c`, execution `d`, ticket `T`, `o`, `O`, account `a`,
 * `channelId`, echoed request `id`, exchange id `e`): any non-empty text, or a JSON number, decoded to a
 * `string`.
 *
 * A number is converted with `String(n)` and must be a safe integer: a larger one has already lost digits
 * in `JSON.parse`, so it is rejected rather than silently corrupted. 64-bit ids stay exact when the frame
 * went through `parseJson`, which turns integer literals of 16+ digits into text before parsing.
 *
 * @example
 * ```ts
 * import { IdFromNumberOrString } from 'ex-streams/codecs';
 * IdFromNumberOrString.decode('929681067596857345'); // right('929681067596857345')
 * IdFromNumberOrString.decode(1470000001);           // right('1470000001')
 * IdFromNumberOrString.decode(929681067596857345);   // left(...): digits already lost
 * IdFromNumberOrString.decode('');                   // left(...)
 * ```
 */
export const IdFromNumberOrString: t.Type<string, string, unknown> = primitive(
  'IdFromNumberOrString',
  (u): u is string => typeof u === 'string' && u.length > 0,
  (u) => {
    if (typeof u === 'string') return u.length > 0 ? u : FAIL;
    return typeof u === 'number' && Number.isSafeInteger(u) ? String(u) : FAIL;
  },
  AsIs.nonEmptyText,
);

/**
 * A flag (`m`, `f`, `shared`, `params.binary`, `T`/`W`/`D`, `u`/`w`): `true`/`false` or the text
 * `"true"`/`"false"` (lower case, exactly), decoded to a `boolean`.
 *
 * @example
 * ```ts
 * import { BooleanFromStringOrBoolean } from 'ex-streams/codecs';
 * BooleanFromStringOrBoolean.decode('false'); // right(false)
 * BooleanFromStringOrBoolean.decode(true);    // right(true)
 * BooleanFromStringOrBoolean.decode('yes');   // left(...)
 * ```
 */
export const BooleanFromStringOrBoolean: t.Type<boolean, boolean, unknown> = primitive(
  'BooleanFromStringOrBoolean',
  (u): u is boolean => typeof u === 'boolean',
  (u) => {
    if (typeof u === 'boolean') return u;
    if (u === 'true') return true;
    return u === 'false' ? false : FAIL;
  },
  AsIs.boolean,
);

/**
 * A price or a quantity, kept as exact decimal text, typed `DecimalText` (so a decoded price goes into an
 * order as it is).
 *
 * Accepted text: an optional `-`, digits, an optional fraction (`.` and at least one digit) and an optional
 * exponent (`e`/`E`, optional sign, digits): `"34924.15"`, `"0.00027"`, `"-1"`, `"0"`, `"1e-7"`, `"1.5E+3"`.
 * The text is returned unchanged (no normalisation: `"0.10"` stays `"0.10"`).
 * Rejected: empty text, spaces, `"+1"`, `".5"`, `"1."`, `"NaN"`, `"Infinity"`, thousands separators.
 * A finite JSON number is accepted and turned into the digits of its shortest text `String(n)`, written
 * without an exponent (`0.1` → `"0.1"`, `-3` → `"-3"`, `1e-7` → `"0.0000001"`, `-0` → `"0"`); it is only
 * as exact as the number `JSON.parse` produced. An integer beyond the safe range (`|n| ≥ 2^53`, `1e21`) is
 * rejected: it has already lost digits, and its text would invent them (frames parsed by `parseJson` carry
 * long integer literals as text, which is kept exactly).
 * Convert at the edge with `decimalToNumber`; average prices with `averagePrice`.
 *
 * @example
 * ```ts
 * import { DecimalString } from 'ex-streams/codecs';
 * DecimalString.decode('0.00012'); // right('0.00012')
 * DecimalString.decode(0.5);       // right('0.5')
 * DecimalString.decode(1e-7);      // right('0.0000001')
 * DecimalString.decode(2 ** 60);   // left(...): digits already lost
 * DecimalString.decode('1,000');   // left(...)
 * ```
 */
export const DecimalString: t.Type<DecimalText, DecimalText, unknown> = primitive(
  'DecimalString',
  (u): u is DecimalText => typeof u === 'string' && isDecimalGrammar(u),
  decimalCheck,
  AsIs.decimalText,
);

/** `DecimalString`'s check: text by the grammar, or a finite number that is not an unsafe integer. */
function decimalCheck(u: unknown): Fast<DecimalText> {
  if (typeof u === 'string') return isDecimalGrammar(u) ? u : FAIL;
  // An integer beyond 2^53 already lost digits in JSON.parse: its text would invent them. The digits of a
  // finite number, without an exponent, are decimal text.
  return typeof u === 'number' && Number.isFinite(u) && (Number.isSafeInteger(u) || !Number.isInteger(u)) ? (plainNumberText(u) as DecimalText) : FAIL;
}

/**
 * Optional id-like text that services send empty when it does not apply (the execution id `d` of a NEW
 * report, a client order id `c` the user never set): any text, including `""`, or a safe integer turned
 * into text. Unlike {@link IdFromNumberOrString} the empty string is kept as it is.
 *
 * @example
 * ```ts
 * import { TextFromNumberOrString } from 'ex-streams/codecs';
 * TextFromNumberOrString.decode('');          // right('')
 * TextFromNumberOrString.decode(1000087761);  // right('1000087761')
 * TextFromNumberOrString.decode(null);        // left(...)
 * ```
 */
export const TextFromNumberOrString: t.Type<string, string, unknown> = primitive(
  'TextFromNumberOrString',
  (u): u is string => typeof u === 'string',
  (u) => {
    if (typeof u === 'string') return u;
    return typeof u === 'number' && Number.isSafeInteger(u) ? String(u) : FAIL;
  },
  AsIs.text,
);

/**
 * An optional decimal field that services send as `""` when it does not apply yet (last executed price
 * `L` of a NEW report, commission `n` before any fill): a {@link DecimalString} or the empty text `""`,
 * kept as is. Typed `string` (it may be empty): check it (`isDecimalText`) before it goes into an order.
 *
 * @example
 * ```ts
 * import { DecimalOrEmptyString } from 'ex-streams/codecs';
 * DecimalOrEmptyString.decode('');      // right('')
 * DecimalOrEmptyString.decode('0.1');   // right('0.1')
 * DecimalOrEmptyString.decode('abc');   // left(...)
 * ```
 */
export const DecimalOrEmptyString: t.Type<string, string, unknown> = primitive(
  'DecimalOrEmptyString',
  (u): u is string => u === '' || DecimalString.is(u),
  (u) => (u === '' ? u : decimalCheck(u)),
  AsIs.decimalText,
);

/**
 * A JSON scalar kept as it was sent: text, a number, `true` / `false` or `null`. For fields a deployment sends
 * whose meaning or type is not documented, so a report that carries them still decodes, whatever they hold.
 *
 * @example
 * ```ts
 * import type { JsonScalar } from 'ex-streams/codecs';
 *
 * const shown = (value: JsonScalar | undefined): string => (value === undefined ? '-' : String(value));
 * ```
 */
export type JsonScalar = string | number | boolean | null;

/**
 * The codec of {@link JsonScalar}: text, `true`, `false`, `null` or a finite number, each kept as it is. An
 * integer beyond the safe range (`|n| ≥ 2^53`) is refused: it already lost digits in `JSON.parse` (frames parsed
 * by `parseJson` carry long integer literals as text, which is kept exactly). Objects and arrays fail.
 *
 * @example
 * ```ts
 * import { JsonScalarCodec } from 'ex-streams/codecs';
 * JsonScalarCodec.decode('');     // right('')
 * JsonScalarCodec.decode(0);      // right(0)
 * JsonScalarCodec.decode(null);   // right(null)
 * JsonScalarCodec.decode({});     // left(...)
 * ```
 */
export const JsonScalarCodec: t.Type<JsonScalar, JsonScalar, unknown> = primitive(
  'JsonScalar',
  (u): u is JsonScalar => u === null || typeof u === 'string' || typeof u === 'boolean' || isExactNumber(u),
  (u) => (u === null || typeof u === 'string' || typeof u === 'boolean' || isExactNumber(u) ? (u as JsonScalar) : FAIL),
  AsIs.text,
);

/** A finite number that is not an integer beyond the safe range (one that `JSON.parse` may have rounded). */
function isExactNumber(u: unknown): boolean {
  return typeof u === 'number' && Number.isFinite(u) && (Number.isSafeInteger(u) || !Number.isInteger(u));
}
