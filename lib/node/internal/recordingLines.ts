import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { constants, createGunzip } from 'node:zlib';
import * as E from 'fp-ts/Either';
import { DecodeError } from '../../errors';
import { type CorruptLine, readRecordedLine, RECORDING_FORMATS, type RecordedEvent } from '../../testing/recording';
import { RecordingCorruptError, RecordingUnreadableError } from '../../testing/recordingErrors';
import { readCheckLine, verifyBlocks } from './recordingBlocks';

/** A recording file's text as gunzipped (UTF-8 bytes, compact, off the JS heap), and how its reading ended. @internal */
export interface InflatedFile {
  readonly file: string;
  readonly chunks: readonly Buffer[];
  /** What stopped zlib (damaged data, a checksum that does not match), `undefined` when it read to the end. */
  readonly zipError: string | undefined;
  /** Whether the file ends with its gzip trailer (a file cut by a crash has none). */
  readonly trailer: boolean;
}

/** What the loader knows of a file's time span before reading it: from the manifest, or the time in its name. @internal */
export interface FileSpan {
  /** Receive time of its first line (manifest), ms. */
  readonly first?: number | undefined;
  /** Receive time of its last line (manifest), ms. */
  readonly last?: number | undefined;
  /** The UTC second its name says it was started (`market-20261125T210922Z-0001.jsonl.gz`), ms. */
  readonly named?: number | undefined;
}

/** A file checked and ready to be read: its text up to the first damage, and that damage (reported after it). @internal */
export interface CheckedFile {
  readonly file: string;
  /** The text to deliver: up to the last verified block (format 3), all of it or nothing (formats 1 and 2). */
  readonly chunks: readonly Buffer[];
  /** The damage after `chunks`, reported as a corrupt line once they are read. */
  readonly damage: RecordingCorruptError | undefined;
  readonly span: FileSpan;
}

/** A line going back more than this before the line before it (in its file) is refused: a clock does not step back so far. */
export const MAX_BACK_MS = 60_000;
/** Without a manifest, a line more than this after the line before it (in its file) is refused. */
export const MAX_JUMP_MS = 6 * 3_600_000;
/** The times a `Date` holds. */
const MAX_TIME_MS = 8.64e15;

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Gunzips one recording file (`node:zlib`, streaming, 1 MiB output chunks: a fifth less time than the default 16 KiB,
 * measured) into its text's bytes, kept as they come out. A file cut by a crash (no gzip trailer) is read up to its
 * last flush (`Z_SYNC_FLUSH`); a file whose compressed data is damaged gives what came before and `zipError`.
 * Rejects with a `RecordingUnreadableError` (`missing-files`) when the file cannot be read.
 * @internal
 */
export async function inflateFile(path: string): Promise<InflatedFile> {
  const file = basename(path);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new RecordingUnreadableError(path, 'missing-files', [file], `cannot be read: ${messageOf(e)}`);
  }
  const whole = await inflate(file, bytes, 1024 * 1024);
  // on damage, zlib drops the output chunk it was filling: read again in small chunks, to keep what came before
  return whole.zipError === undefined ? whole : inflate(file, bytes, 16 * 1024);
}

function inflate(file: string, bytes: Buffer, chunkSize: number): Promise<InflatedFile> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const gz = createGunzip({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize });
    gz.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    gz.on('error', (e) => resolve({ file, chunks, zipError: messageOf(e), trailer: false }));
    // the trailer's last 4 bytes are the text's length (mod 2^32); zlib has checked its CRC when it read it
    gz.on('end', () => resolve({ file, chunks, zipError: undefined, trailer: bytes.length >= 18 && bytes.readUInt32LE(bytes.length - 4) === size % 2 ** 32 }));
    gz.end(bytes);
  });
}

