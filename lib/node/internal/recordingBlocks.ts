import { crc32 } from '../../internal/crc32';

/**
 * The checksum lines of format 3: after each block of lines the recorder hands zlib (a batch of at most 256 KiB, or
 * what came since the last flush), a line `{"t":…,"k":"check","lines":N,"crc":C}`: `N` the block's lines, `C` the
 * CRC-32 of their bytes (newlines included). The loader verifies every block before it delivers any line of it, so a
 * flipped bit is found before the value it altered is played (gzip's own checksum is only read at the end of a file,
 * and a file cut by a crash has none).
 * @internal
 */

/** The check line after a block (no newline): `t` the block's last line's time. @internal */
export const checkLine = (t: number, lines: number, crc: number): string => `{"t":${JSON.stringify(t)},"k":"check","lines":${lines},"crc":${crc}}`;

const CHECK = /^\{"t":-?[0-9.eE+-]+,"k":"check","lines":([0-9]{1,9}),"crc":([0-9]{1,10})\}$/;

/** The longest check line (the regular expression's bounds), bytes. */
const CHECK_MAX = 96;

/** A check line's `lines` and `crc`, `undefined` for any other line. @internal */
export function readCheckLine(text: string): { readonly lines: number; readonly crc: number } | undefined {
  if (text.length > CHECK_MAX || !text.startsWith('{"t":')) return undefined;
  const m = CHECK.exec(text);
  return m === null ? undefined : { lines: Number(m[1]), crc: Number(m[2]) };
}

/** What a file's blocks say: the bytes that passed their checksums, the lines they hold, and the first failure. @internal */
export interface VerifiedBlocks {
  /** Check lines seen (0: a file of format 1 or 2, which has none). */
  readonly checks: number;
  /** Bytes of text up to and including the last check line that matched its block. */
  readonly verifiedBytes: number;
  /** Lines up to there (check lines included). */
  readonly verifiedLines: number;
  /** The first block that does not match its checksum: its line count as its check line says (when readable). */
  readonly mismatch: { readonly lines: number } | undefined;
  /** Whether text follows the last verified check line (a block without its check line, or after a mismatch). */
  readonly rest: boolean;
}

/** The bytes `[from, to)` of the text held in `chunks` (`starts`: each chunk's offset): a view, or a copy across chunks. */
function bytesOf(chunks: readonly Buffer[], starts: readonly number[], from: number, to: number): Buffer {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= from) lo = mid;
    else hi = mid - 1;
  }
  const first = chunks[lo]!;
  const at = from - starts[lo]!;
  if (to - starts[lo]! <= first.length) return first.subarray(at, to - starts[lo]!);
  const parts: Buffer[] = [first.subarray(at)];
  for (let i = lo + 1; i < chunks.length && starts[i]! < to; i++) parts.push(chunks[i]!.subarray(0, Math.min(chunks[i]!.length, to - starts[i]!)));
  return Buffer.concat(parts);
}

/**
 * Walks a file's text (its gunzipped chunks) line by line, checking each block against the check line after it, up
 * to the first block that does not match. Lines are found with `indexOf` on the bytes (only short lines are decoded,
 * to see whether they are check lines); a block is checked where it lies (copied only when it spans two chunks).
 * @internal
 */
export function verifyBlocks(chunks: readonly Buffer[]): VerifiedBlocks {
  const starts: number[] = [];
  let total = 0;
  for (const chunk of chunks) {
    starts.push(total);
    total += chunk.length;
  }
  let checks = 0;
  let verifiedBytes = 0;
  let verifiedLines = 0;
  let lines = 0;
  let lineStart = 0;
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, end + 1)) {
      const lineEnd = starts[i]! + end;
      lines++;
      const check = lineEnd - lineStart <= CHECK_MAX ? readCheckLine(bytesOf(chunks, starts, lineStart, lineEnd).toString('latin1')) : undefined;
      if (check !== undefined) {
        checks++;
        const blockLines = lines - verifiedLines - 1;
        if (blockLines !== check.lines || crc32(bytesOf(chunks, starts, verifiedBytes, lineStart)) !== check.crc) {
          return { checks, verifiedBytes, verifiedLines, mismatch: { lines: check.lines }, rest: true };
        }
        verifiedBytes = lineEnd + 1;
        verifiedLines = lines;
      }
      lineStart = lineEnd + 1;
    }
  }
  return { checks, verifiedBytes, verifiedLines, mismatch: undefined, rest: total > verifiedBytes };
}
