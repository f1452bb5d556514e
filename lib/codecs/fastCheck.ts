import * as t from 'io-ts';
import { arrayCheck, pairArrayCheck, tupleCheck } from './collectionChecks';
import { AsIs, FAIL, type Fast, type FastCheck, unknownCheck } from './fastCheckBase';

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
 * Here: the codec that carries a check and the derivation. What every check shares is in `fastCheckBase.ts`,
 * the collections' checks in `collectionChecks.ts`, the records' in `recordChecks.ts`; all re-exported here.
 *
 * @internal
 * @module
 */

export { AsIs, asIsTest, FAIL, passesAsIs, unknownCheck } from './fastCheckBase';
export type { Fast, FastCheck, Prechecked } from './fastCheckBase';
export { arrayCheck, pairArrayCheck, tupleCheck } from './collectionChecks';
export { compiled, compiledRecordCheck, inlineTest, recordCheck, shapeRecordCheck } from './recordChecks';

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

const stringCheck = (u: unknown): Fast<string> => (typeof u === 'string' ? u : FAIL);
const numberCheck = (u: unknown): Fast<number> => (typeof u === 'number' ? u : FAIL);
const booleanCheck = (u: unknown): Fast<boolean> => (typeof u === 'boolean' ? u : FAIL);
const nullCheck = (u: unknown): Fast<null> => (u === null ? u : FAIL);

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
