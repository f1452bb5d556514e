import * as t from 'io-ts';
import { isRecord } from '../internal/guards';
import { CheckedType, fastCheckOf, FAIL, type FastCheck, inPlaceCheckOf } from './fastCheck';

/**
 * A union of object codecs told apart by the value of one field (`e` of the private events). Data path: the
 * user stream's frame sink checks each event of a frame with its (in-place) fast check.
 *
 * @internal
 * @module
 */

/**
 * The union of `members`, dispatched on `u[tag]`: the member named by the tag's value decodes the value,
 * alone, so a failure names exactly the bad field (`: Name/<tag value>: Member/field: Codec`). A missing
 * or unknown tag fails at `: Name/<tag>: "a" | "b"` with the offending value (the `t.keyof` of the member
 * names, in declaration order); a non-object fails at `: Name`. Its fast check (and in-place check) is the
 * selected member's, found by comparing the tag with each member name.
 *
 * With `other`, a value whose tag is text naming no member is `other`'s to decode (an event of a type the union
 * does not model), and a tag that is missing or not text fails at `: Name/<tag>: "a" | "b" | string`. A decoded
 * value of `other` is told apart by its own tag value `otherTag` (`is`, `encode`).
 *
 * @internal
 */
export function taggedUnion<M extends Record<string, t.Mixed>, X extends t.Mixed = never>(
  name: string,
  tag: string,
  members: M,
  other?: { readonly codec: X; readonly otherTag: string },
): t.Type<t.TypeOf<M[keyof M]> | t.TypeOf<X>, t.OutputOf<M[keyof M]> | t.OutputOf<X>, unknown> {
  type A = t.TypeOf<M[keyof M]> | t.TypeOf<X>;
  type O = t.OutputOf<M[keyof M]> | t.OutputOf<X>;
  const names = Object.keys(members);
  const codecs = names.map((k) => members[k] as t.Mixed);
  const keys = t.keyof(Object.fromEntries(names.map((k) => [k, null])) as Record<string, null>);
  const tagCodec: t.Mixed = other === undefined ? keys : t.union([keys, t.string], `${keys.name} | string`);
  const n = names.length;
  const otherCodec = other?.codec as t.Mixed | undefined;
  /** The member whose name is the tag's value; else `other` when the value is text; else `undefined`. */
  const memberOf = (u: Record<string, unknown>): t.Mixed | undefined => {
    const value = u[tag];
    for (let i = 0; i < n; i++) if (value === names[i]) return codecs[i];
    return typeof value === 'string' ? otherCodec : undefined;
  };
  /** The codec of a decoded value: a member's, or `other`'s (its own tag value). */
  const decodedBy = (a: Record<string, unknown>): t.Mixed | undefined =>
    other !== undefined && a[tag] === other.otherTag ? otherCodec : memberOf(a);
  const dispatch = (checks: readonly FastCheck[], otherCheck: FastCheck | undefined): FastCheck<A> => (u) => {
    if (!isRecord(u)) return FAIL;
    const value = u[tag];
    for (let i = 0; i < n; i++) if (value === names[i]) return (checks[i] as FastCheck<A>)(u);
    return otherCheck !== undefined && typeof value === 'string' ? (otherCheck(u) as A | typeof FAIL) : FAIL;
  };
  const union = new CheckedType<A, O>(
    name,
    (u): u is A => {
      if (!isRecord(u)) return false;
      const codec = decodedBy(u);
      return codec !== undefined && codec.is(u);
    },
    dispatch(
      codecs.map((codec) => fastCheckOf(codec)),
      otherCodec && fastCheckOf(otherCodec),
    ),
    (u, c) => {
      if (!isRecord(u)) return t.failure(u, c);
      const codec = memberOf(u);
      if (codec === undefined) {
        const value = u[tag];
        return t.failure(value, t.appendContext(c, tag, tagCodec, value));
      }
      // `other` decodes the value as it is (no member named by its tag): no level of its own in the path.
      return codec === otherCodec ? codec.validate(u, c) : codec.validate(u, t.appendContext(c, u[tag] as string, codec, u));
    },
    (a) => (decodedBy(a as Record<string, unknown>) as t.Mixed).encode(a) as O,
    dispatch(
      codecs.map((codec) => inPlaceCheckOf(codec)),
      otherCodec && inPlaceCheckOf(otherCodec),
    ),
  );
  declaredMembers.set(union, otherCodec === undefined ? { tag, members } : { tag, members, other: otherCodec });
  return union;
}

/** The declaration of a {@link taggedUnion}: its tag field, its members, and its codec of other tags, if any. @internal */
export interface TaggedUnionDeclaration {
  /** The field whose value names the member. */
  readonly tag: string;
  /** The members, by the tag value that selects each. */
  readonly members: Record<string, t.Mixed>;
  /** The codec of a value whose tag names no member, when the union has one. */
  readonly other?: t.Mixed;
}

const declaredMembers = new WeakMap<t.Decoder<unknown, unknown>, TaggedUnionDeclaration>();

/**
 * The declaration of a codec built by {@link taggedUnion} (its tag field, members, and codec of other tags),
 * `undefined` for any other: what property tests walk to generate values of the shape. @internal
 */
export function membersOf(codec: t.Decoder<unknown, unknown>): TaggedUnionDeclaration | undefined {
  return declaredMembers.get(codec);
}
