import * as t from 'io-ts';
import { isDecimalGrammar } from '../decimal/grammar';
import { isRecord } from '../internal/guards';

/**
 * Fast checks: the valid case of a codec, decided without io-ts contexts or `Either`s. Data path: a parsed
 * JSON message → (the router's envelope check, the user stream's event check) → a record's check → the
 * subscriber; `validate` of every codec built here runs the check first and the io-ts combinator (for the
 * exact errors and PathReporter paths) only when the check fails.
 *
 * A check is never written next to its codec: primitives are declared by their check (their `validate` is
 * derived from it), composites (`struct`, `taggedUnion`, `t.array`, `t.tuple`, `t.string`, `t.literal`,
 * `t.keyof`, …) derive theirs from their parts' (see {@link fastCheckOf}). One declaration per shape.
 *
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

/**
 * An io-ts `Type` that carries its fast check. `validate` runs `check` and, when it fails, `fallback` (the
 * combinator: exact errors and paths). `checkInPlace`, for a value the caller owns alone (a freshly parsed
 * frame element), writes converted fields into the value instead of a copy, and only once every field has
 * passed. Correctness rests on one property, tested for every hot codec in `spec/codecs/fastCheck.spec.ts`:
 * `check` passes exactly when `fallback` succeeds, with an equal value.
 * @internal
 */
export class CheckedType<A, O = A> extends t.Type<A, O, unknown> {
  constructor(
    name: string,
    is: t.Is<A>,
    readonly check: FastCheck<A>,
    readonly fallback: t.Validate<unknown, A>,
    encode: t.Encode<A, O>,
    readonly checkInPlace: FastCheck<A> = check,
    readonly asIs: AsIs = AsIs.none,
    /** The io-ts codec this one adds a check to ({@link withFastCheck}), for the derivations that look inside. */
    readonly wrapped?: t.Decoder<unknown, A>,
  ) {
    super(
      name,
      is,
      (u, c) => {
        const a = check(u);
        return a === FAIL ? fallback(u, c) : t.success(a);
      },
      encode,
    );
  }
}

/**
 * A primitive codec declared by its check: `validate` succeeds with the check's value, or fails with one
 * path line named `name`; `encode` is the identity. `asIs` names the inline test of its common case. @internal
 */
export function primitive<A>(name: string, is: t.Is<A>, check: FastCheck<A>, asIs: AsIs = AsIs.none): t.Type<A, A, unknown> {
  return new CheckedType<A>(name, is, check, (u, c) => t.failure(u, c), t.identity, check, asIs);
}

/**
 * `codec` with the fast check {@link fastCheckOf} derives for it: same name, `is`, `encode`, values and
 * errors (the codec's own `validate` runs whenever the check fails). @internal
 */
export function withFastCheck<A, O>(codec: t.Type<A, O, unknown>): t.Type<A, O, unknown> {
  if (codec instanceof CheckedType) return codec;
  const check = fastCheckOf(codec);
  return new CheckedType<A, O>(codec.name, codec.is, check, codec.validate, codec.encode, check, AsIs.none, codec);
}

const derived = new WeakMap<t.Decoder<unknown, unknown>, FastCheck>();

/**
 * The fast check of `decoder`: its own when it carries one ({@link CheckedType}), derived from its parts
 * for the io-ts built-ins (`t.string`, `t.number`, `t.boolean`, `t.null`, `t.unknown`, `t.literal`,
 * `t.keyof`, `t.array`, `t.tuple`), and for any other decoder its `validate` with the `Either` unwrapped
 * (correct, not fast). Derived checks are made once per codec. @internal
 */
export function fastCheckOf<A>(decoder: t.Decoder<unknown, A>): FastCheck<A> {
  if (decoder instanceof CheckedType) return decoder.check as FastCheck<A>;
  let check = derived.get(decoder);
  if (check === undefined) {
    check = derive(decoder);
    derived.set(decoder, check);
  }
  return check as FastCheck<A>;
}

/** The in-place check of `decoder` when it has one (see {@link CheckedType}), else its fast check. @internal */
export function inPlaceCheckOf<A>(decoder: t.Decoder<unknown, A>): FastCheck<A> {
  return decoder instanceof CheckedType ? (decoder.checkInPlace as FastCheck<A>) : fastCheckOf(decoder);
}

/** The inline test of `decoder`'s common case ({@link AsIs}), `AsIs.none` when it has none. @internal */
export function asIsOf(decoder: t.Decoder<unknown, unknown>): AsIs {
  if (decoder instanceof CheckedType) return decoder.asIs;
  if (decoder instanceof t.StringType) return AsIs.text;
  if (decoder instanceof t.BooleanType) return AsIs.boolean;
  if (decoder instanceof t.UnknownType) return AsIs.any;
  return AsIs.none;
}

