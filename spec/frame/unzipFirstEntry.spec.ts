import * as E from 'fp-ts/Either';
import { strFromU8, strToU8, Zip, ZipPassThrough } from 'fflate';
import { crc32 } from 'node:zlib';
import { unzipFirstEntry } from '../../lib/frame/unzipFirstEntry';
import type { DecodeError } from '../../lib/errors';
import { withDeclaredSize, zipBomb, zipBytes, zipText, zipTextStreamed } from '../helpers/zipFrames';

const MAX = 16 * 1024 * 1024;
const TEXT = '{"topic":"depth","data":[{"a":"1.5"}]}';

// Offsets of the zip records unzipFirstEntry reads (one entry, as fflate writes it).
const eocdOf = (zip: Uint8Array): number => zip.length - 22;
const view = (zip: Uint8Array): DataView => new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
const centralOf = (zip: Uint8Array): number => view(zip).getUint32(eocdOf(zip) + 16, true);

/** A copy of `zip` with one little-endian field changed. */
function patched(zip: Uint8Array, offset: (z: Uint8Array) => number, value: number, bytes: 2 | 4 = 4): Uint8Array {
  const copy = zip.slice();
  const at = offset(copy);
  if (bytes === 2) view(copy).setUint16(at, value, true);
  else view(copy).setUint32(at, value, true);
  return copy;
}

/** Deterministic bytes that deflate cannot shrink (a linear congruential sequence). */
function noise(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = 12345;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A stored zip written in streaming mode: local CRC and sizes 0 (flag bit 3), real ones in a data descriptor and the central directory. */
function storedStreamed(content: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    chunks.push(chunk);
  });
  const entry = new ZipPassThrough('data.json');
  zip.add(entry);
  entry.push(strToU8(content), true);
  zip.end();
  return Uint8Array.from(Buffer.concat(chunks));
}

/** A copy of `zip` whose entry data has the first `from` replaced with `to` (same length): the text still parses. */
function alteredData(zip: Uint8Array, from: string, to: string): Uint8Array {
  const copy = zip.slice();
  const at = Buffer.from(copy).indexOf(from, 0, 'latin1');
  if (at < 0 || from.length !== to.length) throw new Error(`${from} not found`);
  copy.set(strToU8(to), at);
  return copy;
}

const text = (result: E.Either<DecodeError, Uint8Array>): string => {
  if (E.isLeft(result)) throw new Error(`expected an entry, got ${result.left.message}`);
  return strFromU8(result.right);
};

const failure = (result: E.Either<DecodeError, Uint8Array>): { kind: string; message: string } => {
  if (E.isRight(result)) throw new Error('expected a DecodeError');
  return { kind: result.left.kind, message: result.left.message };
};

