import { asyncScheduler } from 'rxjs';
import { nodeWebSocket } from '../nodeWebSocket';
import type { RecordingOutputOptions } from '../recordingOutputOptions';
import type { RecorderSettings } from './recorderCore';

/** What a recorder's output options set of its settings, defaults applied. @internal */
export type RecordingOutput = Pick<RecorderSettings, 'dir' | 'maxFileBytes' | 'maxFileMs' | 'flushIntervalMs' | 'closeWaitMs' | 'WebSocketCtor' | 'scheduler' | 'onError'>;

/**
 * The recorder settings `recordMarket` and `recordUser` take from their {@link RecordingOutputOptions} (picked, so a
 * recorder gets none of the stream's own options), each default in this one place.
 * @internal
 */
export function recordingOutput(options: RecordingOutputOptions): RecordingOutput {
  const {
    out,
    maxFileBytes = 64 * 1024 * 1024,
    maxFileMs = 3_600_000,
    flushIntervalMs = 1000,
    WebSocketCtor = nodeWebSocket,
    scheduler = asyncScheduler,
    onError = () => undefined,
  } = options;
  return { dir: out, maxFileBytes, maxFileMs, flushIntervalMs, closeWaitMs: 2000, WebSocketCtor, scheduler, onError };
}
