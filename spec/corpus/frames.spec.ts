import * as E from 'fp-ts/Either';
import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { DecodeError } from '../../lib/errors';
import { parseJson } from '../../lib/frame/json';
import { decodeFrame } from '../../lib/frame/decodeFrame';

const RUNS = { numRuns: 300 };

/** The invariant of the frame layer: never a throw; a `DecodeError` value or a JSON value. */
function decodes(data: unknown, limits?: Parameters<typeof decodeFrame>[1]): E.Either<DecodeError, unknown> {
  let result: E.Either<DecodeError, unknown> | undefined;
  expect(() => (result = decodeFrame(data, limits))).not.toThrow();
  if (E.isLeft(result!)) expect(result!.left).toBeInstanceOf(DecodeError);
  return result!;
}

const zip = (bytes: Uint8Array): Uint8Array => zipSync({ 'data.json': [bytes, { level: 6 }] });
const noLongIntegers = (text: string): boolean => !/\d{16}/.test(text);

describe('decodeFrame (bad-input corpus)', () => {
  it('random text: a DecodeError of kind json, or exactly what JSON.parse gives', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })), (text) => {
        const r = decodes(text);
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          expect(E.isLeft(r) && r.left.kind).toBe('json');
          return;
        }
        if (noLongIntegers(text)) expect(r).toEqual(E.right(expected));
      }),
      RUNS,
    );
  });

  it('random JSON (text and zipped): the same value back', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        fc.pre(noLongIntegers(text));
        const expected = JSON.parse(text) as unknown;
        expect(decodes(text)).toEqual(E.right(expected));
        expect(decodes(zip(strToU8(text)))).toEqual(E.right(expected));
      }),
      { numRuns: 150 },
    );
  });

  it('truncated JSON and truncated zips: a DecodeError, never a throw', () => {
    const text = JSON.stringify({ symbol: 'BTCUSDT', topic: 'trade', data: [{ v: '1', t: 1, p: '1', q: '1', m: true }], f: true });
    const zipped = zip(strToU8(text));
    fc.assert(
      fc.property(fc.nat(text.length - 1), fc.nat(zipped.length - 1), (cutText, cutZip) => {
        expect(E.isLeft(decodes(text.slice(0, cutText)))).toBe(true);
        expect(E.isLeft(decodes(zipped.slice(0, cutZip)))).toBe(true);
      }),
      RUNS,
    );
  });

  it('corrupted zips (random bytes overwritten): a DecodeError or a JSON value, never a throw', () => {
    const zipped = zip(strToU8(JSON.stringify({ data: Array.from({ length: 50 }, (_, i) => ({ i, p: `${i}.5` })) })));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(zipped.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), (edits) => {
        const bad = zipped.slice();
        for (const [at, byte] of edits) bad[at] = byte;
        decodes(bad);
      }),
      RUNS,
    );
  });

  it('random bytes and non-frame values: a DecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        expect(E.isLeft(decodes(bytes))).toBe(true);
        expect(E.isLeft(decodes(bytes.buffer))).toBe(true);
        expect(E.isLeft(decodes(new DataView(bytes.buffer)))).toBe(true);
      }),
      RUNS,
    );
    for (const v of [undefined, null, 42, {}, [], { byteLength: 10 }, new Map(), Symbol('x'), () => 1]) {
      expect(decodes(v)).toEqual(E.left(expect.objectContaining({ kind: 'zip' })));
    }
  });

  it('a zip bomb ends as inflated-too-large, before inflating', () => {
    const bomb = zip(new Uint8Array(17 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100_000);
    expect(decodes(bomb)).toEqual(E.left(expect.objectContaining({ kind: 'inflated-too-large' })));
    expect(decodes(zip(new Uint8Array(2048)), { maxInflatedBytes: 1024 })).toEqual(E.left(expect.objectContaining({ kind: 'inflated-too-large' })));
  });

  it('a zip that lies about its size (declares 10 bytes, inflates to 1 MiB): a DecodeError, no more than declared is produced', () => {
    const bytes = zip(new Uint8Array(1024 * 1024).fill(0x20));
    const view = new DataView(bytes.buffer);
    const eocd = bytes.length - 22;
    const central = view.getUint32(eocd + 16, true);
    view.setUint32(central + 24, 10, true); // central directory: uncompressed size
    view.setUint32(18 + 4, 10, true); // local header: uncompressed size
    const r = decodes(bytes);
    expect(E.isLeft(r)).toBe(true);
  });

  it('invalid UTF-8 inside a zip: a DecodeError of kind utf8', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (prefix) => {
        const bytes = Uint8Array.from([...prefix, 0xff, 0xfe, 0xc3]);
        expect(decodes(zip(bytes))).toEqual(E.left(expect.objectContaining({ kind: 'utf8' })));
      }),
      { numRuns: 100 },
    );
  });

  it('oversized frames are refused unparsed, text and binary', () => {
    expect(decodes('"' + 'x'.repeat(5 * 1024 * 1024) + '"')).toEqual(E.left(expect.objectContaining({ kind: 'frame-too-large' })));
    expect(decodes(new Uint8Array(4 * 1024 * 1024 + 1))).toEqual(E.left(expect.objectContaining({ kind: 'frame-too-large' })));
    expect(decodes('[1,2,3]', { maxFrameBytes: 4 })).toEqual(E.left(expect.objectContaining({ kind: 'frame-too-large' })));
  });

  it('very long strings, deep nesting, huge and negative numbers: values, not crashes', () => {
    expect(decodes(JSON.stringify({ s: 'y'.repeat(1_000_000) }))).toEqual(E.right({ s: 'y'.repeat(1_000_000) }));
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(E.isRight(decodes(deep))).toBe(true);
    expect(E.isLeft(decodes('['.repeat(100_000)))).toBe(true);
    expect(E.isLeft(decodes('{"a":'.repeat(50_000)))).toBe(true);
    expect(decodes('{"a":1e400,"b":-1e400,"c":-0,"d":123456789012345678901234567890}')).toEqual(
      E.right({ a: Infinity, b: -Infinity, c: -0, d: '123456789012345678901234567890' }),
    );
  });
});

describe('parseJson (bad-input corpus)', () => {
  it('never throws, never leaks a secret through its error, keeps 16+ digit integers exact', () => {
    fc.assert(
      fc.property(fc.string(), fc.bigInt({ min: 10n ** 15n, max: 10n ** 25n }), (junk, id) => {
        const secret = 'S3CRET-KEY-abcdefgh';
        const r = parseJson(`{"signature":"${secret}",${junk}`, [secret]);
        if (E.isLeft(r)) {
          expect(r.left).toBeInstanceOf(DecodeError);
          expect(`${r.left.message} ${r.left.raw ?? ''} ${String(r.left)}`).not.toContain(secret);
        }
        expect(parseJson(`{"i":${id},"n":[${id},-${id}]}`)).toEqual(E.right({ i: `${id}`, n: [`${id}`, `-${id}`] }));
      }),
      RUNS,
    );
  });
});
