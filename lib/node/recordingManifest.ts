/**
 * One file of a recording, as `manifest.json` describes it.
 *
 * @example
 * ```ts
 * import type { RecordingFileInfo } from 'ex-streams/node';
 * const file: RecordingFileInfo = {
 *   name: 'market-20261125T210922Z-0001.jsonl.gz', first: 1764104962000, last: 1764104992000,
 *   messages: 1830, lines: 1834, bytes: 91234, symbols: ['BTCUSDT'], topics: ['trade', 'depth'], complete: true,
 * };
 * ```
 */
export interface RecordingFileInfo {
  /** The file's name in the recording's directory (never a listen key, never an address). */
  readonly name: string;
  /** Receive time of its first line (ms, the recorder's clock). */
  readonly first: number;
  /** Receive time of its last line written so far. */
  readonly last: number;
  /** Frames it holds. */
  readonly messages: number;
  /** Lines it holds (frames, lifecycle, gaps, its `start` line; not the check lines of format 3). */
  readonly lines: number;
  /** Its size on disk (compressed bytes written so far). */
  readonly bytes: number;
  /** The symbols subscribed while it was written. */
  readonly symbols: readonly string[];
  /** The request topics subscribed while it was written (`trade`, `depth`, `kline_1m`…; `private` for a user stream). */
  readonly topics: readonly string[];
  /**
   * `true` once the file was closed with its gzip trailer (rotation or `stop()`); `false` while it is written, or for
   * the last file of a recording cut by a crash (readable up to its last flush).
   */
  readonly complete: boolean;
}

/**
 * `manifest.json` of a recording directory: rewritten (write to a temporary file, then rename) at every flush, so it
 * is always whole.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import type { RecordingManifest } from 'ex-streams/node';
 * const manifest = JSON.parse(readFileSync('rec/manifest.json', 'utf8')) as RecordingManifest;
 * console.log(manifest.files.map((f) => `${f.name}: ${f.messages} frames`), manifest.complete);
 * ```
 */
export interface RecordingManifest {
  /** Format version: 1. */
  readonly version: 1;
  /** `public` (market streams) or `private` (a user stream). */
  readonly stream: 'public' | 'private';
  /** The files, oldest first. */
  readonly files: readonly RecordingFileInfo[];
  /** `true` once the recorder stopped cleanly (every file complete). */
  readonly complete: boolean;
}

/** The manifest's file name. @internal */
export const MANIFEST = 'manifest.json';
