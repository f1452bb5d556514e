import * as t from 'io-ts';
import { isDecimalText } from '../internal/decimal';
import { plainNumberText } from '../internal/plainNumberText';

/**
 * The tolerant primitive codecs every wire codec is built from. Each one accepts the few spellings real
 * deployments send for a field and decodes to one type; each one encodes back to that type (identity).
 *
 * @module
 */

const INT_TEXT = /^-?\d{1,16}$/;

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
export const IntFromNumberOrString = new t.Type<number, number, unknown>(
  'IntFromNumberOrString',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u),
  (u, c) => {
    if (typeof u === 'number') return Number.isSafeInteger(u) ? t.success(u) : t.failure(u, c);
    if (typeof u === 'string' && INT_TEXT.test(u)) {
      const n = Number(u);
      if (Number.isSafeInteger(n)) return t.success(n);
    }
    return t.failure(u, c);
  },
  t.identity,
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
export const IdFromNumberOrString = new t.Type<string, string, unknown>(
  'IdFromNumberOrString',
  (u): u is string => typeof u === 'string' && u.length > 0,
  (u, c) => {
    if (typeof u === 'string') return u.length > 0 ? t.success(u) : t.failure(u, c);
    if (typeof u === 'number' && Number.isSafeInteger(u)) return t.success(String(u));
    return t.failure(u, c);
  },
  t.identity,
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
export const BooleanFromStringOrBoolean = new t.Type<boolean, boolean, unknown>(
  'BooleanFromStringOrBoolean',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) => {
    if (typeof u === 'boolean') return t.success(u);
    if (u === 'true') return t.success(true);
    if (u === 'false') return t.success(false);
    return t.failure(u, c);
  },
  t.identity,
);

/**
 * A price or a quantity, kept as exact decimal text.
 *
 * Accepted text: an optional `-`, digits, an optional fraction (`.` and at least one digit) and an optional
 * exponent (`e`/`E`, optional sign, digits): `"34924.15"`, `"0.00027"`, `"-1"`, `"0"`, `"1e-7"`, `"1.5E+3"`.
 * The text is returned unchanged (no normalisation: `"0.10"` stays `"0.10"`).
 * Rejected: empty text, spaces, `"+1"`, `".5"`, `"1."`, `"NaN"`, `"Infinity"`, thousands separators.
 * A finite JSON number is accepted and turned into the digits of its shortest text `String(n)`, written
 * without an exponent (`0.1` → `"0.1"`, `-3` → `"-3"`, `1e-7` → `"0.0000001"`, `1e21` →
 * `"1000000000000000000000"`, `-0` → `"0"`); it is only as exact as the number `JSON.parse` produced.
 * Convert at the edge with `decimalToNumber`; average prices with `averagePrice`.
 *
 * @example
 * ```ts
 * import { DecimalString } from 'ex-streams/codecs';
 * DecimalString.decode('0.00012'); // right('0.00012')
 * DecimalString.decode(0.5);       // right('0.5')
 * DecimalString.decode(1e-7);      // right('0.0000001')
 * DecimalString.decode('1,000');   // left(...)
 * ```
 */
export const DecimalString = new t.Type<string, string, unknown>(
  'DecimalString',
  (u): u is string => typeof u === 'string' && isDecimalText(u),
  (u, c) => {
    if (typeof u === 'string') return isDecimalText(u) ? t.success(u) : t.failure(u, c);
    if (typeof u === 'number' && Number.isFinite(u)) return t.success(plainNumberText(u));
    return t.failure(u, c);
  },
  t.identity,
);

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
export const TextFromNumberOrString = new t.Type<string, string, unknown>(
  'TextFromNumberOrString',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u === 'string') return t.success(u);
    if (typeof u === 'number' && Number.isSafeInteger(u)) return t.success(String(u));
    return t.failure(u, c);
  },
  t.identity,
);

/**
 * An optional decimal field that services send as `""` when it does not apply yet (last executed price
 * `L` of a NEW report, commission `n` before any fill): a {@link DecimalString} or the empty text `""`,
 * kept as is.
 *
 * @example
 * ```ts
 * import { DecimalOrEmptyString } from 'ex-streams/codecs';
 * DecimalOrEmptyString.decode('');      // right('')
 * DecimalOrEmptyString.decode('0.1');   // right('0.1')
 * DecimalOrEmptyString.decode('abc');   // left(...)
 * ```
 */
export const DecimalOrEmptyString = new t.Type<string, string, unknown>(
  'DecimalOrEmptyString',
  (u): u is string => u === '' || DecimalString.is(u),
  (u, c) => (u === '' ? t.success('') : DecimalString.validate(u, c)),
  t.identity,
);
