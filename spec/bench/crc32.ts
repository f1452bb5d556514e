/**
 * The cost of the zip entries' CRC-32 check (lib/internal/crc32.ts) on a depth-book zip frame. Part of `npm run bench`
 * (`--only=zip`); not run by jest. Alone:
 *
 *   node -r ts-node/register/transpile-only spec/bench/crc32.ts
 *
 * Prints ns per frame, median and best of 5 runs (each the median of 3 runs of ~300 ms after a warm-up; the
 * best is the steadier figure on a busy machine), of: `unzipFirstEntry` as it is
 * (fflate inflate + CRC check), the same without the check (the entry inflated by the same code path: the
 * inflater is called directly), `crc32` alone on the 9.4 KB entry, a byte-at-a-time table (the simplest CRC-32)
 * and `node:zlib`'s native `crc32` for reference.
 */
import { inflateSync, strToU8, zipSync } from 'fflate';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32 } from '../../lib/internal/crc32';
import { unzipFirstEntry } from '../../lib/frame/unzipFirstEntry';
import { BT, template } from './frames';
import { median, opsPerSecond } from './stats';

const TABLE = ((): Int32Array => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();
function byteAtATime(bytes: Uint8Array): number {
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

const entry = strToU8(template('depth').replace(BT, '0'));
const zip = zipSync({ 'data.json': [entry, { level: 6 }] });
// The deflate data of the one entry: after the 30-byte local header and the name; before the central directory.
const nameLength = zip[26]! | (zip[27]! << 8);
const compressedSize = zip[18]! | (zip[19]! << 8) | (zip[20]! << 16);
const deflated = zip.subarray(30 + nameLength, 30 + nameLength + compressedSize);
if (byteAtATime(entry) !== zlibCrc32(entry) || crc32(entry) !== zlibCrc32(entry)) throw new Error('CRC disagreement');

/** A row of {@link zipCheckCost}: a case and its ns per frame (median and best of the runs). */
export interface ZipCheckRow {
  readonly case: string;
  readonly medianNs: number;
  readonly bestNs: number;
}

/** Runs every case `runs` times (each the median of 3 runs of ~300 ms); the first row is the whole unzip with its check. */
export function zipCheckCost(runs = 5): ZipCheckRow[] {
  let sink = 0;
  const cases: Array<[string, () => unknown]> = [
    ['unzipFirstEntry (inflate + CRC check)', () => unzipFirstEntry(zip, 1 << 24)],
    ['inflate alone (no CRC check)', () => inflateSync(deflated, { out: new Uint8Array(entry.length + 1) })],
    ['crc32 (slicing-by-8) alone', () => (sink ^= crc32(entry))],
    ['byte-at-a-time table alone', () => (sink ^= byteAtATime(entry))],
    ['node:zlib crc32 alone', () => (sink ^= zlibCrc32(entry))],
  ];
  const rows = cases.map(([name, fn]) => {
    const times: number[] = [];
    for (let r = 0; r < runs; r++) times.push(1e9 / opsPerSecond(fn, 300, 3));
    return { case: name, medianNs: Math.round(median(times)), bestNs: Math.round(Math.min(...times)) };
  });
  if (sink === 0.5) process.stdout.write('');
  return rows;
}

/** The markdown table of {@link zipCheckCost}'s rows. */
export function zipCheckTable(rows: readonly ZipCheckRow[]): string {
  const head = `depth book: ${entry.length} bytes of JSON, zip frame ${zip.length} bytes\n\n| case | ns/frame (median) | best |\n|---|---:|---:|`;
  return [head, ...rows.map((r) => `| ${r.case} | ${r.medianNs.toLocaleString('en')} | ${r.bestNs.toLocaleString('en')} |`)].join('\n');
}

if (require.main === module) process.stdout.write(zipCheckTable(zipCheckCost()) + '\n');
