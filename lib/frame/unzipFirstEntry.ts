import * as E from 'fp-ts/Either';
import { DecodeError } from '../errors';
import type { RawInflater } from './frameLimits';
import { defaultInflateRaw } from './defaultInflateRaw';
import { checked, inflateBounded } from './inflateChecked';
import { INFLATER_NEEDED } from './missingInflater';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_HEADER_SIZE = 46;
const LOCAL_HEADER_SIZE = 30;
const MAX_COMMENT = 0xffff;
const ZIP64_MARKER = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;

const u16 = (b: Uint8Array, o: number): number => b[o]! | (b[o + 1]! << 8);
const u32 = (b: Uint8Array, o: number): number =>
  (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16)) + b[o + 3]! * 0x1000000;

const zipError = (message: string): E.Either<DecodeError, never> =>
  E.left(new DecodeError('zip', `binary frame is not a usable zip file: ${message}`));

const tooLarge = (message: string): E.Either<DecodeError, never> =>
  E.left(new DecodeError('inflated-too-large', message));

const ZIP_PREFIX = 'binary frame is not a usable zip file';

/** Offset of the end-of-central-directory record, scanning back over a possible archive comment. */
function findEndOfCentralDirectory(zip: Uint8Array): number {
  const last = zip.length - EOCD_SIZE;
  const first = Math.max(0, last - MAX_COMMENT);
  for (let i = last; i >= first; i--) {
    if (zip[i] === 0x50 && u32(zip, i) === EOCD_SIGNATURE) return i;
  }
  return -1;
}

/**
 * The bytes of the first entry of a zip file, without copying the input. Sizes and the CRC-32 come from the
 * central directory (a zip written in streaming mode leaves them 0 in the local header and writes them in a
 * data descriptor after the data, which the central directory repeats). The declared uncompressed size is
 * checked against `maxInflatedBytes` before inflating, and the inflater (fflate by default, none in the browser
 * build: a deflated entry is then refused as kind `'zip'`, saying what to import) never produces
 * more than that size + 1 byte (to detect an entry that inflates beyond what it declares), so memory stays
 * bounded even when the header lies. The entry's bytes (stored or inflated) must then have the declared
 * CRC-32, or it is refused as kind `'zip'`: a damaged entry whose text still parses is not delivered as good
 * data. Never throws.
 * @internal
 */
export function unzipFirstEntry(
  zip: Uint8Array,
  maxInflatedBytes: number,
  inflateRaw: RawInflater | undefined = defaultInflateRaw,
): E.Either<DecodeError, Uint8Array> {
  const eocd = findEndOfCentralDirectory(zip);
  if (eocd < 0) return zipError('no end-of-central-directory record');
  if (u16(zip, eocd + 10) === 0) return zipError('the archive has no entry');
  const central = u32(zip, eocd + 16);
  if (central + CENTRAL_HEADER_SIZE > zip.length || u32(zip, central) !== CENTRAL_SIGNATURE) {
    return zipError('bad central directory');
  }
  const method = u16(zip, central + 10);
  const crc = u32(zip, central + 16);
  const compressedSize = u32(zip, central + 20);
  const size = u32(zip, central + 24);
  const local = u32(zip, central + 42);
  if (size === ZIP64_MARKER || compressedSize === ZIP64_MARKER) return zipError('zip64 entries are not supported');
  if (size > maxInflatedBytes) {
    return tooLarge(`zip entry declares ${size} bytes, more than maxInflatedBytes (${maxInflatedBytes})`);
  }
  if (local + LOCAL_HEADER_SIZE > zip.length || u32(zip, local) !== LOCAL_SIGNATURE) return zipError('bad local header');
  const start = local + LOCAL_HEADER_SIZE + u16(zip, local + 26) + u16(zip, local + 28);
  const end = start + compressedSize;
  if (end > zip.length) return zipError('entry data is truncated');
  const data = zip.subarray(start, end);
  if (method === STORED) return compressedSize === size ? checked(data, crc, ZIP_PREFIX) : zipError('stored entry size mismatch');
  if (method !== DEFLATED) return zipError(`compression method ${method} is not supported`);
  if (inflateRaw === undefined) return E.left(new DecodeError('zip', `a deflated zip entry needs an inflater: inflateRaw ${INFLATER_NEEDED}`));
  const inflated = inflateBounded(data, size, inflateRaw, ZIP_PREFIX);
  return E.isLeft(inflated) ? inflated : checked(inflated.right, crc, ZIP_PREFIX);
}
