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
 * @internal
 */
export function taggedUnion<M extends Record<string, t.Mixed>>(
  name: string,
  tag: string,
  members: M,
): t.Type<t.TypeOf<M[keyof M]>, t.OutputOf<M[keyof M]>, unknown> {
  type A = t.TypeOf<M[keyof M]>;
  type O = t.OutputOf<M[keyof M]>;
  const names = Object.keys(members);
  const codecs = names.map((k) => members[k] as t.Mixed);
  const tagCodec = t.keyof(Object.fromEntries(names.map((k) => [k, null])) as Record<string, null>);
  const n = names.length;
  const memberOf = (u: Record<string, unknown>): t.Mixed | undefined => {
    const value = u[tag];
    for (let i = 0; i < n; i++) if (value === names[i]) return codecs[i];
    return undefined;
  };
  const dispatch = (checks: readonly FastCheck[]): FastCheck<A> => (u) => {
    if (!isRecord(u)) return FAIL;
    const value = u[tag];
    for (let i = 0; i < n; i++) if (value === names[i]) return (checks[i] as FastCheck<A>)(u);
    return FAIL;
  };
  const union = new CheckedType<A, O>(
    name,
    (u): u is A => {
      if (!isRecord(u)) return false;
      const codec = memberOf(u);
      return codec !== undefined && codec.is(u);
    },
    dispatch(codecs.map((codec) => fastCheckOf(codec))),
    (u, c) => {
      if (!isRecord(u)) return t.failure(u, c);
      const codec = memberOf(u);
      if (codec === undefined) {
        const value = u[tag];
        return t.failure(value, t.appendContext(c, tag, tagCodec, value));
      }
      return codec.validate(u, t.appendContext(c, u[tag] as string, codec, u));
    },
    (a) => (memberOf(a as Record<string, unknown>) as t.Mixed).encode(a) as O,
    dispatch(codecs.map((codec) => inPlaceCheckOf(codec))),
  );
  declaredMembers.set(union, { tag, members });
  return union;
}

const declaredMembers = new WeakMap<t.Decoder<unknown, unknown>, { readonly tag: string; readonly members: Record<string, t.Mixed> }>();

/**
 * The declaration of a codec built by {@link taggedUnion} (its tag field and members), `undefined` for any
 * other: what property tests walk to generate values of the shape. @internal
 */
export function membersOf(codec: t.Decoder<unknown, unknown>): { readonly tag: string; readonly members: Record<string, t.Mixed> } | undefined {
  return declaredMembers.get(codec);
}
