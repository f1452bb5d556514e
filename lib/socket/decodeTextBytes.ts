import { mayHaveLongIntegerBytes, parseJsonValue } from '../internal/json';
import { DEFAULT_MAX_FRAME_BYTES, type FrameLimits, frameTooLarge } from './decodeFrame';

/** The text-frame payload `ws` hands to its `'message'` listeners on Node: the frame's UTF-8 bytes (a `Buffer`). @internal */
export interface TextBytes extends Uint8Array {
  toString(): string;
}

/**
 * A text frame still as the UTF-8 bytes `ws` received (Node), decoded as `decodeFrameValue` decodes its
 * string: the same limits, values and errors. The long-integer pre-check runs on the bytes, before they
 * become a string (typed-array reads are cheaper than `charCodeAt` on a string just built).
 * @internal
 */
export function decodeTextBytesValue(bytes: TextBytes, limits: FrameLimits): unknown {
  const text = bytes.toString();
  const max = limits.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  if (text.length > max) return frameTooLarge(text.length, max);
  return parseJsonValue(text, limits.secrets, mayHaveLongIntegerBytes(bytes));
}