/** `t.unknown`'s check (the identity): `t.array(t.unknown)` reduces to `Array.isArray`. @internal */
export const unknownCheck = (u: unknown): unknown => u;
const stringCheck = (u: unknown): Fast<string> => (typeof u === 'string' ? u : FAIL);
const numberCheck = (u: unknown): Fast<number> => (typeof u === 'number' ? u : FAIL);
const booleanCheck = (u: unknown): Fast<boolean> => (typeof u === 'boolean' ? u : FAIL);
const nullCheck = (u: unknown): Fast<null> => (u === null ? u : FAIL);
const unknownArrayCheck = (u: unknown): Fast<unknown[]> => (Array.isArray(u) ? u : FAIL);

function derive(decoder: t.Decoder<unknown, unknown>): FastCheck {
  if (decoder instanceof t.StringType) return stringCheck;
  if (decoder instanceof t.NumberType) return numberCheck;
  if (decoder instanceof t.BooleanType) return booleanCheck;
  if (decoder instanceof t.NullType) return nullCheck;
  if (decoder instanceof t.UnknownType) return unknownCheck;
  if (decoder instanceof t.LiteralType) return literalCheck(decoder.value as string | number | boolean);
  if (decoder instanceof t.KeyofType) return keyofCheck(decoder.keys as Record<string, unknown>);
  if (decoder instanceof t.ArrayType) {
    const item = decoder.type as t.Mixed;
    const inner = item instanceof CheckedType && item.wrapped !== undefined ? item.wrapped : item;
    if (inner instanceof t.TupleType && (inner.types as t.Mixed[]).length === 2) {
      const [first, second] = inner.types as [t.Mixed, t.Mixed];
      return pairArrayCheck(fastCheckOf(item), asIsOf(first), asIsOf(second));
    }
    return arrayCheck(fastCheckOf(item), asIsOf(item));
  }
  if (decoder instanceof t.TupleType) {
    const types = decoder.types as t.Mixed[];
    return tupleCheck(
      types.map((type) => fastCheckOf(type)),
      types.map((type) => asIsOf(type)),
    );
  }
  return validateCheck(decoder);
}

/** Any decoder's `validate`, unwrapped: the value or {@link FAIL}. */
function validateCheck(decoder: t.Decoder<unknown, unknown>): FastCheck {
  return (u) => {
    const r = decoder.validate(u, [{ key: '', type: decoder, actual: u }]);
    return r._tag === 'Right' ? r.right : FAIL;
  };
}

/** `t.literal(value)`. */
function literalCheck(value: string | number | boolean): FastCheck {
  return (u) => (u === value ? value : FAIL);
}

/** `t.keyof(keys)`: own keys only (`'toString'`, `'__proto__'` fail); up to 8 keys compared one by one. */
function keyofCheck(keys: Record<string, unknown>): FastCheck {
  const names = Object.keys(keys);
  if (names.length > 8) {
    const set = new Set(names);
    return (u) => (typeof u === 'string' && set.has(u) ? u : FAIL);
  }
  const n = names.length;
  return (u) => {
    if (typeof u !== 'string') return FAIL;
    for (let i = 0; i < n; i++) if (u === names[i]) return u;
    return FAIL;
  };
}

/**
 * `t.array(item)`: the input array itself when no element converts, else a copy with the converted
 * elements. `asIs` is the item's inline test. @internal
 */
export function arrayCheck<A>(item: FastCheck<A>, asIs: AsIs = AsIs.none): FastCheck<A[]> {
  if (item === unknownCheck || asIs === AsIs.any) return unknownArrayCheck as FastCheck<A[]>;
  // `never` for AsIs.none: every element goes to the item's check.
  const passes = asIsTest(asIs);
  return (u, prechecked) => {
    if (!Array.isArray(u)) return FAIL;
    let out: unknown[] = u;
    const n = u.length;
    for (let i = 0; i < n; i++) {
      const a: unknown = u[i];
      if (passes(a)) continue;
      const b = item(a, prechecked);
      if (b === FAIL) return FAIL;
      if (b !== a) {
        if (out === u) out = u.slice();
        out[i] = b;
      }
    }
    // Assembled from checked elements only: the one cast of this combinator.
    return out as A[];
  };
}

/**
 * `t.array(t.tuple([first, second]))` (depth levels): a level of exactly two elements that pass their inline
 * tests is checked in the loop itself; any other goes to the pair's check `pair`. @internal
 */