describe('unzipFirstEntry', () => {
  describe('reads the first entry', () => {
    it('of a deflated zip', () => {
      expect(text(unzipFirstEntry(zipText(TEXT), MAX))).toBe(TEXT);
    });

    it('of a stored zip, without copying the input', () => {
      const zip = zipText(TEXT, 0);
      const result = unzipFirstEntry(zip, MAX);
      expect(text(result)).toBe(TEXT);
      expect(E.isRight(result) && result.right.buffer).toBe(zip.buffer);
    });

    it('of a zip written in streaming mode (sizes only in the central directory)', () => {
      expect(text(unzipFirstEntry(zipTextStreamed(TEXT), MAX))).toBe(TEXT);
    });

    it('of a zip with an archive comment after the end record', () => {
      const zip = zipText(TEXT);
      const comment = strToU8('a comment that holds PK bytes: PK\u0005\u0006');
      const withComment = new Uint8Array(zip.length + comment.length);
      withComment.set(zip);
      withComment.set(comment, zip.length);
      view(withComment).setUint16(eocdOf(zip) + 20, comment.length, true);
      expect(text(unzipFirstEntry(withComment, MAX))).toBe(TEXT);
    });

    it('of an entry of more than 8 KiB of deflate data (inflated in steps)', () => {
      const bytes = noise(40_000);
      const result = unzipFirstEntry(zipBytes(bytes), MAX);
      expect(E.isRight(result) && Buffer.from(result.right).equals(Buffer.from(bytes))).toBe(true);
    });

    it('of an entry exactly maxInflatedBytes long', () => {
      expect(text(unzipFirstEntry(zipText(TEXT), TEXT.length))).toBe(TEXT);
    });

    it('through an injected inflater, given the deflate data and the declared size', () => {
      const calls: Array<[number, number]> = [];
      const result = unzipFirstEntry(zipText(TEXT), MAX, (deflated, size) => {
        calls.push([deflated.length, size]);
        return strToU8(TEXT);
      });
      expect(text(result)).toBe(TEXT);
      expect(calls).toHaveLength(1);
      expect(calls[0]![1]).toBe(TEXT.length);
    });
  });

  describe('rejects as a zip error', () => {
    it.each<[string, () => Uint8Array, RegExp]>([
      ['bytes with no end record', () => strToU8('not a zip at all, just text'), /no end-of-central-directory record/],
      ['an empty input', () => new Uint8Array(0), /no end-of-central-directory record/],
      ['an archive with no entry', () => patched(zipText(TEXT), (z) => eocdOf(z) + 10, 0, 2), /has no entry/],
      ['a central directory offset out of range', () => patched(zipText(TEXT), (z) => eocdOf(z) + 16, 0x7fffffff), /bad central directory/],
      ['a central directory without its signature', () => patched(zipText(TEXT), (z) => eocdOf(z) + 16, 0), /bad central directory/],
      ['a zip64 entry', () => patched(zipText(TEXT), (z) => centralOf(z) + 24, 0xffffffff), /zip64/],
      ['a local header without its signature', () => patched(zipText(TEXT), () => 0, 0x12345678), /bad local header/],
      ['truncated entry data', () => patched(zipText(TEXT), (z) => centralOf(z) + 20, 1_000_000), /truncated/],
      ['a stored entry whose sizes differ', () => patched(zipText(TEXT, 0), (z) => centralOf(z) + 24, TEXT.length - 1), /stored entry size mismatch/],
      ['an unsupported compression method', () => patched(zipText(TEXT), (z) => centralOf(z) + 10, 12, 2), /compression method 12/],
      ['an entry that inflates to fewer bytes than declared', () => withDeclaredSize(zipText(TEXT), TEXT.length + 10), /fewer bytes/],
    ])('%s', (_, zip, message) => {
      const error = failure(unzipFirstEntry(zip(), MAX));
      expect(error.kind).toBe('zip');
      expect(error.message).toMatch(message);
    });

    describe('an entry whose bytes lack the declared CRC-32 (the text would still parse)', () => {
      const crcError = { kind: 'zip', message: expect.stringMatching(/CRC-32 mismatch/) };

      it.each<[string, () => Uint8Array]>([
        ['a deflated entry, CRC changed in the central directory', () => patched(zipText(TEXT), (z) => centralOf(z) + 16, crc32(strToU8(TEXT)) ^ 1)],
        ['a stored entry whose data changed', () => alteredData(zipText(TEXT, 0), '1.5', '1.6')],
        ['a stored entry in streaming mode (data descriptor) whose data changed', () => alteredData(storedStreamed(TEXT), '1.5', '1.6')],
        ['a deflated entry in streaming mode, CRC changed in the central directory', () => patched(zipTextStreamed(TEXT), (z) => centralOf(z) + 16, 0)],
      ])('%s', (_, zip) => {
        expect(failure(unzipFirstEntry(zip(), MAX))).toEqual(crcError);
      });

      it('an inflater that returns other bytes of the declared size', () => {
        const other = strToU8(TEXT.replace('1.5', '1.6'));
        expect(failure(unzipFirstEntry(zipText(TEXT), MAX, () => other))).toEqual(crcError);
      });

      it('the message gives both values, in hex', () => {
        const declared = (crc32(strToU8(TEXT)) ^ 0x80000000) >>> 0;
        const error = failure(unzipFirstEntry(patched(zipText(TEXT), (z) => centralOf(z) + 16, declared), MAX));
        expect(error.message).toBe(
          `binary frame is not a usable zip file: entry CRC-32 mismatch (declared ${declared.toString(16)}, data ${crc32(strToU8(TEXT)).toString(16).padStart(8, '0')})`,
        );
      });

      it('a streamed zip is checked against the central directory, not the local header (0 there)', () => {
        expect(text(unzipFirstEntry(storedStreamed(TEXT), MAX))).toBe(TEXT);
        const zip = storedStreamed(TEXT);
        expect(view(zip).getUint32(14, true)).toBe(0); // the local header's CRC
      });
    });

    it('corrupt deflate data', () => {
      const zip = zipText(TEXT);
      const local = 0;
      const start = local + 30 + view(zip).getUint16(local + 26, true) + view(zip).getUint16(local + 28, true);
      const corrupt = zip.slice();
      corrupt[start] = 0xff; // block type 3: invalid
      expect(failure(unzipFirstEntry(corrupt, MAX))).toEqual({ kind: 'zip', message: expect.stringMatching(/corrupt deflate data/) });
    });

    it('an injected inflater that throws anything but a RangeError', () => {
      const error = failure(
        unzipFirstEntry(zipText(TEXT), MAX, () => {
          throw new Error('broken');
        }),
      );
      expect(error).toEqual({ kind: 'zip', message: expect.stringMatching(/corrupt deflate data/) });
    });
  });

  describe('rejects as inflated-too-large', () => {
    it('an entry declaring more than maxInflatedBytes, before inflating', () => {
      let inflated = false;
      const error = failure(
        unzipFirstEntry(zipText(TEXT), TEXT.length - 1, (d) => {
          inflated = true;
          return d;
        }),
      );
      expect(error).toEqual({ kind: 'inflated-too-large', message: expect.stringMatching(/declares \d+ bytes, more than maxInflatedBytes/) });
      expect(inflated).toBe(false);
    });

    it('a zip bomb declaring its true size', () => {
      expect(failure(unzipFirstEntry(zipBomb(2), 1024 * 1024)).kind).toBe('inflated-too-large');
    });

    it.each([
      ['a small entry (one call)', zipText(TEXT), TEXT.length - 10],
      ['a large entry (in steps)', zipBytes(noise(40_000)), 30_000],
      ['a bomb declaring 1 KiB', zipBomb(1), 1024],
    ])('%s that inflates beyond what it declares', (_, zip, declared) => {
      const error = failure(unzipFirstEntry(withDeclaredSize(zip, declared), MAX));
      expect(error).toEqual({ kind: 'inflated-too-large', message: expect.stringMatching(new RegExp(`beyond its declared ${declared} bytes`)) });
    });

    it('an injected inflater that throws a RangeError, of this realm or another', () => {
      const ours = failure(
        unzipFirstEntry(zipText(TEXT), MAX, () => {
          throw new RangeError('out of room');
        }),
      );
      const foreign = failure(
        unzipFirstEntry(zipText(TEXT), MAX, () => {
          throw Object.assign(Object.create(null) as object, { name: 'RangeError' });
        }),
      );
      expect([ours.kind, foreign.kind]).toEqual(['inflated-too-large', 'inflated-too-large']);
    });

    it('an injected inflater that returns more than the declared size', () => {
      expect(failure(unzipFirstEntry(zipText(TEXT), MAX, (_, size) => new Uint8Array(size + 1))).kind).toBe('inflated-too-large');
    });
  });
});
