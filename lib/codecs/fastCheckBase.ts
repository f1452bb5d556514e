import { isDecimalGrammar } from '../decimal/grammar';

/**
 * What every fast check shares (see `fastCheck.ts`): the "no" of a check, its type, what its caller may know of
 * its input, and the inline tests of the primitives' common cases.
 * @internal
 * @module
 */
/** The "no" of a fast check: the combinator must run to produce the errors. @internal */
export const FAIL: unique symbol = Symbol('fast-check-fail');
/** A decoded value, or {@link FAIL}. @internal */
export type Fast<A> = A | typeof FAIL;
/**
 * What the caller of a check knows of its input: parts of it checked on the way, which the check need not scan
 * again (a frame's book levels, whose decimal text the JSON step checked: `ScannedLevels` of `frame/levelsJson.ts`).
 * `take` vouches for each part once. @internal
 */
export interface Prechecked {
  /** Whether `part` is one of the parts checked on the way, not yet vouched for; asking uses it up. */
  take(part: unknown): boolean;
}

/**
 * A fast check of one value: the decoded value (the input itself when nothing converts) or {@link FAIL}.
 * `prechecked`: the parts of the input already checked, handed down by the composite checks to the checks of
 * their parts (the caller's, for the frame being handled only). @internal
 */
export type FastCheck<A = unknown> = (u: unknown, prechecked?: Prechecked) => Fast<A>;

/**
 * The `typeof`-first test of a primitive's common case: a value that passes it is already decoded (its
 * check returns it unchanged), so the loops of the composite checks test it inline and call the check
 * only for the rest (a conversion, or a failure). Declared with the primitive (see `primitives.ts`);
 * `spec/codecs/fastCheck.spec.ts` proves "passes ⇒ check returns the value itself" for each. @internal
 */
export const AsIs = {
  /** No inline test: always call the check. */
  none: 0,
  /** Any value (`t.unknown`). */
  any: 1,
  /** Any text (`t.string`, `TextFromNumberOrString`). */
  text: 2,
  /** Non-empty text (`IdFromNumberOrString`). */
  nonEmptyText: 3,
  /** Decimal text (`DecimalString`). */
  decimalText: 4,
  /** A safe integer (`IntFromNumberOrString`). */
  safeInteger: 5,
  /** A boolean (`t.boolean`, `BooleanFromStringOrBoolean`). */
  boolean: 6,
} as const;
/** One of {@link AsIs}. @internal */
export type AsIs = (typeof AsIs)[keyof typeof AsIs];

const never = (): boolean => false;
const always = (): boolean => true;
const isText = (u: unknown): boolean => typeof u === 'string';
const isNonEmptyText = (u: unknown): boolean => typeof u === 'string' && u.length > 0;
const isDecimalGrammarValue = (u: unknown): boolean => typeof u === 'string' && isDecimalGrammar(u);
const isSafeIntegerValue = (u: unknown): boolean => typeof u === 'number' && Number.isSafeInteger(u);
const isBoolean = (u: unknown): boolean => typeof u === 'boolean';
const asIsTests: ReadonlyArray<(u: unknown) => boolean> = [never, always, isText, isNonEmptyText, isDecimalGrammarValue, isSafeIntegerValue, isBoolean];

/**
 * The inline test `kind` as a function, for a loop whose every element has the same kind (an array, a
 * pair): its call site sees one function and inlines it. @internal
 */
export const asIsTest = (kind: AsIs): ((u: unknown) => boolean) => asIsTests[kind] as (u: unknown) => boolean;

/** Whether `u` passes the inline test `kind` (then the check would return `u` itself). @internal */
export function passesAsIs(kind: AsIs, u: unknown): boolean {
  switch (kind) {
    case AsIs.any:
      return true;
    case AsIs.text:
      return typeof u === 'string';
    case AsIs.nonEmptyText:
      return typeof u === 'string' && u.length > 0;
    case AsIs.decimalText:
      return typeof u === 'string' && isDecimalGrammar(u);
    case AsIs.safeInteger:
      return typeof u === 'number' && Number.isSafeInteger(u);
    case AsIs.boolean:
      return typeof u === 'boolean';
    default:
      return false;
  }
}

/** `t.unknown`'s check (the identity): `t.array(t.unknown)` reduces to `Array.isArray`. @internal */
export const unknownCheck = (u: unknown): unknown => u;