export function pairArrayCheck(pair: FastCheck, first: AsIs, second: AsIs): FastCheck<unknown[]> {
  const firstPasses = asIsTest(first);
  const secondPasses = asIsTest(second);
  // Both decimal text (the levels of a book): the test written with direct calls, which inline.
  const decimals = first === AsIs.decimalText && second === AsIs.decimalText;
  return (u, prechecked) => {
    if (!Array.isArray(u)) return FAIL;
    // Levels the JSON step scanned (pairs of decimal text, checked there) are not scanned twice.
    if (decimals && prechecked !== undefined && prechecked.take(u)) return u;
    let out: unknown[] = u;
    const n = u.length;
    for (let i = 0; i < n; i++) {
      const a: unknown = u[i];
      if (Array.isArray(a) && a.length === 2) {
        const x: unknown = a[0];
        const y: unknown = a[1];
        if (
          decimals
            ? typeof x === 'string' && typeof y === 'string' && isDecimalGrammar(x) && isDecimalGrammar(y)
            : firstPasses(x) && secondPasses(y)
        ) {
          continue;
        }
      }
      const b = pair(a);
      if (b === FAIL) return FAIL;
      if (b !== a) {
        if (out === u) out = u.slice();
        out[i] = b;
      }
    }
    return out;
  };
}

/**
 * `t.tuple(items)`: elements beyond `items.length` are dropped (a copy), a missing one is `undefined` for
 * its check, as io-ts does. Pairs (depth levels) get a loop-free check. `asIs` are the items' inline
 * tests. @internal
 */
export function tupleCheck(items: readonly FastCheck[], asIs: readonly AsIs[]): FastCheck<unknown[]> {
  const n = items.length;
  if (n === 2) {
    const first = items[0] as FastCheck;
    const second = items[1] as FastCheck;
    const firstPasses = asIsTest(asIs[0] as AsIs);
    const secondPasses = asIsTest(asIs[1] as AsIs);
    return (u) => {
      if (!Array.isArray(u)) return FAIL;
      const x: unknown = u[0];
      const y: unknown = u[1];
      if (u.length === 2 && firstPasses(x) && secondPasses(y)) return u;
      const a = first(x);
      if (a === FAIL) return FAIL;
      const b = second(y);
      if (b === FAIL) return FAIL;
      return u.length === 2 && a === x && b === y ? u : [a, b];
    };
  }
  return (u) => {
    if (!Array.isArray(u)) return FAIL;
    let out: unknown[] = u.length > n ? u.slice(0, n) : u;
    for (let i = 0; i < n; i++) {
      const a: unknown = u[i];
      if (passesAsIs(asIs[i] as AsIs, a)) continue;
      const b = (items[i] as FastCheck)(a);
      if (b === FAIL) return FAIL;
      if (b !== a) {
        if (out === u) out = u.slice();
        out[i] = b;
      }
    }
    return out;
  };
}

/**
 * The check of an object with `keys` (`optional[i]`: the field is skipped when absent or `undefined`), each
 * checked by `checks[i]` after the inline test `asIs[i]`; extra fields
 * are kept. The output is the input itself when no field converts, else (`inPlace` false) a shallow copy
 * with the converted fields or (`inPlace` true) the input with the converted fields written into it.
 * Nothing is copied or written before every field has passed. @internal
 */
export function recordCheck(
  keys: readonly string[],
  checks: readonly FastCheck[],
  asIs: readonly AsIs[],
  optional: readonly boolean[],
  inPlace: boolean,
): FastCheck<Record<string, unknown>> {
  const n = keys.length;
  // The converted fields of the running call, kept between the field checks and the one copy or write at
  // the end: reused across calls (no allocation per record). A re-entrant call (a recursive shape) gets its
  // own; after a getter threw, `busy` may stay set and later calls take that path too (still correct).
  const pendingKeys: string[] = [];
  const pendingValues: unknown[] = [];
  let busy = false;
  return (u, prechecked) => {
    if (!isRecord(u)) return FAIL;
    const reentered = busy;
    const ks = reentered ? [] : pendingKeys;
    const vs = reentered ? [] : pendingValues;
    let pending = 0;
    busy = true;
    for (let i = 0; i < n; i++) {
      const k = keys[i] as string;
      const a = u[k];
      // The inline tests of the commonest fields written out (a call to passesAsIs is not always inlined).
      const kind = asIs[i] as AsIs;
      if (kind === AsIs.decimalText) {
        if (typeof a === 'string' && isDecimalGrammar(a)) continue;
      } else if (kind === AsIs.text) {
        if (typeof a === 'string') continue;
      } else if (kind === AsIs.safeInteger) {
        if (typeof a === 'number' && Number.isSafeInteger(a)) continue;
      } else if (passesAsIs(kind, a)) continue;
      if (a === undefined && optional[i] === true) continue;
      const b = (checks[i] as FastCheck)(a, prechecked);
      if (b === FAIL) {
        for (let j = 0; j < pending; j++) vs[j] = undefined;
        busy = reentered;
        return FAIL;
      }
      if (b !== a) {
        ks[pending] = k;
        vs[pending] = b;
        pending++;
      }
    }
    busy = reentered;
    if (pending === 0) return u;
    const out = inPlace ? u : { ...u };
    for (let j = 0; j < pending; j++) {
      out[ks[j] as string] = vs[j];
      vs[j] = undefined;
    }
    return out;
  };
}

