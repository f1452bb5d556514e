/**
 * `inflateRaw` of `ex-streams/zip`: fflate into a buffer of `size + 1` bytes, in one call up to 8 KiB of input,
 * in 1 KiB steps above. The guard rails around it (declared sizes, CRC-32, lying headers) are tested through
 * `unzipFirstEntry`, whose default it is on Node (spec/frame/unzipFirstEntry.spec.ts).
 */
import { deflateSync } from 'node:zlib';
import { defaultInflateRaw } from '../../lib/frame/defaultInflateRaw';
import { inflateRaw } from '../../lib/zip/inflateRaw';
import * as zip from '../../lib/zip/index';

/** Deterministic bytes that deflate cannot shrink (a linear congruential sequence). */
const noise = (n: number): Uint8Array => {
  const out = new Uint8Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) out[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
  return out;
};
const STEPS_ABOVE = 8 * 1024;
const raw = (bytes: Uint8Array): Uint8Array => new Uint8Array(deflateSync(bytes, { level: 6 }).subarray(2, -4)); // zlib wrapper off

describe('inflateRaw', () => {
  it.each([
    ['one call (small input)', new TextEncoder().encode('{"a":1}'.repeat(100))],
    ['in steps (input above 8 KiB)', noise(40_000)],
  ])('inflates raw deflate data: %s', (name, bytes) => {
    const deflated = raw(bytes);
    expect(deflated.length > STEPS_ABOVE).toBe(name.startsWith('in steps'));
    expect(inflateRaw(deflated, bytes.length)).toEqual(bytes);
  });

  it.each([
    ['one call', new Uint8Array(100_000), 1000],
    ['in steps', noise(40_000), 30_000],
  ])('stops at size + 1 bytes when the data inflates beyond size (%s)', (_, bytes, size) => {
    expect(inflateRaw(raw(bytes), size)).toEqual(bytes.subarray(0, size + 1));
  });

  it('throws on corrupt data', () => {
    expect(() => inflateRaw(new Uint8Array([0xff, 0xff, 0xff, 0xff]), 10)).toThrow();
  });

  it('is the entry ex-streams/zip exports, and the default inflater of the Node build', () => {
    expect(zip.inflateRaw).toBe(inflateRaw);
    expect(defaultInflateRaw).toBe(inflateRaw);
  });
});
