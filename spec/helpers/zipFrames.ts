import { strToU8, Zip, ZipDeflate, zipSync } from 'fflate';
import { zipFrame } from '../../lib/testing/zipFrame';

/**
 * A zip file holding one entry with `text` (sizes in the local header, as `zipSync` writes them): the testing kit's
 * `zipFrame`, or its entry stored (`level` 0).
 */
export function zipText(text: string, level: 0 | 6 = 6): Uint8Array {
  return level === 6 ? zipFrame(text) : zipBytes(strToU8(text), level);
}

/** A zip file holding one entry with `bytes`. */
export function zipBytes(bytes: Uint8Array, level: 0 | 6 = 6): Uint8Array {
  return zipSync({ 'data.json': [bytes, { level }] });
}

/** A zip file written in streaming mode: local header sizes 0, real sizes in a data descriptor and the central directory. */
export function zipTextStreamed(text: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    chunks.push(chunk);
  });
  const entry = new ZipDeflate('data.json', { level: 6 });
  zip.add(entry);
  entry.push(strToU8(text), true);
  zip.end();
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Offset of the (single) central directory header of a zip written by fflate. */
function centralHeader(zip: Uint8Array): number {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = zip.length - 22;
  if (view.getUint32(eocd, true) !== 0x06054b50) throw new Error('no EOCD at the end');
  return view.getUint32(eocd + 16, true);
}

/** A copy of `zip` whose entry declares `size` uncompressed bytes (a lying header: a zip bomb in disguise). */
export function withDeclaredSize(zip: Uint8Array, size: number): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  view.setUint32(centralHeader(copy) + 24, size, true);
  view.setUint32(22, size, true);
  return copy;
}

/** A zip bomb: `mib` MiB of zeros deflated (about 1 KiB per MiB), declaring its true size. */
export function zipBomb(mib: number): Uint8Array {
  return zipBytes(new Uint8Array(mib * 1024 * 1024));
}