/** Inline test source of an {@link AsIs} kind for the value in `v`, or `undefined` for none. @internal */
export function inlineTest(kind: AsIs, v: string): string | undefined {
  switch (kind) {
    case AsIs.any:
      return 'true';
    case AsIs.text:
      return `typeof ${v} === 'string'`;
    case AsIs.nonEmptyText:
      return `(typeof ${v} === 'string' && ${v}.length > 0)`;
    case AsIs.decimalText:
      return `(typeof ${v} === 'string' && isDecimalGrammar(${v}))`;
    case AsIs.safeInteger:
      return `(typeof ${v} === 'number' && Number.isSafeInteger(${v}))`;
    case AsIs.boolean:
      return `typeof ${v} === 'boolean'`;
    default:
      return undefined;
  }
}

/**
 * {@link recordCheck} compiled for one shape (`new Function`): the same semantics, with a named property load
 * and an inline test written out per field, so the engine specialises each (the generic loop's keyed loads see
 * every shape). `undefined` where code cannot be compiled (a content security policy without `unsafe-eval`):
 * then the generic loop runs. The source is built from the declaration's own keys only (never from input),
 * each key written as a JSON string literal. @internal
 */
export function compiledRecordCheck(
  keys: readonly string[],
  checks: readonly FastCheck[],
  asIs: readonly AsIs[],
  optional: readonly boolean[],
  inPlace: boolean,
): FastCheck<Record<string, unknown>> | undefined {
  const n = keys.length;
  // The generic loop's semantics, written out: the inline test, an absent optional field, the field's check;
  // nothing copied or written before every field passed (the `b` values), then one copy or one write per change.
  const lines: string[] = ['return function check(u, prechecked) {', '  if (typeof u !== "object" || u === null || Array.isArray(u)) return FAIL;'];
  for (let i = 0; i < n; i++) {
    const key = JSON.stringify(keys[i]);
    const test = inlineTest(asIs[i] as AsIs, `a${i}`);
    lines.push(`  const a${i} = u[${key}];`);
    lines.push(`  let b${i} = a${i};`);
    const skip = [test, optional[i] === true ? `a${i} === undefined` : undefined].filter((x) => x !== undefined).join(' || ');
    lines.push(`  if (!(${skip || 'false'})) { b${i} = checks[${i}](a${i}, prechecked); if (b${i} === FAIL) return FAIL; }`);
  }
  const changed = keys.map((_, i) => `b${i} !== a${i}`).join(' || ');
  lines.push(`  if (!(${changed || 'false'})) return u;`);
  lines.push(inPlace ? '  const out = u;' : '  const out = { ...u };');
  for (let i = 0; i < n; i++) lines.push(`  if (b${i} !== a${i}) out[${JSON.stringify(keys[i])}] = b${i};`);
  lines.push('  return out;', '};');
  return compiled(['checks', 'FAIL', 'isDecimalGrammar'], lines, [checks, FAIL, isDecimalGrammar]) as FastCheck<Record<string, unknown>> | undefined;
}

/** Whether code can be compiled here: `undefined` until first tried. */
let compiling: boolean | undefined;

/**
 * The value of generated source `lines` (`new Function(...params, body)(...args)`), or `undefined` where code
 * cannot be compiled (a content security policy without `unsafe-eval`): refused once, never asked again, so
 * such a page sees one refusal, not one per codec. The one `new Function` of ex-streams; callers build the
 * source from declarations only (never from input). @internal
 */
export function compiled(params: readonly string[], lines: readonly string[], args: readonly unknown[]): unknown {
  if (compiling === false) return undefined;
  try {
    const value: unknown = new Function(...params, lines.join('\n'))(...args);
    compiling = true;
    return value;
  } catch {
    compiling = false;
    return undefined;
  }
}

/**
 * The check of a record of these fields (see {@link recordCheck}): compiled for the shape when the runtime
 * allows it ({@link compiledRecordCheck}: about 7 points of `trades()` and 4 of `klines()` in the public-API
 * benchmark, notes/performance-history.md), the generic loop otherwise; both property-tested to agree
 * (`spec/codecs/fastCheck.spec.ts`). @internal
 */
export function shapeRecordCheck(
  keys: readonly string[],
  checks: readonly FastCheck[],
  asIs: readonly AsIs[],
  optional: readonly boolean[],
  inPlace: boolean,
): FastCheck<Record<string, unknown>> {
  return compiledRecordCheck(keys, checks, asIs, optional, inPlace) ?? recordCheck(keys, checks, asIs, optional, inPlace);
}
