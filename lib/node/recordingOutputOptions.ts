import type { SchedulerLike } from 'rxjs';
import type { WebSocketCtor } from '../socket/webSocketLike';

/**
 * Where and how a recording is written, and what it taps: the options `recordMarket` and `recordUser` share.
 *
 * @example
 * ```ts
 * import type { RecordingOutputOptions } from 'ex-streams/node';
 * const output: RecordingOutputOptions = { out: './rec/2026-11-25', maxFileBytes: 256 * 1024 * 1024, onError: (e) => console.error(e.message) };
 * ```
 */
export interface RecordingOutputOptions {
  /** The recording's directory (made if missing). Files are appended there, never overwritten. */
  readonly out: string;
  /** A file is closed and the next one started at this many compressed bytes. Default 64 MiB. */
  readonly maxFileBytes?: number | undefined;
  /** … or when its first line is this old, ms. Default 3 600 000 (one file an hour). */
  readonly maxFileMs?: number | undefined;
  /** How often zlib's output is flushed to disk (`Z_SYNC_FLUSH`) and the manifest rewritten, ms. Default 1000. */
  readonly flushIntervalMs?: number | undefined;
  /** The socket class under the tap. Default `nodeWebSocket` (`ws`). */
  readonly WebSocketCtor?: WebSocketCtor | undefined;
  /** Receive times and flushes. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
  /** Where write failures (disk full…) and stream errors are reported. Default: ignored (the recording goes on). */
  readonly onError?: ((error: Error) => void) | undefined;
}
