import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { constants, createGunzip, gunzip } from 'node:zlib';
import * as E from 'fp-ts/Either';
import { DecodeError } from '../errors';
import type { CorruptLine, RecordedEvent, Recording } from '../testing/recording';
import { readRecordedLine } from '../testing/recording';
import { MANIFEST, type RecordingManifest } from './recordingManifest';

const gunzipAsync = promisify(gunzip);

/**
 * A recording read from its files (see {@link loadRecording}): the events and corrupt lines of `Recording`, and the
 * manifest when the directory had one.
 *
 * @example
 * ```ts
 * import { loadRecording, type LoadedRecording } from 'ex-streams/node';
 * const recording: LoadedRecording = await loadRecording('./rec');
 * console.log(recording.events.length, 'lines', recording.corrupt.length, 'unreadable', recording.manifest?.complete);
 * ```
 */
export interface LoadedRecording extends Recording {
  readonly corrupt: readonly CorruptLine[];
  /** The directory's `manifest.json`, when there was a readable one. */
  readonly manifest: RecordingManifest | undefined;
  /** The files read, in order. */
  readonly files: readonly string[];
}

async function manifestOf(dir: string): Promise<RecordingManifest | undefined> {
  try {
    const value = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Partial<RecordingManifest>;
    return Array.isArray(value.files) && value.files.every((f) => typeof f?.name === 'string' && !/[\\/]/.test(f.name))
      ? (value as RecordingManifest)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The files of `source`: every `*.jsonl.gz` of the directory by name (time order); or the paths given. */
async function filesOf(source: string | readonly string[]): Promise<{ files: string[]; manifest: RecordingManifest | undefined }> {
  if (typeof source !== 'string') return { files: [...source], manifest: undefined };
  if (!(await stat(source)).isDirectory()) return { files: [source], manifest: undefined };
  const manifest = await manifestOf(source);
  // By name: `<prefix>-<UTC start time>-<n>` sorts in time order, also across recorder runs into one directory (the
  // manifest describes the last run only).
  const names = (await readdir(source)).filter((name) => name.endsWith('.jsonl.gz')).sort();
  return { files: names.map((name) => join(source, name)), manifest };
}

/**
 * Reads a recording made by {@link recordMarket} (or `recordUser`) into memory, for `replayMarket` /
 * `exchange.server.replay` (which then play it synchronously, e.g. inside `testScheduler.run`). `source`: the
 * recording's directory (every `*.jsonl.gz` by name, which is time order: `market-<UTC start>-<n>`), one file, or a
 * list of files in order.
 *
 * A file cut by a crash (no gzip trailer) is read up to its last flush (`Z_SYNC_FLUSH`); its last line, if cut, and
 * any line that is not a recorded event are `corrupt` (a `DecodeError` each, with the file, the line number and the
 * time of the line before); the rest is read. A file whose compressed data is damaged gives what came before the
 * damage and one corrupt entry. Rejects only when `source` cannot be read at all (a missing directory or file).
 *
 * @example
 * ```ts
 * import { VirtualTimeScheduler } from 'rxjs';
 * import { loadRecording } from 'ex-streams/node';
 * import { replayMarket } from 'ex-streams/testing';
 * const recording = await loadRecording('./rec');
 * const scheduler = new VirtualTimeScheduler(undefined, Infinity);
 * replayMarket(recording, { scheduler }).depth('BTCUSDT').subscribe((book) => console.log(book.b[0]));
 * scheduler.flush();
 * ```
 */
export async function loadRecording(source: string | readonly string[]): Promise<LoadedRecording> {
  const { files, manifest } = await filesOf(source);
  const events: RecordedEvent[] = [];
  const corrupt: CorruptLine[] = [];
  let lastTime = 0;
  for (const path of files) {
    const file = basename(path);
    const bad = (line: number, error: DecodeError): void => {
      corrupt.push({ file, line, afterTime: lastTime, error });
    };
    let text: string;
    try {
      const bytes = await readFile(path);
      // 1 MiB output chunks: a fifth less time than zlib's default 16 KiB on a recording (measured)
      text = (await gunzipAsync(bytes, { finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 1024 * 1024 })).toString('utf8');
    } catch (e) {
      const partial = await partialText(path);
      text = partial.text;
      bad(0, new DecodeError('zip', `${file}: compressed data unreadable after ${partial.text.length} characters: ${e instanceof Error ? e.message : String(e)}`));
    }
    const lines = text.split('\n');
    const cut = lines.pop() ?? '';
    lines.forEach((line, i) => {
      if (line === '') return;
      const read = readRecordedLine(line);
      if (E.isLeft(read)) return bad(i + 1, read.left);
      events.push(read.right);
      lastTime = read.right.t;
    });
    if (cut !== '') bad(lines.length + 1, new DecodeError('json', `${file}: last line cut short (${cut.length} characters: a recording cut by a crash)`));
  }
  return { events, corrupt, manifest, files };
}

/** What a damaged gzip file gives before the damage (zlib's streaming inflate, chunk by chunk). */
async function partialText(path: string): Promise<{ text: string }> {
  const bytes = await readFile(path).catch(() => Buffer.alloc(0));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const gz = createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
    const done = (): void => resolve({ text: Buffer.concat(chunks).toString('utf8') });
    gz.on('data', (c: Buffer) => chunks.push(c));
    gz.on('error', done);
    gz.on('end', done);
    gz.end(bytes);
  });
}
