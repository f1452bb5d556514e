import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type CorruptLine, isCorruptLine, type LazyRecording, type RecordedEvent, type Recording } from '../testing/recording';
import { type InflatedFile, inflateFile, recordingLines } from './internal/recordingLines';
import { MANIFEST, type RecordingManifest } from './recordingManifest';

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
 * A recording whose lines are read as they are played (see {@link loadRecording} with `{ lazy: true }`): the
 * `lines` of `LazyRecording` (`ex-streams/testing`), the manifest and the files.
 *
 * @example
 * ```ts
 * import { loadRecording } from 'ex-streams/node';
 * const recording = await loadRecording('./rec', { lazy: true });
 * let frames = 0;
 * for (const line of recording.lines) if ('k' in line && line.k === 'f') frames++; // one chunk of text in memory at a time
 * console.log(frames, 'frames in', recording.files.length, 'files');
 * ```
 */
export interface LazyLoadedRecording extends LazyRecording {
  /** The directory's `manifest.json`, when there was a readable one. */
  readonly manifest: RecordingManifest | undefined;
  /** The files, in order. */
  readonly files: readonly string[];
}

/**
 * Options of {@link loadRecording}.
 *
 * @example
 * ```ts
 * import { loadRecording } from 'ex-streams/node';
 * const day = await loadRecording('./rec/2026-11-25', { lazy: true }); // a day: read while it is replayed
 * ```
 */
export interface LoadRecordingOptions {
  /**
   * `true`: read nothing but the directory now, and the files' lines each time `lines` is iterated, as the replay
   * plays them (one chunk of text in memory at a time, whatever the recording's size: a recorded day). Default
   * `false`: every line read into `events` now.
   */
  readonly lazy?: boolean | undefined;
}

/**
 * Reads a recording made by {@link recordMarket} (or `recordUser`), for `replayMarket` / `exchange.server.replay`
 * (which then play it synchronously, e.g. inside `testScheduler.run`). `source`: the recording's directory (every
 * `*.jsonl.gz` by name, which is time order: `market-<UTC start>-<n>`), one file, or a list of files in order.
 *
 * By default every line is read into memory (`events`, `corrupt`): right for a slice, a test, a few minutes. With
 * `{ lazy: true }` the files are read while they are played: `replayMarket` pulls their lines in order as it goes, one
 * chunk of text in memory at a time, so a recorded day (gigabytes of text) replays at the speed of a short recording.
 *
 * A file cut by a crash (no gzip trailer) is read up to its last flush (`Z_SYNC_FLUSH`); its last line, if cut, and
 * any line that is not a recorded event are `corrupt` (a `DecodeError` each, with the file, the line number and the
 * time of the line before); the rest is read. A file whose compressed data is damaged gives what came before the
 * damage and one corrupt entry (kind `zip`). Rejects only when `source` cannot be read at all (a missing directory or
 * file); a lazy recording never throws while it is read (a file that has gone is a corrupt entry).
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
export function loadRecording(source: string | readonly string[], options?: { readonly lazy?: false | undefined }): Promise<LoadedRecording>;
export function loadRecording(source: string | readonly string[], options: { readonly lazy: true }): Promise<LazyLoadedRecording>;
export function loadRecording(source: string | readonly string[], options?: LoadRecordingOptions): Promise<LoadedRecording | LazyLoadedRecording>;
export async function loadRecording(source: string | readonly string[], options: LoadRecordingOptions = {}): Promise<LoadedRecording | LazyLoadedRecording> {
  const { files, manifest } = await filesOf(source);
  const inflated: InflatedFile[] = [];
  for (const path of files) inflated.push(await inflateFile(path));
  if (options.lazy === true) return { lines: { [Symbol.iterator]: () => recordingLines(inflated) }, manifest, files };
  const events: RecordedEvent[] = [];
  const corrupt: CorruptLine[] = [];
  for (const line of recordingLines(inflated)) {
    if (isCorruptLine(line)) corrupt.push(line);
    else events.push(line);
  }
  return { events, corrupt, manifest, files };
}
