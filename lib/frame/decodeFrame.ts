// Data path (notes/architecture.md, "The data path"): step 2, a frame's bytes → its JSON text (limits, zip → inflate → UTF-8).
import * as E from 'fp-ts/Either';
import { DecodeError } from '../errors';
import { parseJsonValue } from './json';
import { DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_INFLATED_BYTES, type FrameLimits } from './frameLimits';
import { gunzip, isGzip } from './gunzip';
import { unzipFirstEntry } from './unzipFirstEntry';

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
