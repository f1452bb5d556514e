import * as t from 'io-ts';
import { declaredAs, nullable, struct, type SameShape } from '../../lib/codecs/struct';
import { BooleanFromStringOrBoolean, IntFromNumberOrString } from '../../lib/codecs/primitives';
import { assertDecodes, assertFails } from '../helpers/codecs';

const Pair = struct('Pair', { a: t.string, t: IntFromNumberOrString }, { m: BooleanFromStringOrBoolean, note: nullable(t.string) });

describe('struct', () => {
  it('decodes required and optional fields, keeping extra fields', () => {
    assertDecodes(Pair, { a: 'x', t: 5, extra: 1 }, { a: 'x', t: 5, extra: 1 } as never);
    assertDecodes(Pair, { a: 'x', t: '5', m: 'true', note: null }, { a: 'x', t: 5, m: true, note: null });
  });

  it('returns the input itself when nothing is transformed, a shallow copy otherwise', () => {
    const untouched = { a: 'x', t: 5 };
    expect(assertDecodes(Pair, untouched)).toBe(untouched);
    const transformed = { a: 'x', t: '5' };
    const decoded = assertDecodes(Pair, transformed);
    expect(decoded).not.toBe(transformed);
    expect(transformed.t).toBe('5');
  });

  it('skips an absent or undefined optional field, but not a null one', () => {
    assertDecodes(Pair, { a: 'x', t: 1, m: undefined });
    assertFails(Pair, { a: 'x', t: 1, m: null }, [': Pair/m: BooleanFromStringOrBoolean']);
  });

  it('reports every failing field under the struct name, without intersection levels', () => {
    assertFails(Pair, { t: 'soon', note: 3 }, [': Pair/a: string', ': Pair/t: IntFromNumberOrString', ': Pair/note: string | null']);
    for (const u of [null, [], 'x', 1]) assertFails(Pair, u, [': Pair']);
  });

  it('is() agrees with decode on already-decoded values', () => {
    expect(Pair.is({ a: 'x', t: 1, m: false })).toBe(true);
    expect(Pair.is({ a: 'x', t: 1, m: undefined })).toBe(true);
    expect(Pair.is({ a: 'x', t: '1' })).toBe(false);
    expect(Pair.is({ a: 'x', t: 1, note: 2 })).toBe(false);
    expect(Pair.is([])).toBe(false);
  });

  it('encodes each field with its codec and leaves absent optional fields out', () => {
    const Encoded = struct('Encoded', { n: t.string.pipe(new t.Type<string, string, string>('Upper', t.string.is, (s) => t.success(s), (s) => s.toUpperCase())) }, { o: t.number });
    expect(Encoded.encode({ n: 'abc' })).toEqual({ n: 'ABC' });
    expect('o' in Encoded.encode({ n: 'abc' })).toBe(false);
    expect(Encoded.encode({ n: 'abc', o: 2 })).toEqual({ n: 'ABC', o: 2 });
  });
});

describe('nullable', () => {
  it('accepts null or the codec, and fails with one line named `<codec> | null`', () => {
    const Text = nullable(t.string);
    expect(Text.name).toBe('string | null');
    assertDecodes(Text, null, null);
    assertDecodes(Text, 'x', 'x');
    assertFails(Text, 1, [': string | null']);
    expect(Text.is(null) && Text.is('x') && !Text.is(undefined)).toBe(true);
    expect(nullable(IntFromNumberOrString).encode(null)).toBeNull();
  });
});

describe('declaredAs', () => {
  interface Declared {
    readonly a: string;
    readonly t: number;
    readonly m?: boolean;
    readonly note?: string | null;
  }

  it('returns the codec itself, typed as the declared interface', () => {
    const codec = declaredAs<Declared>()(Pair);
    expect(codec).toBe(Pair);
    const decoded: Declared = assertDecodes(codec, { a: 'x', t: 1 });
    expect(decoded.a).toBe('x');
  });

  it('rejects at compile time a declaration that differs from the codec', () => {
    interface Missing {
      readonly a: string;
    }
    // @ts-expect-error: `t`, `m` and `note` are only in the codec
    declaredAs<Missing>()(Pair);
    const same: SameShape<{ a: string }, { a: string }> = true;
    const differs: SameShape<{ a: string }, { a: number }> = { typeDiffers: 'a' };
    expect([same, differs]).toEqual([true, { typeDiffers: 'a' }]);
  });
});
