/**
 * How far a recording got: what `progress$` of a recorder emits at each flush (every second) and once at the end.
 *
 * @example
 * ```ts
 * import type { RecordingProgress } from 'ex-streams/node';
 * const line = (p: RecordingProgress): string => `${p.messages} messages, ${(p.bytes / 1024).toFixed(0)} KiB, ${p.files} file(s)`;
 * ```
 */
export interface RecordingProgress {
  /** Frames on disk: recorded and flushed (what a crash now would keep; frames that came during the flush count at the next one). */
  readonly messages: number;
  /** Compressed bytes written. */
  readonly bytes: number;
  /** Files written (the current one included). */
  readonly files: number;
}
