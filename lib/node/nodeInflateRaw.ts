import { inflateRawSync } from 'node:zlib';
import type { RawInflater } from '../frame/frameLimits';

/** zlib's smallest output chunk. */
const MIN_CHUNK = 64;

/**
 * A {@link RawInflater} on Node's native zlib: `inflateRawSync` into one output chunk of `size + 1` bytes, so a
 * zip entry that inflates beyond its declared size stops there (zlib's `ERR_BUFFER_TOO_LARGE`, rethrown as a
 * `RangeError`: a `DecodeError` of kind `'inflated-too-large'`) and memory stays bounded. Corrupt or
 * truncated deflate data throws zlib's error (kind `'zip'`). Decoding stays identical to the default fflate
 * inflater; on a 3 KB → 9.4 KB depth book it inflates about 3× faster (docs/performance.md). Node only:
 * browsers use `inflateRaw` from `ex-streams/zip`. Pass it as `connection.inflateRaw` to `marketStreams` / `userStream`, to
 * `connection`, or to `decodeFrame`.
 *
 * @example
 * ```ts
 * import { marketStreams } from 'ex-streams';
 * import { nodeInflateRaw, nodeWebSocket } from 'ex-streams/node';
 * const market = marketStreams({
 *   url: 'wss://stream.example.com/quote/ws/v1',
 *   binary: true, // zip frames, inflated by native zlib
 *   WebSocketCtor: nodeWebSocket,
 *   connection: { inflateRaw: nodeInflateRaw },
 * });
 * market.depthMessages('BTCUSDT').subscribe((m) => console.log(m.data[0]?.a[0])); // [ '34924.15', '0.00100' ]
 * ```
 */
export const nodeInflateRaw: RawInflater = (deflated, size) => {
  try {
    // One output chunk of size + 1 bytes: zlib stops once it is full, the same byte at which fflate stops,
    // so both report the same DecodeError kind on data that is both corrupt and too large.
    return inflateRawSync(deflated, { chunkSize: Math.max(MIN_CHUNK, size + 1), maxOutputLength: Math.max(1, size) });
  } catch (e) {
    if ((e as { code?: unknown } | null)?.code === 'ERR_BUFFER_TOO_LARGE') {
      throw new RangeError(`raw deflate data inflates beyond ${size} bytes`);
    }
    throw e;
  }
};
