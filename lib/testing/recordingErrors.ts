/**
 * The typed errors of a recording that cannot be trusted (`loadRecording` of `ex-streams/node` finds them; a replay
 * puts a {@link RecordingCorruptError} on `errors$` at the time of the last line delivered before it).
 */

/**
 * What was wrong with the part of a recording a {@link RecordingCorruptError} refuses:
 * - `checksum`: a block of lines does not match its checksum (format 3): the block and the rest of the file refused;
 * - `compressed`: the gzip data cannot be read (or, for a file of format 1 or 2, its one checksum does not match:
 *   the whole file refused, since such a file can only be checked as a whole);
 * - `unverified`: lines after the file's last checksum (format 3), e.g. the end of a file cut by a crash;
 * - `time`: one line whose time lies outside the recording's span, or goes back beyond the bound (that line only).
 *
 * @example
 * ```ts
 * import type { RecordingDamage } from 'ex-streams/testing';
 * const words: Record<RecordingDamage, string> = { checksum: 'bad block', compressed: 'bad gzip', unverified: 'cut', time: 'bad time' };
 * ```
 */
export type RecordingDamage = 'checksum' | 'compressed' | 'unverified' | 'time';

/**
 * A damaged part of a recording, found before any of it was delivered: nothing from `line` on (for `time`: that line
 * only) was played. `file` is the file's name, `line` the first line (1-based, as `zcat file | sed -n '<line>p'`
 * counts) not delivered.
 *
 * @example
 * ```ts
 * import { RecordingCorruptError } from 'ex-streams/testing';
 * const e = new RecordingCorruptError('market-20261125T210922Z-0001.jsonl.gz', 1834, 'checksum', 'block of 212 lines does not match its checksum');
 * e.message; // 'market-20261125T210922Z-0001.jsonl.gz line 1834: block of 212 lines does not match its checksum'
 * ```
 */
export class RecordingCorruptError extends Error {
  override readonly name = 'RecordingCorruptError';
  constructor(
    /** The file's name (no directory). */
    readonly file: string,
    /** The first line not delivered (1-based). */
    readonly line: number,
    /** What was wrong. */
    readonly damage: RecordingDamage,
    detail: string,
  ) {
    super(`${file} line ${line}: ${detail}`);
  }
}

/**
 * Why a recording could not be read at all (see {@link RecordingUnreadableError}):
 * - `not-found`: the directory or file given does not exist (or cannot be read);
 * - `empty`: a directory without any `*.jsonl.gz` file;
 * - `missing-files`: files its `manifest.json` names are not there (or cannot be read);
 * - `unknown-version`: a file (or the manifest) of a format version this library does not know.
 *
 * @example
 * ```ts
 * import type { RecordingUnreadableReason } from 'ex-streams/testing';
 * const exitCode = (reason: RecordingUnreadableReason): number => (reason === 'unknown-version' ? 3 : 1);
 * ```
 */
export type RecordingUnreadableReason = 'not-found' | 'empty' | 'missing-files' | 'unknown-version';

/**
 * A recording `loadRecording` refuses to read (it rejects with this error): `path` is what was given or the file at
 * fault, `files` the file names concerned (the missing ones, the one of an unknown version).
 *
 * @example
 * ```ts
 * import { RecordingUnreadableError } from 'ex-streams/testing';
 * const e = new RecordingUnreadableError('rec', 'empty', [], 'no recording file (*.jsonl.gz) in the directory');
 * e.message; // 'rec: no recording file (*.jsonl.gz) in the directory'
 * ```
 */
export class RecordingUnreadableError extends Error {
  override readonly name = 'RecordingUnreadableError';
  constructor(
    /** The directory or file. */
    readonly path: string,
    readonly reason: RecordingUnreadableReason,
    /** The files concerned (names, no directory). */
    readonly files: readonly string[],
    detail: string,
  ) {
    super(`${path}: ${detail}`);
  }
}
