import * as E from 'fp-ts/Either';
import * as t from 'io-ts';
import { isRecord } from '../internal/guards';
import { AsIs, asIsOf, CheckedType, fastCheckOf, type FastCheck, inPlaceCheckOf, shapeRecordCheck } from './fastCheck';

/**
 * Internal codec combinators shared by the wire codecs: the one declaration of each object shape, from
 * which its io-ts codec and its fast check (`fastCheck.ts`) both come. Data path: the router's envelope
 * check and a topic's record checks run the checks `struct` derives here.
 *
 * @internal
 * @module
 */

/** The codec of key `k` of `props`; `k` comes from `Object.keys(props)`, so it is there. */
const codecAt = (props: t.Props, k: string): t.Mixed => props[k] as t.Mixed;

/**
 * An object codec with required and optional fields in one named type, so that every failure reads as
 * `: Name/field: Codec` (io-ts `t.intersection([t.type, t.partial])` would add `0:`/`1:` levels).
 *
 * - extra fields are kept and ignored, like `t.type`;
 * - an optional field that is absent or `undefined` is skipped; `null` is a value (and fails unless its
 *   codec accepts it, see {@link nullable});
 * - the input object is returned as is when no field is transformed, else a shallow copy.
 *
 * The one declaration of a shape: its fast check is derived from the fields' checks (`fastCheckOf`, in
 * `fastCheck.ts`), and `validate` runs it first; the field-by-field combinator below runs only when it
 * fails, for the exact errors and paths. (Typed as a plain `t.Type`: the codec class is internal.)
 *
 * @internal
 */
export function struct<R extends t.Props, P extends t.Props>(
  name: string,
  required: R,
  optional: P,
): t.Type<t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<P>>, t.OutputOf<t.TypeC<R>> & t.OutputOf<t.PartialC<P>>, unknown> {
  type A = t.TypeOf<t.TypeC<R>> & t.TypeOf<t.PartialC<P>>;
  type O = t.OutputOf<t.TypeC<R>> & t.OutputOf<t.PartialC<P>>;
  const requiredKeys = Object.keys(required);
  const optionalKeys = Object.keys(optional);
  const keys = [...requiredKeys, ...optionalKeys];
  const codecs = [...requiredKeys.map((k) => codecAt(required, k)), ...optionalKeys.map((k) => codecAt(optional, k))];
  const fieldChecks = codecs.map((codec) => fastCheckOf(codec));
  const fieldAsIs = codecs.map((codec) => asIsOf(codec));
  const isOptional = keys.map((_, i) => i >= requiredKeys.length);
  // Every field passed its check, each derived from the field's codec: the one cast of this combinator.
  const check = shapeRecordCheck(keys, fieldChecks, fieldAsIs, isOptional, false) as FastCheck<A>;
  // In place, the last field that is an object with a check of its own in place (the envelope's `params`) is
  // checked in place too (no copy of it), and checked last: its own writes come after every other field passed,
  // so nothing is written before the whole value passed.
  const nested = codecs.map((codec) => inPlaceCheckOf(codec));
  const last = nested.map((c, i) => c !== fieldChecks[i]).lastIndexOf(true);
  const order = last < 0 ? keys.map((_, i) => i) : [...keys.map((_, i) => i).filter((i) => i !== last), last];
  const checkInPlace = shapeRecordCheck(
    order.map((i) => keys[i] as string),
    order.map((i) => (i === last ? nested[i] : fieldChecks[i]) as FastCheck),
    order.map((i) => fieldAsIs[i] as AsIs),
    order.map((i) => isOptional[i] as boolean),
    true,
  ) as FastCheck<A>;
  const codec = new CheckedType<A, O>(
    name,
    (u): u is A =>
      isRecord(u) &&
      requiredKeys.every((k) => codecAt(required, k).is(u[k])) &&
      optionalKeys.every((k) => u[k] === undefined || codecAt(optional, k).is(u[k])),
    check,
    (u, c) => {
      if (!isRecord(u)) return t.failure(u, c);
      let out = u;
      let errors: t.ValidationError[] | undefined;
      const check = (k: string, codec: t.Mixed): void => {
        const ak = u[k];
        const r = codec.validate(ak, t.appendContext(c, k, codec, ak));
        if (E.isLeft(r)) {
          errors = errors === undefined ? [...r.left] : errors.concat(r.left);
        } else if (r.right !== ak) {
          if (out === u) out = { ...u };
          out[k] = r.right;
        }
      };
      for (const k of requiredKeys) check(k, codecAt(required, k));
      for (const k of optionalKeys) if (u[k] !== undefined) check(k, codecAt(optional, k));
      return errors === undefined ? t.success(out as A) : t.failures(errors);
    },
    (a) => {
      const o: Record<string, unknown> = { ...a };
      for (const k of requiredKeys) o[k] = codecAt(required, k).encode((a as Record<string, unknown>)[k]);
      for (const k of optionalKeys) {
        const v = (a as Record<string, unknown>)[k];
        if (v !== undefined) o[k] = codecAt(optional, k).encode(v);
      }
      return o as O;
    },
    checkInPlace,
  );
  declaredFields.set(codec, { required, optional });
  return codec;
}