/** The first `limit` bytes of the text in `chunks` (views, no copy). */
function truncated(chunks: readonly Buffer[], limit: number): Buffer[] {
  const out: Buffer[] = [];
  let left = limit;
  for (const chunk of chunks) {
    if (left <= 0) break;
    out.push(left >= chunk.length ? chunk : chunk.subarray(0, left));
    left -= chunk.length;
  }
  return out;
}

/** The format version the file's first line (its `start`) names, `undefined` when it has none that says. */
function versionOf(chunks: readonly Buffer[]): unknown {
  const head = Buffer.concat(chunks.slice(0, 2)).subarray(0, 4096);
  const end = head.indexOf(10);
  try {
    const value = JSON.parse(head.toString('utf8', 0, end < 0 ? head.length : end)) as { k?: unknown; v?: unknown };
    return value.k === 'start' ? value.v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a gunzipped file before any of its lines is read: a file of format 3 block by block (its check lines), up to
 * the first block that does not match, the end of what zlib could read, or text after the last check line (a file cut
 * by a crash); a file of format 1 or 2 as a whole (gzip's checksum: a damaged one gives none of its lines, since the
 * damage cannot be placed). Throws a `RecordingUnreadableError` (`unknown-version`) for a file whose verified first
 * line names a format this library does not know.
 * @internal
 */
export function checkFile(inflated: InflatedFile, span: FileSpan, path: string): CheckedFile {
  const { file, chunks, zipError, trailer } = inflated;
  const blocks = verifyBlocks(chunks);
  const version = versionOf(chunks);
  const blocked = blocks.checks > 0 || version === 3;
  const trusted = blocked ? blocks.verifiedLines > 0 : zipError === undefined && chunks.length > 0;
  if (trusted && version !== undefined && !RECORDING_FORMATS.includes(version as number)) {
    throw new RecordingUnreadableError(path, 'unknown-version', [file], `format version ${JSON.stringify(version).slice(0, 20)} is not one this version of ex-streams reads (${RECORDING_FORMATS.join(', ')}): upgrade ex-streams`);
  }
  if (!blocked) {
    if (zipError === undefined && !chunks.some((c) => c.includes(10))) {
      // not one whole line: a file cut before its first flush, or cut down to its first bytes
      return { file, chunks: [], damage: new RecordingCorruptError(file, 1, 'unverified', 'not one whole line (a file cut short): nothing delivered'), span };
    }
    if (zipError === undefined) return { file, chunks, damage: undefined, span };
    const damage = new RecordingCorruptError(file, 1, 'compressed', `gzip data damaged (${zipError}): a file of format ${typeof version === 'number' ? version : '1 or 2'} has one checksum for the whole file, so none of its lines is delivered`);
    return { file, chunks: [], damage, span };
  }
  const first = blocks.verifiedLines + 1;
  const kept = truncated(chunks, blocks.verifiedBytes);
  const damage =
    blocks.mismatch !== undefined
      ? new RecordingCorruptError(file, first, 'checksum', `a block of ${blocks.mismatch.lines} lines does not match its checksum: it and the rest of the file are not delivered`)
      : zipError !== undefined
        ? new RecordingCorruptError(file, first, 'compressed', `gzip data damaged (${zipError})${blocks.rest ? ': this line and the rest of the file are not delivered' : ' after the last line (every line was verified and delivered)'}`)
        : blocks.rest
          ? new RecordingCorruptError(file, first, 'unverified', trailer ? 'lines after the last checksum: not delivered' : 'lines after the last flush of a file cut by a crash (no checksum yet): not delivered')
          : !trailer
            ? // Cut right after a checksum: every line read was verified, but the file does not end as a whole one does.
              new RecordingCorruptError(file, first, 'unverified', 'the file ends without its gzip trailer (cut short, or still being written): what came after its last checksum is not known')
            : undefined;
  return { file, chunks: kept, damage, span };
}

/** Why `t` cannot be the time of the next line of its file (`before`: the time of the line delivered before it there), or `undefined`. */
function timeFault(t: number, before: number | undefined, span: FileSpan): string | undefined {
  if (!(Math.abs(t) <= MAX_TIME_MS)) return `time ${t} is no date`;
  if (span.first !== undefined && t < span.first - MAX_BACK_MS) return `time ${t} is before the file's first line (${span.first}, manifest)`;
  if (span.last !== undefined && t > span.last + MAX_BACK_MS) return `time ${t} is after the file's last line (${span.last}, manifest)`;
  if (before === undefined) {
    if (span.named !== undefined && (t < span.named - MAX_BACK_MS || t > span.named + 1000 + MAX_BACK_MS)) return `time ${t} is not when the file's name says it was started (${span.named})`;
    return undefined;
  }
  if (t < before - MAX_BACK_MS) return `time ${t} goes back ${before - t} ms from the line before (bound ${MAX_BACK_MS} ms)`;
  if (span.last === undefined && t > before + MAX_JUMP_MS) return `time ${t} is ${t - before} ms after the line before (bound without a manifest: ${MAX_JUMP_MS} ms)`;
  return undefined;
}

/**
 * The lines of checked recording files, in order, decoded as they are asked for (a chunk's text at a time: the lines
 * of a day are never objects or strings all at once). Yields each line's event, or a {@link CorruptLine} in its place
 * (cut JSON, a shape that is no `RecordedEvent`, a time outside the file's span or going back beyond
 * {@link MAX_BACK_MS}, refused line by line; a file's damage after its last delivered line; a line cut by a crash).
 * Check lines are read past. Never throws.
 * @internal
 */
export function* recordingLines(files: readonly CheckedFile[]): Generator<RecordedEvent | CorruptLine, void, undefined> {
  let lastTime = 0;
  for (const { file, chunks, damage, span } of files) {
    let lineNo = 0;
    /** The time of the last line delivered from this file. */
    let before: number | undefined;
    /** The bytes of a line that goes on in the next chunk. */
    let rest: Buffer | undefined;
    for (const chunk of chunks) {
      // cut at the last newline byte (always a character boundary in UTF-8) and decode up to it in one go: a chunk's
      // text is one string (no decoder state, no concatenation), the line across the cut joined from its bytes
      let from = 0;
      let joined: string | undefined;
      if (rest !== undefined) {
        const end = chunk.indexOf(10);
        if (end < 0) {
          rest = Buffer.concat([rest, chunk]);
          continue;
        }
        joined = Buffer.concat([rest, chunk.subarray(0, end)]).toString('utf8');
        rest = undefined;
        from = end + 1;
      }
      const last = chunk.lastIndexOf(10);
      const texts = last >= from ? chunk.toString('utf8', from, last).split('\n') : [];
      if (joined !== undefined) texts.unshift(joined);
      if (Math.max(last + 1, from) < chunk.length) rest = chunk.subarray(Math.max(last + 1, from));
      for (const text of texts) {
        lineNo++;
        if (text === '' || readCheckLine(text) !== undefined) continue;
        const event = readRecordedLine(text);
        if (E.isLeft(event)) {
          yield { file, line: lineNo, afterTime: lastTime, error: event.left };
          continue;
        }
        const fault = timeFault(event.right.t, before, span);
        if (fault !== undefined) {
          yield { file, line: lineNo, afterTime: lastTime, error: new RecordingCorruptError(file, lineNo, 'time', `${fault}: this line is not delivered`) };
          continue;
        }
        before = event.right.t;
        lastTime = event.right.t;
        yield event.right;
      }
    }
    if (damage !== undefined) yield { file, line: damage.line, afterTime: lastTime, error: damage };
    if (rest !== undefined) {
      lineNo++;
      const characters = rest.toString('utf8').length;
      yield { file, line: lineNo, afterTime: lastTime, error: new DecodeError('json', `${file}: last line cut short (${characters} characters: a recording cut by a crash)`) };
    }
  }
}
