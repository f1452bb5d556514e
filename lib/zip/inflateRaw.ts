import { Inflate, inflateSync } from 'fflate';
import type { RawInflater } from '../frame/frameLimits';

/**
 * Largest deflate input inflated in one `inflateSync` call. fflate never writes past the buffer it is given,
 * but it keeps decoding to the end of its input, and deflate expands up to ~1032×: a lying entry of 8 KiB
 * costs at most ~8 MB of decoding (~15 ms), while a 4 MiB one would cost seconds.
 */
const ONE_CALL_MAX_INPUT = 8 * 1024;
/** Input pushed per step when a larger entry is inflated in steps (at most ~1 MB decoded past the limit). */
const STEP_INPUT = 1024;

/**
 * The zip frames' inflater that runs everywhere (pure JavaScript, fflate): a {@link RawInflater} into a buffer
 * of `size + 1` bytes. An entry of up to 8 KiB of deflate data (a 200-level depth book is ~3 KB) is inflated in
 * one call: fflate never grows a buffer it is given, and a stored deflate block that overruns it surfaces as a
 * RangeError. A larger entry is inflated in 1 KiB steps that stop as soon as more than `size` bytes came out,
 * so a lying header costs at most one step of decoding past it.
 *
 * In browsers, binary (zip) frames need it: the browser build of ex-streams carries no inflater (fflate is
 * ~4 KB minified, and most apps take JSON text frames), so pass it as `connection.inflateRaw` to
 * `marketStreams` / `userStream` / `connection`, or as `inflateRaw` to `decodeFrame`. Without it the first
 * binary frame ends the streams with a `ConfigError` naming this import. On Node it is the default already
 * (`nodeInflateRaw` from `ex-streams/node`, native zlib, is ~3× faster).
 *
 * @example
 * ```ts
 * import { marketStreams } from 'ex-streams';
 * import { inflateRaw } from 'ex-streams/zip';
 * const market = marketStreams({
 *   url: 'wss://stream.example.com/quote/ws/v1',
 *   binary: true, // zip frames, inflated by fflate (in this import only)
 *   connection: { inflateRaw },
 * });
 * market.depth('BTCUSDT').subscribe((d) => console.log(d.a[0])); // [ '34924.15', '0.00100' ]
 * ```
 */
export const inflateRaw: RawInflater = (deflated, size) =>
  deflated.length <= ONE_CALL_MAX_INPUT ? inflateSync(deflated, { out: new Uint8Array(size + 1) }) : inflateInSteps(deflated, size);

/** fflate's streaming `Inflate`, fed {@link STEP_INPUT} bytes at a time, stopping once the output passes `size`. */
function inflateInSteps(deflated: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size + 1);
  let length = 0;
  const inflater = new Inflate((chunk) => {
    const room = out.length - length;
    out.set(chunk.length > room ? chunk.subarray(0, room) : chunk, length);
    length += Math.min(chunk.length, room);
  });
  for (let at = 0; at < deflated.length && length <= size; at += STEP_INPUT) {
    const end = Math.min(deflated.length, at + STEP_INPUT);
    inflater.push(deflated.subarray(at, end), end === deflated.length);
  }
  return out.subarray(0, length);
}