const declaredFields = new WeakMap<t.Decoder<unknown, unknown>, { readonly required: t.Props; readonly optional: t.Props }>();

/**
 * The declaration of a codec built by {@link struct} (its required and optional fields), `undefined` for
 * any other: what property tests walk to generate values of the shape. @internal
 */
export function fieldsOf(codec: t.Decoder<unknown, unknown>): { readonly required: t.Props; readonly optional: t.Props } | undefined {
  return declaredFields.get(codec);
}

/**
 * `codec` or `null`, failing with a single path line named `<codec> | null` (a `t.union` would report one
 * line per member). Its fast check is `codec`'s, `null` let through.
 *
 * @internal
 */
export function nullable<C extends t.Mixed>(codec: C): t.Type<t.TypeOf<C> | null, t.OutputOf<C> | null, unknown> {
  const check = fastCheckOf<t.TypeOf<C>>(codec);
  return new CheckedType<t.TypeOf<C> | null, t.OutputOf<C> | null>(
    `${codec.name} | null`,
    (u): u is t.TypeOf<C> | null => u === null || codec.is(u),
    (u) => (u === null ? null : check(u)),
    (u, c) => (u === null ? t.success(null) : codec.validate(u, c)),
    (a) => (a === null ? null : codec.encode(a)),
    undefined,
    AsIs.none,
    codec,
  );
}

type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type OptionalKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T];
type Differences<D, C> = {
  onlyInDeclared: Exclude<keyof D, keyof C>;
  onlyInCodec: Exclude<keyof C, keyof D>;
  optionalInOneOnly: Exclude<OptionalKeys<D>, OptionalKeys<C>> | Exclude<OptionalKeys<C>, OptionalKeys<D> | Exclude<keyof C, keyof D>>;
  typeDiffers: { [K in keyof D & keyof C]-?: Mutual<Required<D>[K], Required<C>[K]> extends true ? never : K }[keyof D & keyof C];
};
type Present<T> = { [K in keyof T as [T[K]] extends [never] ? never : K]: T[K] };
type Expand<T> = T extends infer O ? { [K in keyof O]: O[K] } : never;

/**
 * `true` when the declared record type `D` and the decoded (or encoded) type `C` of its codec have the same
 * keys, the same optional keys and mutually assignable field types; otherwise the keys that differ, by kind
 * (`readonly` is not compared).
 *
 * @internal
 */
export type SameShape<D, C> = keyof Present<Differences<D, C>> extends never ? true : Expand<Present<Differences<D, C>>>;

/**
 * Types `codec` as decoding to (and encoding) the hand-written interface `A`, after the compiler proves that
 * `A` has exactly the shape the codec decodes: a field added to one and not the other, a field optional in
 * one only, or a field of another type fails `tsc` with
 * `… & { readonly declaredTypeDiffers: { onlyInDeclared: "x"; … } }`. One shape, two views: the codec
 * stays the source of truth, the interface carries the names and the per-field docs users read. Returns
 * `codec` itself. Use: `export const PairCodec = declaredAs<Pair>()(struct('Pair', { a: t.string }, {}));`
 * (then `t.TypeOf<typeof PairCodec>` is `Pair`).
 *
 * @internal
 */
export function declaredAs<A>() {
  return <C extends t.Mixed>(
    codec: C & (SameShape<A, t.TypeOf<C>> extends true
      ? SameShape<A, t.OutputOf<C>> extends true
        ? unknown
        : { readonly declaredTypeDiffersFromEncoded: SameShape<A, t.OutputOf<C>> }
      : { readonly declaredTypeDiffers: SameShape<A, t.TypeOf<C>> }),
  ): t.Type<A, A, unknown> => codec as t.Type<A, A, unknown>;
}
