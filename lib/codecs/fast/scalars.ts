/**
 * Allocation-free checks of the primitive codecs (`lib/codecs/primitives.ts`): each returns the decoded
 * value, or {@link FAIL} where the combinator codec would fail. They mirror the combinators exactly; the
 * fast codecs only use them to find the common valid case, and re-run the combinator on any failure.
 *
 * @internal
 * @module
 */

import { isDecimalText, skipDigits } from '../../internal/decimal';
import { plainNumberText } from '../../internal/plainNumberText';

/** The "no" of a fast check: the combinator codec must run to produce the errors. @internal */
export const FAIL: unique symbol = Symbol('fast-codec-fail');
/** A decoded value, or {@link FAIL}. @internal */
export type Fast<A> = A | typeof FAIL;
/** A fast check of one value. @internal */
export type FastCheck<A = unknown> = (u: unknown) => Fast<A>;

const MINUS = 45;
const MAX_INT_DIGITS = 16;


/** `/^-?\d{1,16}$/.test(s)` without the regex engine. @internal */
export function isIntText(s: string): boolean {
  const n = s.length;
  const start = n > 0 && s.charCodeAt(0) === MINUS ? 1 : 0;
  const digits = n - start;
  return digits >= 1 && digits <= MAX_INT_DIGITS && skipDigits(s, start, n) === n;
}

/** `IntFromNumberOrString`. @internal */
export function fastInt(u: unknown): Fast<number> {
  if (typeof u === 'number') return Number.isSafeInteger(u) ? u : FAIL;
  if (typeof u === 'string' && isIntText(u)) {
    const n = Number(u);
    if (Number.isSafeInteger(n)) return n;
  }
  return FAIL;
}

/** `IdFromNumberOrString`. @internal */
export function fastId(u: unknown): Fast<string> {
  if (typeof u === 'string') return u.length > 0 ? u : FAIL;
  return typeof u === 'number' && Number.isSafeInteger(u) ? String(u) : FAIL;
}

/** `TextFromNumberOrString`. @internal */
export function fastText(u: unknown): Fast<string> {
  if (typeof u === 'string') return u;
  return typeof u === 'number' && Number.isSafeInteger(u) ? String(u) : FAIL;
}

/** `BooleanFromStringOrBoolean`. @internal */
export function fastBoolean(u: unknown): Fast<boolean> {
  if (typeof u === 'boolean') return u;
  if (u === 'true') return true;
  return u === 'false' ? false : FAIL;
}

/** `DecimalString`. @internal */
export function fastDecimal(u: unknown): Fast<string> {
  if (typeof u === 'string') return isDecimalText(u) ? u : FAIL;
  return typeof u === 'number' && Number.isFinite(u) ? plainNumberText(u) : FAIL;
}

/** `DecimalOrEmptyString`. @internal */
export function fastDecimalOrEmpty(u: unknown): Fast<string> {
  return u === '' ? u : fastDecimal(u);
}

/** `t.string`. @internal */
export function fastString(u: unknown): Fast<string> {
  return typeof u === 'string' ? u : FAIL;
}

/** `t.unknown`. @internal */
export function fastUnknown(u: unknown): unknown {
  return u;
}

/** `nullable(t.string)`. @internal */
export function fastNullableString(u: unknown): Fast<string | null> {
  return u === null || typeof u === 'string' ? u : FAIL;
}

/** `t.literal(value)`. @internal */
export function fastLiteral<V extends string>(value: V): FastCheck<V> {
  return (u) => (u === value ? value : FAIL);
}
