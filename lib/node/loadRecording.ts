import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { type CorruptLine, isCorruptLine, type LazyRecording, type RecordedEvent, type Recording } from '../testing/recording';
import { RecordingUnreadableError } from '../testing/recordingErrors';
import { type CheckedFile, checkFile, type FileSpan, inflateFile, recordingLines } from './internal/recordingLines';
import { MANIFEST, type RecordingFileInfo, type RecordingManifest } from './recordingManifest';

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

/** The directory's manifest, `undefined` when it has none or an unreadable one; rejects for a version it does not know. */
async function manifestOf(dir: string): Promise<RecordingManifest | undefined> {
  let value: Partial<Omit<RecordingManifest, 'version'>> & { version?: unknown };
  try {
    value = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as typeof value;
  } catch {
    return undefined;
  }
  if (value.version !== 1) throw new RecordingUnreadableError(join(dir, MANIFEST), 'unknown-version', [], `manifest version ${JSON.stringify(value.version)?.slice(0, 20)} is not one this version of ex-streams reads (1): upgrade ex-streams`);
  const fine = (f: Partial<RecordingFileInfo> | undefined): boolean => typeof f?.name === 'string' && !/[\\/]/.test(f.name) && typeof f.first === 'number' && typeof f.last === 'number';
  return Array.isArray(value.files) && value.files.every(fine) ? (value as RecordingManifest) : undefined;
}

/** The `RecordingUnreadableError` for a source that `stat` cannot see (`e`: its error). */
function notFound(path: string, e: unknown): RecordingUnreadableError {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return new RecordingUnreadableError(path, 'not-found', [], `no recording there (${typeof code === 'string' ? code : String(e).slice(0, 200)})`);
}

/**
 * The files of `source`: every `*.jsonl.gz` of the directory by name (time order); or the paths given. Rejects with a
 * `RecordingUnreadableError` for a source that is not there, a directory without recording files, and files the
 * manifest names that are not in the directory.
 */
async function filesOf(source: string | readonly string[]): Promise<{ files: string[]; manifest: RecordingManifest | undefined }> {
  if (typeof source !== 'string') {
    if (source.length === 0) throw new RecordingUnreadableError('(no files)', 'empty', [], 'no recording file given');
    return { files: [...source], manifest: undefined };
  }
  const info = await stat(source).catch((e: unknown) => {
    throw notFound(source, e);
  });
  if (!info.isDirectory()) return { files: [source], manifest: undefined };
  const manifest = await manifestOf(source);
  // By name: `<prefix>-<UTC start time>-<n>` sorts in time order, also across recorder runs into one directory (the
  // manifest describes the last run only).
  const names = (await readdir(source)).filter((name) => name.endsWith('.jsonl.gz')).sort();
  const missing = (manifest?.files ?? []).map((f) => f.name).filter((name) => !names.includes(name));
  if (missing.length > 0) {
    throw new RecordingUnreadableError(source, 'missing-files', missing, `${missing.length} of the ${manifest!.files.length} files its manifest.json names are missing: ${missing.join(', ').slice(0, 300)}`);
  }
  if (names.length === 0) throw new RecordingUnreadableError(source, 'empty', [], 'no recording file (*.jsonl.gz) in the directory');
  return { files: names.map((name) => join(source, name)), manifest };
}

const NAMED = /-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-\d+\.jsonl\.gz$/;

/** What is known of a file's span: its manifest entry's first and last times, the UTC second in its name. */
function spanOf(path: string, manifest: RecordingManifest | undefined): FileSpan {
  const name = basename(path);
  const entry = manifest?.files.find((f) => f.name === name);
  const m = NAMED.exec(name);
  const named = m === null ? undefined : Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return { first: entry?.first, last: entry?.last, named: named !== undefined && Number.isFinite(named) ? named : undefined };
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
 * Every file is checked before any of its lines is delivered (see docs/history-and-replay.md, "What a damaged
 * recording gives"): a file of format 3 (what the recorder writes) block by block, so what comes
 * before a damaged block is delivered and nothing from it on; a file of format 1 or 2 as a whole (gzip's own
 * checksum), so a damaged one gives none of its lines. The damage is one corrupt entry, a `RecordingCorruptError`
 * naming the file and the first line not delivered. A line whose time lies outside its file's span (the manifest's
 * first and last times, the time in its name) or goes back more than a minute from the line before is refused on its
 * own (a `RecordingCorruptError`, damage `time`); any line that is not a recorded event is a `DecodeError`. A file cut
 * by a crash (no gzip trailer) is read up to its last flush (`Z_SYNC_FLUSH`).
 *
 * Rejects with a `RecordingUnreadableError` when `source` is not there (`not-found`), is a directory without
 * recording files (`empty`), when files its manifest names are missing or a file cannot be read (`missing-files`),
 * and for a file or manifest of a format version it does not know (`unknown-version`). A lazy recording never throws
 * while it is read (the files are read and checked by `loadRecording` itself).
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
  const inflated: CheckedFile[] = [];
  for (const path of files) inflated.push(checkFile(await inflateFile(path), spanOf(path, manifest), path));
  if (options.lazy === true) return { lines: { [Symbol.iterator]: () => recordingLines(inflated) }, manifest, files };
  const events: RecordedEvent[] = [];
  const corrupt: CorruptLine[] = [];
  for (const line of recordingLines(inflated)) {
    if (isCorruptLine(line)) corrupt.push(line);
    else events.push(line);
  }
  return { events, corrupt, manifest, files };
}
