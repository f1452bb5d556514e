// Data path (docs/architecture.md, "The data path"): step 2, a frame's bytes → its JSON text (limits, zip → inflate → UTF-8).
import * as E from 'fp-ts/Either';
import { DecodeError } from '../errors';
import { parseJsonValue } from '../internal/json';
import { gunzip, isGzip } from './gunzip';
import { unzipFirstEntry } from './unzipFirstEntry';

/**
 * Default {@link FrameLimits.maxFrameBytes}: 4 MiB.
 * @example
 * ```ts
 * import { DEFAULT_MAX_FRAME_BYTES } from 'ex-streams';
 * DEFAULT_MAX_FRAME_BYTES; // 4194304
 * ```
 */
export const DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;
/**
 * Default {@link FrameLimits.maxInflatedBytes}: 16 MiB.
 * @example
 * ```ts
 * import { DEFAULT_MAX_INFLATED_BYTES } from 'ex-streams';
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
 * import { inflateSync } from 'fflate';
 * declare const bytes: ArrayBuffer; // a binary websocket frame
 * // A minimal inflater: fflate never writes past the buffer it is given (size + 1 bytes).
 * decodeFrame(bytes, { inflateRaw: (deflated, size) => inflateSync(deflated, { out: new Uint8Array(size + 1) }) });
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

let utf8: TextDecoder | undefined;

/**
 * Decodes one websocket frame into a JSON value: a text frame is parsed as JSON; a binary frame
 * (`ArrayBuffer`, or an `ArrayBufferView` such as a Node `Buffer`) is a zip file whose first entry is
 * UTF-8 JSON. Never throws: failures are `DecodeError`s of kind `'frame-too-large'`,
 * `'inflated-too-large'`, `'zip'`, `'utf8'` or `'json'`. Binary input is read through views, never copied.
 *
 * @example
 * ```ts
 * import { decodeFrame } from 'ex-streams/codecs';
 * decodeFrame('{"pong":1700000000000}'); // { _tag: 'Right', right: { pong: 1700000000000 } }
 * decodeFrame('{"pong":');              // { _tag: 'Left', left: DecodeError { kind: 'json', … } }
 * ```
 */
export function decodeFrame(data: unknown, limits: FrameLimits = {}): E.Either<DecodeError, unknown> {
  const text = frameText(data, limits);
  if (text instanceof DecodeError) return E.left(text);
  const value = parseJsonValue(text, limits.secrets);
  return value instanceof DecodeError ? E.left(value) : E.right(value);
}

/**
 * The JSON text of one websocket frame, before parsing: a text frame itself (within `maxFrameBytes`), or the
 * first entry of a zip frame, inflated within `maxInflatedBytes` and decoded as UTF-8; else the `DecodeError`
 * (kinds `'frame-too-large'`, `'inflated-too-large'`, `'zip'`, `'utf8'`). Never throws. @internal
 */
export function frameText(data: unknown, limits: FrameLimits): string | DecodeError {
  if (typeof data === 'string') {
    const max = limits.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    return data.length > max ? frameTooLarge(data.length, max) : data;
  }
  const { maxFrameBytes = DEFAULT_MAX_FRAME_BYTES, maxInflatedBytes = DEFAULT_MAX_INFLATED_BYTES, inflateRaw } = limits;
  const bytes = bytesOf(data);
  if (bytes === undefined) return new DecodeError('zip', 'binary frame of an unsupported type (expected ArrayBuffer)');
  if (bytes.length > maxFrameBytes) return frameTooLarge(bytes.length, maxFrameBytes);
  // The container by its magic bytes: gzip (`1f 8b`, seen on the live service), else zip (the spec's).
  const entry = isGzip(bytes) ? gunzip(bytes, maxInflatedBytes, inflateRaw) : unzipFirstEntry(bytes, maxInflatedBytes, inflateRaw);
  if (E.isLeft(entry)) return entry.left;
  try {
    return (utf8 ??= new TextDecoder('utf-8', { fatal: true })).decode(entry.right);
  } catch {
    return new DecodeError('utf8', `${isGzip(bytes) ? 'gzip member' : 'zip entry'} is not valid UTF-8`);
  }
}

function bytesOf(data: unknown): Uint8Array | undefined {
  // The tag check also accepts an ArrayBuffer from another realm (a vm context, an iframe).
  if (data instanceof ArrayBuffer || Object.prototype.toString.call(data) === '[object ArrayBuffer]') {
    return new Uint8Array(data as ArrayBuffer);
  }
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return undefined;
}

/** The error of a frame above `maxFrameBytes`. @internal */
export function frameTooLarge(size: number, max: number): DecodeError {
  return new DecodeError('frame-too-large', `frame of ${size} bytes exceeds maxFrameBytes (${max})`);
}
