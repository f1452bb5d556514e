import * as fc from 'fast-check';
import * as E from 'fp-ts/Either';
import { deflateSync } from 'fflate';
import { inflateRawSync } from 'node:zlib';
import { DecodeError } from '../../lib/errors';
import { nodeInflateRaw } from '../../lib/node/nodeInflateRaw';
import { decodeFrame } from '../../lib/frame/decodeFrame';
import type { FrameLimits } from '../../lib/frame/frameLimits';
import { withDeclaredSize, zipBomb, zipBytes, zipText, zipTextStreamed } from '../helpers/zipFrames';

/** Where the entry's deflate data starts in a zip written by fflate (one entry named data.json). */
const DATA_START = 30 + 'data.json'.length;

interface Outcome {
  readonly value?: unknown;
  readonly kind?: string;
}

const outcome = (r: E.Either<DecodeError, unknown>): Outcome => (E.isRight(r) ? { value: r.right } : { kind: r.left.kind });

/** decodeFrame's outcome with the default (fflate) and with nodeInflateRaw: the value, or the DecodeError kind. */
function both(frame: Uint8Array, limits: FrameLimits = {}): { fflate: Outcome; node: Outcome } {
  return { fflate: outcome(decodeFrame(frame, limits)), node: outcome(decodeFrame(frame, { ...limits, inflateRaw: nodeInflateRaw })) };
}

/** Every 16+-digit integer literal is quoted by the frame parser: keep generated JSON clear of them. */
const jsonText = fc.jsonValue().map((v) => JSON.stringify(v)).filter((text) => !/\d{16}/.test(text));

