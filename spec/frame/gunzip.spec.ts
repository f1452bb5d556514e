import { gzipSync as zlibGzip } from 'node:zlib';
import fc from 'fast-check';
import * as E from 'fp-ts/Either';
import { gzipSync, strToU8 } from 'fflate';
import { decodeFrame } from '../../lib/frame/decodeFrame';
import { gunzip, isGzip } from '../../lib/frame/gunzip';
import { inflateRaw } from '../../lib/zip/inflateRaw';
import { nodeInflateRaw } from '../../lib/node/nodeInflateRaw';
import { gzipFrame } from '../../lib/testing/gzipFrame';
import { zipFrame } from '../../lib/testing/zipFrame';

const DEPTH = { symbol: 'BTCUSDT', topic: 'depth', data: [{ e: 301, s: 'BTCUSDT', t: 1, v: '1', o: 0, a: [['30000.1', '1.1607']], b: [['2000.12', '2']] }] };
const text = JSON.stringify(DEPTH);
const kind = (r: E.Either<{ kind: string; message: string }, unknown>): string => (E.isLeft(r) ? `${r.left.kind}: ${r.left.message}` : 'ok');

/** A gzip member with the optional header fields RFC 1952 allows (extra, name, comment, header CRC). */
function withHeaderFields(body: Uint8Array): Uint8Array {
  const plain = zlibGzip(Buffer.from(body));
  const extra = [4, 0, 0x41, 0x42, 2, 0]; // XLEN 4, one subfield
  const name = [...Buffer.from('data.json'), 0];
  const comment = [...Buffer.from('a comment'), 0];
  const header = [0x1f, 0x8b, 8, 0x04 | 0x08 | 0x10 | 0x02, 0, 0, 0, 0, 0, 3, ...extra, ...name, ...comment, 0x12, 0x34];
  return Uint8Array.from([...header, ...plain.subarray(10)]);
}

describe('gunzip (binary frames in gzip form)', () => {
  it('reads what fflate, node:zlib and the testing kit write, and one with every optional header field', () => {
    for (const bytes of [gzipSync(strToU8(text)), new Uint8Array(zlibGzip(text)), gzipFrame(DEPTH), withHeaderFields(strToU8(text))]) {
      expect(isGzip(bytes)).toBe(true);
      expect(decodeFrame(bytes)).toEqual(E.right(DEPTH));
      expect(decodeFrame(bytes, { inflateRaw: nodeInflateRaw })).toEqual(E.right(DEPTH));
    }
  });

  it('decodeFrame tells the containers by their magic bytes: zip still reads as before', () => {
    expect(isGzip(zipFrame(DEPTH))).toBe(false);
    expect(decodeFrame(zipFrame(DEPTH))).toEqual(E.right(DEPTH));
  });

  it('refuses a member whose trailer size is above maxInflatedBytes before inflating, and one that inflates past it', () => {
    const big = gzipSync(new Uint8Array(1 << 20).fill(0x20));
    expect(kind(gunzip(big, 1000, inflateRaw))).toMatch(/^inflated-too-large: gzip member declares 1048576 bytes/);
    // A trailer that lies (says 10 bytes): the inflater stops past 11, never makes the whole megabyte.
    const lying = Uint8Array.from(big);
    lying.set([10, 0, 0, 0], lying.length - 4);
    expect(kind(gunzip(lying, 1 << 24, inflateRaw))).toMatch(/^inflated-too-large: gzip member inflates beyond its declared 10 bytes/);
  });

  it('refuses truncated, reserved-flag, other-method and CRC-damaged members with a typed error, never a throw', () => {
    const good = gzipFrame(DEPTH);
    expect(kind(gunzip(good.subarray(0, 12), 1 << 24, inflateRaw))).toMatch(/^zip: binary frame is not a usable gzip stream/);
    const reserved = Uint8Array.from(good);
    reserved[3] = 0x20;
    expect(kind(gunzip(reserved, 1 << 24, inflateRaw))).toMatch(/reserved header flags/);
    const method = Uint8Array.from(good);
    method[2] = 7;
    expect(kind(gunzip(method, 1 << 24, inflateRaw))).toMatch(/compression method 7/);
    const crc = Uint8Array.from(good);
    crc[crc.length - 8]! ^= 0xff;
    expect(kind(gunzip(crc, 1 << 24, inflateRaw))).toMatch(/CRC-32 mismatch/);
    expect(kind(gunzip(good, 1 << 24, undefined))).toBe('ok'); // the default inflater (fflate) on Node
  });

  it('a flipped bit anywhere is refused or, if the bytes still inflate, never delivers altered text as valid', () => {
    const good = gzipFrame(DEPTH);
    fc.assert(
      fc.property(fc.nat(good.length * 8 - 1), (bit) => {
        const bad = Uint8Array.from(good);
        bad[bit >> 3]! ^= 1 << (bit & 7);
        const result = decodeFrame(bad);
        // Bits of the header's mtime / xfl / os bytes change nothing of the text: the same message is right.
        if (E.isRight(result)) expect(result.right).toEqual(DEPTH);
      }),
      { numRuns: 2000 },
    );
  });
});
