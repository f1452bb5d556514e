import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { constants, createGunzip } from 'node:zlib';
import * as E from 'fp-ts/Either';
import { DecodeError } from '../../errors';
import { type CorruptLine, readRecordedLine, type RecordedEvent } from '../../testing/recording';

/** A recording file's text as bytes (UTF-8, as gunzipped: compact, off the JS heap), and what stopped its reading. @internal */
export interface InflatedFile {
  readonly file: string;
  readonly chunks: readonly Buffer[];
  readonly damage: DecodeError | undefined;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Gunzips one recording file (`node:zlib`, streaming, 1 MiB output chunks: a fifth less time than the default 16 KiB,
 * measured) into its text's bytes, kept as they come out. A file cut by a crash (no gzip trailer) is read up to its
 * last flush (`Z_SYNC_FLUSH`); a file whose compressed data is damaged, or that cannot be read, gives what came
 * before and `damage`. Never rejects.
 * @internal
 */
export async function inflateFile(path: string): Promise<InflatedFile> {
  const file = basename(path);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    return { file, chunks: [], damage: new DecodeError('zip', `${file}: cannot be read: ${messageOf(e)}`) };
  }
  const whole = await inflate(file, bytes, 1024 * 1024);
  // on damage, zlib drops the output chunk it was filling: read again in small chunks, to keep what came before
  return whole.damage === undefined ? whole : inflate(file, bytes, 16 * 1024);
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
    gz.on('error', (e) => resolve({ file, chunks, damage: new DecodeError('zip', `${file}: compressed data unreadable after ${size} bytes of text: ${messageOf(e)}`) }));
    gz.on('end', () => resolve({ file, chunks, damage: undefined }));
    gz.end(bytes);
  });
}

/**
 * The lines of gunzipped recording files, in order, decoded as they are asked for (a chunk's text at a time: the
 * lines of a day are never objects or strings all at once). Yields each line's event, or a {@link CorruptLine} in its
 * place (cut JSON, a shape that is no `RecordedEvent`; a file's damage after its last readable line; a line cut by a
 * crash). Never throws.
 * @internal
 */
export function* recordingLines(files: readonly InflatedFile[]): Generator<RecordedEvent | CorruptLine, void, undefined> {
  let lastTime = 0;
  for (const { file, chunks, damage } of files) {
    let lineNo = 0;
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
        if (text === '') continue;
        const event = readRecordedLine(text);
        if (E.isLeft(event)) {
          yield { file, line: lineNo, afterTime: lastTime, error: event.left };
          continue;
        }
        lastTime = event.right.t;
        yield event.right;
      }
    }
    if (damage !== undefined) yield { file, line: 0, afterTime: lastTime, error: damage };
    if (rest !== undefined) {
      lineNo++;
      const characters = rest.toString('utf8').length;
      yield { file, line: lineNo, afterTime: lastTime, error: new DecodeError('json', `${file}: last line cut short (${characters} characters: a recording cut by a crash)`) };
    }
  }
}
