import { BehaviorSubject, filter, firstValueFrom, map, type Observable, race, repeat, ReplaySubject, type SchedulerLike, timer } from 'rxjs';
import { redact } from '../../internal/redact';
import type { WebSocketCtor } from '../../socket/webSocketLike';
import type { RecordedEvent } from '../../testing/recording';
import type { RecordingProgress } from '../recordingProgress';
import { RecordingFiles, type RecordingFilesSettings } from './recordingFiles';
import { tapWebSocketCtor } from './tapWebSocketCtor';

/** Settings of a recorder (see `RecordMarketOptions`). @internal */
export interface RecorderSettings extends Omit<RecordingFilesSettings, 'onError'> {
  readonly WebSocketCtor: WebSocketCtor;
  readonly scheduler: SchedulerLike;
  readonly flushIntervalMs: number;
  /** How long `stop()` waits for the socket's close event before closing the files anyway. */
  readonly closeWaitMs: number;
  readonly onError: (error: Error) => void;
}

/** The recorder around one stream factory: its tapped `WebSocketCtor`, gap lines, progress and stop. @internal */
export interface RecorderCore {
  readonly WebSocketCtor: WebSocketCtor;
  /** Writes a line now (gap signals). */
  write(event: RecordedEvent): void;
  readonly progress$: Observable<RecordingProgress>;
  /**
   * Detaches the streams (`detach`), waits for the socket to close (unless a user still holds it), ends the files and
   * writes the manifest complete; nothing is written after.
   */
  stop(detach: () => void): Promise<void>;
}

/** The listen key in a private stream address (its last path segment), to redact from what is recorded. */
function keyOf(url: string): string | undefined {
  const path = url.split(/[?#]/)[0] ?? '';
  const key = path.slice(path.lastIndexOf('/') + 1);
  return key.length >= 4 ? key : undefined;
}

/** The bytes of a binary frame (`ArrayBuffer` or a view: a `Buffer`), in base64. */
function base64(data: unknown): string | undefined {
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('base64');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  return undefined;
}

/**
 * Taps a stream factory's socket into a recording's files: every frame as received (text, or binary in base64) with
 * its receive time (`scheduler.now()`), each socket's open (its epoch) and close (code, clean; not the reason), and
 * whatever `write` is given; flushes every `flushIntervalMs`. A private stream's frames have its listen key redacted
 * (the address is never kept). Never throws into the socket: a failure to write goes to `onError`.
 * @internal
 */
export function recorderCore(settings: RecorderSettings): RecorderCore {
  const { scheduler, stream } = settings;
  const files = new RecordingFiles({ ...settings });
  // The last progress replays to late subscribers, also after the end (then with the completion).
  const progress = new ReplaySubject<RecordingProgress>(1);
  progress.next({ messages: 0, bytes: 0, files: 0 });
  const report = (): void => progress.next({ messages: files.flushedMessages, bytes: files.bytes, files: files.files });
  let epoch = 0;
  const live = new BehaviorSubject(0);
  /** Sockets the client has not asked to close: while one is held (the live `market` still subscribed), `stop()` does not wait. */
  let held = 0;
  /** After `stop()` ended the recording, nothing more is written (a socket the live `market` holds goes on). */
  let ended = false;
  const write = (event: RecordedEvent): void => {
    if (ended) return;
    try {
      files.write(event);
    } catch (e) {
      settings.onError(e instanceof Error ? e : new Error(String(e)));
    }
  };
  const WebSocketCtor = tapWebSocketCtor(settings.WebSocketCtor, {
    created: () => {
      held += 1;
      live.next(live.value + 1);
    },
    closing: () => {
      held -= 1;
    },
    opened: () => write({ t: scheduler.now(), k: 'open', epoch: ++epoch }),
    frame: (data, url) => {
      const t = scheduler.now();
      if (typeof data === 'string') {
        write({ t, k: 'f', d: stream === 'private' ? redact(data, [keyOf(url)]) : data });
        return;
      }
      const d = base64(data);
      if (d !== undefined) write({ t, k: 'b', d });
    },
    closed: (code, clean, byClient) => {
      write({ t: scheduler.now(), k: 'close', code, clean });
      if (!byClient) held -= 1;
      live.next(live.value - 1);
    },
  });
  // `timer` repeated, not `interval`: on a virtual scheduler `interval` chains one action per tick (a recorded day in a
  // `TestScheduler`: 86 400 of them, whose teardown overflows the stack); see lib/internal/scheduleRepeating.ts
  const ticks = timer(settings.flushIntervalMs, scheduler).pipe(repeat()).subscribe(() => {
    void files.flush().then(report);
  });
  let stopping: Promise<void> | undefined;
  return {
    WebSocketCtor,
    write,
    progress$: progress.asObservable(),
    stop: (detach) =>
      (stopping ??= (async () => {
        try {
          detach();
        } catch (e) {
          settings.onError(e instanceof Error ? e : new Error(String(e)));
        }
        // the socket's close is waited for (its line) only when the recorder was its last user: a live pipeline on
        // `market` keeps it open, and the recording ends now (it waited its full 2 s before, issue 40)
        if (held <= 0) await firstValueFrom(race(live.pipe(filter((n) => n <= 0)), timer(settings.closeWaitMs, scheduler).pipe(map(() => 0))));
        ended = true;
        ticks.unsubscribe();
        await files.close();
        report();
        progress.complete();
      })()),
  };
}
