/**
 * What the two binary containers share (a zip entry, a gzip member): inflating to a declared size at most, and the
 * CRC-32 check of what came out. A damaged entry whose text still parses is never delivered as good data.
 * @internal
 * @module
 */
import * as E from 'fp-ts/Either';
import { DecodeError } from '../errors';
import { crc32 } from '../internal/crc32';

/** What inflates raw deflate data to `size` bytes at most (see `RawInflater` in decodeFrame). @internal */
export type BoundedInflater = (deflated: Uint8Array, size: number) => Uint8Array;

const hex = (n: number): string => n.toString(16).padStart(8, '0');

/** `entry` if its CRC-32 is `declared`, else a `'zip'` error (`prefix`: what the frame is not). @internal */
export function checked(entry: Uint8Array, declared: number, prefix: string): E.Either<DecodeError, Uint8Array> {
  const actual = crc32(entry);
  return actual === declared ? E.right(entry) : E.left(new DecodeError('zip', `${prefix}: entry CRC-32 mismatch (declared ${hex(declared)}, data ${hex(actual)})`));
}

/**
 * `data` inflated by `inflateRaw` to exactly `size` bytes: more is `'inflated-too-large'` (the inflater never
 * produces more than `size + 1`), fewer or corrupt data a `'zip'` error. Never throws. @internal
 */
export function inflateBounded(data: Uint8Array, size: number, inflateRaw: BoundedInflater, prefix: string): E.Either<DecodeError, Uint8Array> {
  const tooLarge = (): E.Either<DecodeError, never> => E.left(new DecodeError('inflated-too-large', `${prefix === GZIP_PREFIX ? 'gzip member' : 'zip entry'} inflates beyond its declared ${size} bytes`));
  let inflated: Uint8Array;
  try {
    inflated = inflateRaw(data, size);
  } catch (e) {
    // The RawInflater contract: a RangeError (of any realm) means "more than size + 1 bytes".
    if (e instanceof RangeError || (e as { name?: unknown } | null)?.name === 'RangeError') return tooLarge();
    return E.left(new DecodeError('zip', `${prefix}: corrupt deflate data`));
  }
  if (inflated.length > size) return tooLarge();
  if (inflated.length < size) return E.left(new DecodeError('zip', `${prefix}: entry inflates to fewer bytes than its declared ${size}`));
  return E.right(inflated);
}

/** How a gzip frame's errors begin. @internal */
export const GZIP_PREFIX = 'binary frame is not a usable gzip stream';
