import * as E from 'fp-ts/Either';
import { DecodeError } from '../../lib/errors';
import { strToU8, type Zippable, zipSync } from 'fflate';
import { decodeFrame } from '../../lib/frame/decodeFrame';
import { withDeclaredSize, zipBomb, zipBytes, zipText, zipTextStreamed } from '../helpers/zipFrames';

function kindOf(r: E.Either<DecodeError, unknown>): string {
  if (E.isRight(r)) throw new Error(`expected a DecodeError, got ${JSON.stringify(r.right)}`);
  expect(r.left).toBeInstanceOf(DecodeError);
  return r.left.kind;
}

describe('decodeFrame', () => {
  const depth = { symbol: 'BTCUSDT', topic: 'depth', data: [{ a: [['1.5', '2']], b: [], t: 1 }] };

  it('parses a text frame as JSON', () => {
    expect(decodeFrame('{"pong":1700000000000}')).toEqual(E.right({ pong: 1700000000000 }));
  });

  it('decodes a zip frame given as an ArrayBuffer', () => {
    const zip = zipText(JSON.stringify(depth));
    const buffer = zip.buffer.slice(zip.byteOffset, zip.byteOffset + zip.byteLength);
    expect(decodeFrame(buffer)).toEqual(E.right(depth));
  });

  it('decodes a zip frame given as a view with an offset (a Node Buffer from a pool)', () => {
    const zip = zipText(JSON.stringify(depth));
    const pool = new Uint8Array(zip.length + 7);
    pool.set(zip, 5);
    expect(decodeFrame(pool.subarray(5, 5 + zip.length))).toEqual(E.right(depth));
    expect(decodeFrame(Buffer.from(zip))).toEqual(E.right(depth));
  });

  it('decodes stored entries and entries whose sizes are only in the central directory', () => {
    expect(decodeFrame(zipText('[1,2]', 0))).toEqual(E.right([1, 2]));
    expect(decodeFrame(zipTextStreamed('{"streamed":true}'))).toEqual(E.right({ streamed: true }));
  });

  it('rejects text that is not JSON with kind json', () => {
    expect(kindOf(decodeFrame('{"pong":'))).toBe('json');
    expect(kindOf(decodeFrame(zipText('not json')))).toBe('json');
  });

  it('rejects a frame above maxFrameBytes without parsing it', () => {
    expect(kindOf(decodeFrame('[1,2,3]', { maxFrameBytes: 5 }))).toBe('frame-too-large');
    expect(kindOf(decodeFrame(zipText('[1]'), { maxFrameBytes: 16 }))).toBe('frame-too-large');
  });

  it('rejects a zip bomb by its declared size before inflating', () => {
    const bomb = zipBomb(17);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const r = decodeFrame(bomb);
    expect(kindOf(r)).toBe('inflated-too-large');
    expect(E.isLeft(r) && r.left.message).toMatch(/declares 17825792 bytes/);
  });

  it('bounds the inflate when the header lies about the size', () => {
    expect(kindOf(decodeFrame(withDeclaredSize(zipBomb(8), 1000)))).toBe('inflated-too-large');
    expect(kindOf(decodeFrame(withDeclaredSize(zipBytes(new Uint8Array(5000), 0), 10)))).toBe('zip');
    const stored = withDeclaredSize(zipBytes(new Uint8Array(5000)), 10);
    expect(kindOf(decodeFrame(stored))).toBe('inflated-too-large');
  });

  it('inflates entries of more than 8 KiB of deflate data in steps, with the same results', () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const levels = Array.from({ length: 3000 }, () => [`${next() % 100000}.${next() % 100}`, `0.${next() % 100000}`]);
    const big = { symbol: 'BTCUSDT', topic: 'depth', data: [{ a: levels, b: levels.slice(0, 1000), t: 1 }] };
    const zip = zipText(JSON.stringify(big));
    expect(zip.length).toBeGreaterThan(16 * 1024);
    expect(decodeFrame(zip)).toEqual(E.right(big));
    // a lying header on a large entry: stopped once the output passes the declared size
    const lying = withDeclaredSize(zipBomb(64), 1000);
    expect(lying.length).toBeGreaterThan(8 * 1024);
    expect(kindOf(decodeFrame(lying))).toBe('inflated-too-large');
    expect(kindOf(decodeFrame(withDeclaredSize(zip, JSON.stringify(big).length + 1)))).toBe('zip');
    expect(kindOf(decodeFrame(zip.subarray(0, zip.length - 4000)))).toBe('zip');
  });

  it('honours a custom maxInflatedBytes', () => {
    expect(kindOf(decodeFrame(zipText('[1,2,3]'), { maxInflatedBytes: 6 }))).toBe('inflated-too-large');
    expect(decodeFrame(zipText('[1,2,3]'), { maxInflatedBytes: 7 })).toEqual(E.right([1, 2, 3]));
  });

  it('rejects corrupt and truncated zips with kind zip', () => {
    const zip = zipText(JSON.stringify(depth));
    expect(kindOf(decodeFrame(new Uint8Array([1, 2, 3, 4])))).toBe('zip');
    expect(kindOf(decodeFrame(zip.subarray(0, zip.length - 10)))).toBe('zip');
    const garbled = zip.slice();
    garbled[30 + 'data.json'.length] = 0x07; // first deflate block: BFINAL 1, BTYPE 3 (reserved, invalid)
    expect(kindOf(decodeFrame(garbled))).toBe('zip');
    expect(kindOf(decodeFrame(new Blob(['x'])))).toBe('zip');
  });

  it('rejects an entry that is not UTF-8 with kind utf8', () => {
    expect(kindOf(decodeFrame(zipBytes(new Uint8Array([0x5b, 0xff, 0xfe, 0x5d]))))).toBe('utf8');
  });

  it('keeps the 64-bit ids of a frame exact when they arrive quoted', () => {
    expect(decodeFrame('{"i":"1234567890123456789"}')).toEqual(E.right({ i: '1234567890123456789' }));
  });

  it('decodes nesting 100 000 deep, and reports an invalid UTF-8 entry and an empty frame as DecodeErrors', () => {
    const nested = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(E.isRight(decodeFrame(nested))).toBe(true);
    expect(E.isRight(decodeFrame(zipText(nested)))).toBe(true);
    expect(kindOf(decodeFrame(zipBytes(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]))))).toBe('utf8');
    expect(kindOf(decodeFrame(''))).toBe('json');
    expect(kindOf(decodeFrame(new Uint8Array(0)))).toBe('zip');
  });

  it('reads only the first entry of a zip of 10 000 entries', () => {
    const entries: Zippable = {};
    for (let i = 0; i < 10_000; i++) entries[`e${i}.json`] = [strToU8(`{"i":${i}}`), { level: 0 }];
    expect(decodeFrame(zipSync(entries))).toEqual(E.right({ i: 0 }));
  });
});