describe('nodeInflateRaw', () => {
  describe('the RawInflater contract', () => {
    const text = new TextEncoder().encode('{"symbol":"BTCUSDT","data":[1,2,3]}'.repeat(20));
    const deflated = deflateSync(text);

    it('returns the inflated bytes of a raw deflate stream', () => {
      expect(Buffer.from(nodeInflateRaw(deflated, text.length))).toEqual(Buffer.from(text));
    });

    it('throws a RangeError, without inflating it all, when the data inflates beyond size + 1 bytes', () => {
      const bomb = deflateSync(new Uint8Array(16 * 1024 * 1024));
      expect(bomb.length).toBeLessThan(32 * 1024);
      expect(() => nodeInflateRaw(bomb, 1000)).toThrow(RangeError);
      expect(() => nodeInflateRaw(deflated, text.length - 2)).toThrow(`raw deflate data inflates beyond ${text.length - 2} bytes`);
    });

    it('throws the RangeError at the first byte over size (it never returns more than size bytes)', () => {
      expect(() => nodeInflateRaw(deflated, text.length - 1)).toThrow(RangeError);
      expect(nodeInflateRaw(deflated, text.length)).toHaveLength(text.length);
      expect(nodeInflateRaw(deflateSync(new Uint8Array(0)), 0)).toHaveLength(0);
    });

    it('throws an error that is not a RangeError on corrupt or truncated data', () => {
      const corrupt = deflated.slice();
      corrupt[0] = 0x07; // BFINAL 1, BTYPE 3: reserved
      const thrown = (data: Uint8Array): unknown => {
        try {
          return nodeInflateRaw(data, text.length);
        } catch (e) {
          return e;
        }
      };
      for (const bad of [corrupt, deflated.subarray(0, deflated.length >> 1)]) {
        // zlib's errors come from Node's realm, not jest's: compare names, not classes.
        const e = thrown(bad) as { name?: unknown; code?: unknown };
        expect(e.name).toBe('Error');
        expect(e.code).toMatch(/^Z_/);
      }
    });
  });

  describe('decodeFrame with nodeInflateRaw agrees with the default fflate inflater', () => {
    it('on valid zips: the same values (deflated, stored, streamed)', () => {
      fc.assert(
        fc.property(jsonText, fc.constantFrom<0 | 6>(0, 6), (text, level) => {
          const expected = { value: JSON.parse(text) as unknown };
          expect(both(zipText(text, level))).toEqual({ fflate: expected, node: expected });
          expect(both(zipTextStreamed(text))).toEqual({ fflate: expected, node: expected });
        }),
      );
    });

    it('on corrupt deflate data: the same outcome, except where zlib is stricter or stops earlier', () => {
      // 300 runs (was 1 000, 1.5 s): divergences run at 2-3 %, far under the bound.
      const CORRUPTIONS = 300;
      const divergences = { stricter: 0, earlier: 0 };
      fc.assert(
        fc.property(
          jsonText,
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }),
          (text, flips) => {
            const zip = zipText(text.repeat(3));
            const dataLength = zip.length - DATA_START - (46 + 'data.json'.length) - 22;
            for (const [at, mask] of flips) zip[DATA_START + (at % dataLength)]! ^= mask;
            const r = both(zip);
            if (r.node.kind === 'zip' && r.fflate.kind !== 'zip') {
              // zlib rejects what fflate lets through (e.g. "invalid distance code": fflate reads zeros).
              divergences.stricter += 1;
            } else if (r.node.kind === 'inflated-too-large' && r.fflate.kind === 'zip') {
              // Data both corrupt and too large: zlib stops at size + 1 bytes, fflate keeps decoding (dropping
              // the bytes) and meets the error. Out of the limit's way, zlib meets it too.
              divergences.earlier += 1;
              expect(both(withDeclaredSize(zip, 1 << 20)).node).toEqual({ kind: 'zip' });
            } else {
              // Whatever zlib inflates in full, fflate inflates to the same bytes: same value or same kind.
              expect(r.node).toEqual(r.fflate);
            }
          },
        ),
        { numRuns: CORRUPTIONS },
      );
      // Most corruptions are seen alike; the exceptions stay exceptions.
      expect(divergences.stricter + divergences.earlier).toBeLessThan(CORRUPTIONS / 4);
    });

    it('on truncated deflate data: kind zip with both', () => {
      fc.assert(
        fc.property(jsonText, fc.nat(), (text, cut) => {
          const zip = zipText(text.repeat(3));
          const view = new DataView(zip.buffer);
          const central = view.getUint32(zip.length - 22 + 16, true);
          const compressed = view.getUint32(central + 20, true);
          fc.pre(compressed > 2);
          // Declares fewer compressed bytes than there are: the inflater sees a truncated stream.
          const shorter = 1 + (cut % (compressed - 2));
          view.setUint32(central + 20, shorter, true);
          expect(both(zip)).toEqual({ fflate: { kind: 'zip' }, node: { kind: 'zip' } });
        }),
      );
    });

    it('on sizes that lie: the same DecodeError kind (inflated-too-large above, zip below)', () => {
      fc.assert(
        fc.property(jsonText, fc.constantFrom<0 | 6>(0, 6), fc.integer({ min: -1000, max: 1000 }), (text, level, delta) => {
          const zip = zipText(text, level);
          const size = new TextEncoder().encode(text).length;
          const declared = Math.max(0, size + delta);
          fc.pre(declared !== size);
          const r = both(withDeclaredSize(zip, declared));
          expect(r.node).toEqual(r.fflate);
          // A stored entry's declared size must equal its stored bytes.
          expect(r.node).toEqual({ kind: declared < size && level === 6 ? 'inflated-too-large' : 'zip' });
        }),
      );
    });

    it('on zip bombs declaring a small size: inflated-too-large with both, memory bounded', () => {
      const bomb = withDeclaredSize(zipBomb(16), 10_000);
      expect(bomb.length).toBeLessThan(32 * 1024);
      const before = process.memoryUsage().arrayBuffers;
      expect(both(bomb)).toEqual({ fflate: { kind: 'inflated-too-large' }, node: { kind: 'inflated-too-large' } });
      // 16 MiB inflated would show here; a bounded inflate allocates a few KiB.
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024);
      // Declaring its true size, above the limit (2 MiB against 1 MiB: the rule is the same at the 16 MiB default).
      expect(both(zipBomb(2), { maxInflatedBytes: 1 << 20 })).toEqual({ fflate: { kind: 'inflated-too-large' }, node: { kind: 'inflated-too-large' } });
    });

    it('on bytes that are not UTF-8 or not JSON, and on data that is not a zip at all', () => {
      expect(both(zipBytes(new Uint8Array([0x5b, 0xff, 0xfe, 0x5d])))).toEqual({ fflate: { kind: 'utf8' }, node: { kind: 'utf8' } });
      expect(both(zipText('not json'))).toEqual({ fflate: { kind: 'json' }, node: { kind: 'json' } });
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
          const r = both(bytes);
          expect(r.node).toEqual(r.fflate);
        }),
      );
    });

    it('keeps secrets out of the errors with both inflaters', () => {
      const secret = 'sk-0123456789abcdef';
      const frame = zipText(`{"listenKey":"${secret}",`);
      for (const inflateRaw of [undefined, nodeInflateRaw]) {
        const r = decodeFrame(frame, inflateRaw ? { secrets: [secret], inflateRaw } : { secrets: [secret] });
        if (E.isRight(r)) throw new Error('expected a DecodeError');
        expect(r.left.kind).toBe('json');
        expect(`${r.left.message} ${String(r.left)} ${JSON.stringify(r.left)} ${r.left.raw ?? ''}`).not.toContain(secret);
      }
    });
  });

  it('inflates what node:zlib itself inflates (sanity check of the fixture)', () => {
    const text = '{"a":[1,2,3]}';
    const zip = zipText(text);
    const compressed = new DataView(zip.buffer).getUint32(18, true);
    expect(inflateRawSync(zip.subarray(DATA_START, DATA_START + compressed)).toString()).toBe(text);
  });
});
