// Data path (notes/architecture.md, "The data path"): step 2 for a gzip frame, its bytes → the member's bytes.
/**
 * A binary frame in gzip form (RFC 1952: `1f 8b`, deflate, then the CRC-32 and the size of the text): the live
 * service has been seen sending gzip where the spec says zip.
 * @internal
 * @module
 */
import * as E from 'fp-ts/Either';
import { DecodeError } from '../errors';
import { type BoundedInflater, checked, GZIP_PREFIX, inflateBounded } from './inflateChecked';
import { defaultInflateRaw } from './defaultInflateRaw';
import { INFLATER_NEEDED } from './missingInflater';

const HEADER_SIZE = 10;
const TRAILER_SIZE = 8;
const DEFLATE = 8;
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const RESERVED = 0xe0;

/** Whether `bytes` start as a gzip stream does (`1f 8b`). @internal */
export const isGzip = (bytes: Uint8Array): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

const gzipError = (message: string): E.Either<DecodeError, never> => E.left(new DecodeError('zip', `${GZIP_PREFIX}: ${message}`));

const u32 = (b: Uint8Array, o: number): number => (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16)) + b[o + 3]! * 0x1000000;

/** The end of the zero-terminated field starting at `at` (past its zero), or -1. */
function pastZero(bytes: Uint8Array, at: number, end: number): number {
  for (let i = at; i < end; i++) if (bytes[i] === 0) return i + 1;
  return -1;
}

/**
 * The bytes of a gzip frame's one member, without copying the input: the header read (its optional fields skipped),
 * the size the trailer declares checked against `maxInflatedBytes` before inflating, the inflater never producing
 * more than that size + 1 byte, then the member's bytes checked against the trailer's CRC-32 and size. A frame of
 * more than one member, trailing bytes, or anything damaged is a `DecodeError` (kind `'zip'`, or
 * `'inflated-too-large'`). Never throws. @internal
 */
export function gunzip(bytes: Uint8Array, maxInflatedBytes: number, inflateRaw: BoundedInflater | undefined = defaultInflateRaw): E.Either<DecodeError, Uint8Array> {
  if (bytes.length < HEADER_SIZE + TRAILER_SIZE) return gzipError('shorter than a gzip header and trailer');
  if (!isGzip(bytes)) return gzipError('no gzip magic bytes');
  if (bytes[2] !== DEFLATE) return gzipError(`compression method ${bytes[2]} is not supported`);
  const flags = bytes[3]!;
  if ((flags & RESERVED) !== 0) return gzipError('reserved header flags are set');
  const end = bytes.length - TRAILER_SIZE;
  let at = HEADER_SIZE;
  if (flags & FEXTRA) {
    if (at + 2 > end) return gzipError('truncated header');
    at += 2 + (bytes[at]! | (bytes[at + 1]! << 8));
  }
  if (flags & FNAME) at = pastZero(bytes, at, end);
  if (at >= 0 && flags & FCOMMENT) at = pastZero(bytes, at, end);
  if (at >= 0 && flags & FHCRC) at += 2;
  if (at < 0 || at > end) return gzipError('truncated header');
  const crc = u32(bytes, end);
  const size = u32(bytes, end + 4);
  if (size > maxInflatedBytes) {
    return E.left(new DecodeError('inflated-too-large', `gzip member declares ${size} bytes, more than maxInflatedBytes (${maxInflatedBytes})`));
  }
  if (inflateRaw === undefined) return E.left(new DecodeError('zip', `a gzip frame needs an inflater: inflateRaw ${INFLATER_NEEDED}`));
  // The deflate data runs to the trailer: a stream that ends early, or goes on past it, inflates to another size
  // or fails, and the CRC-32 catches what is left.
  const inflated = inflateBounded(bytes.subarray(at, end), size, inflateRaw, GZIP_PREFIX);
  return E.isLeft(inflated) ? inflated : checked(inflated.right, crc, GZIP_PREFIX);
}
