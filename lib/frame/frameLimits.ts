// Data path (notes/architecture.md, "The data path"): what every step of a frame's bytes → text shares: its limits and the inflater's contract.
/**
 * The guard rails of a frame's decoding and the contract of its inflater, in a module of their own: the containers
 * (`gunzip`, `unzipFirstEntry`), the default inflaters and `ex-streams/zip` need them without importing the
 * decoder that uses them.
 * @module
 */

/**
 * Default {@link FrameLimits.maxFrameBytes}: 4 MiB.
 * @example
 * ```ts
 * import { DEFAULT_MAX_FRAME_BYTES } from 'ex-streams/connection';
 * DEFAULT_MAX_FRAME_BYTES; // 4194304
 * ```
 */
export const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;
/**
 * Default {@link FrameLimits.maxInflatedBytes}: 16 MiB.
 * @example
 * ```ts
 * import { DEFAULT_MAX_INFLATED_BYTES } from 'ex-streams/connection';
 * DEFAULT_MAX_INFLATED_BYTES; // 16777216
 * ```
 */
export const DEFAULT_MAX_INFLATED_BYTES = 16 * 1024 * 1024;

/**
 * Inflates a raw deflate stream (RFC 1951, no zlib or gzip wrapper): the data of a zip entry whose header
 * declares `size` inflated bytes. It must never produce more than `size + 1` bytes, whatever the input (so a
 * lying header cannot exhaust memory): an implementation either stops at `size + 1` bytes and returns them,
 * or throws a `RangeError` (read as "more than `size` bytes": a `DecodeError` of kind
 * `'inflated-too-large'`). Any other exception means corrupt data (kind `'zip'`). Returning more than `size`
 * bytes also reads as `'inflated-too-large'`, fewer as `'zip'`. The default on Node (and in the package's
 * default build) is `inflateRaw` from `ex-streams/zip` (fflate, into a buffer of `size + 1` bytes); on Node,
 * `nodeInflateRaw` from `ex-streams/node` (native zlib) is faster. The browser build has no default, so that
 * fflate is bundled only by apps that ask for zip frames: pass `inflateRaw` from `ex-streams/zip` there.
 *
 * @example
 * ```ts
 * import { decodeFrame } from 'ex-streams/codecs';
 * import type { RawInflater } from 'ex-streams/connection';
 * import { inflateSync } from 'fflate';
 * declare const bytes: ArrayBuffer; // a binary websocket frame
 * // A minimal inflater: fflate never writes past the buffer it is given (size + 1 bytes).
 * const inflateRaw: RawInflater = (deflated, size) => inflateSync(deflated, { out: new Uint8Array(size + 1) });
 * decodeFrame(bytes, { inflateRaw });
 * ```
 */
export type RawInflater = (deflated: Uint8Array, size: number) => Uint8Array;

/**
 * Guard rails of {@link decodeFrame}; every field is optional.
 *
 * @example
 * ```ts
 * import { decodeFrame } from 'ex-streams/codecs';
 * declare const bytes: ArrayBuffer; // a binary websocket frame
 * decodeFrame(bytes, { maxFrameBytes: 1 << 20, maxInflatedBytes: 8 << 20 });
 * ```
 */
export interface FrameLimits {
  /**
   * Largest frame accepted, in bytes (text frames: in UTF-16 code units, a lower bound of their bytes).
   * Default 4 MiB: a 200-level depth book is ~10 KB of JSON, so this leaves a 400x margin while keeping a
   * hostile frame from being parsed at all.
   */
  readonly maxFrameBytes?: number | undefined;
  /**
   * Largest inflated size of a zip frame's entry. Default 16 MiB. The declared size in the zip header is
   * checked before inflating, and inflating never produces more than the declared size + 1 byte (see
   * {@link RawInflater}), so a zip bomb ends as a `DecodeError` of kind `'inflated-too-large'`, never as an
   * out-of-memory.
   */
  readonly maxInflatedBytes?: number | undefined;
  /** Literal secrets to redact from the raw excerpt kept in errors. Default: none. */
  readonly secrets?: readonly string[] | undefined;
  /**
   * Inflater of zip entries (see {@link RawInflater}). Default on Node: `inflateRaw` from `ex-streams/zip`
   * (fflate); `nodeInflateRaw` from `ex-streams/node` uses native zlib. Browser build: none, a deflated entry
   * is a `DecodeError` of kind `'zip'` saying so; pass `inflateRaw` from `ex-streams/zip`.
   */
  readonly inflateRaw?: RawInflater | undefined;
}
