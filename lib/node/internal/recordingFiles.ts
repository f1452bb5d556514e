import { closeSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { constants, createGzip, type Gzip } from 'node:zlib';
import { crc32 } from '../../internal/crc32';
import { RECORDING_FORMAT, type RecordedEvent, recordedLine } from '../../testing/recording';
import { MANIFEST, type RecordingFileInfo, type RecordingManifest } from '../recordingManifest';
import { checkLine } from './recordingBlocks';

/** Settings of a recording's files. @internal */
export interface RecordingFilesSettings {
  readonly dir: string;
  /** File name prefix (`market`, `user`). */
  readonly prefix: string;
  readonly stream: 'public' | 'private';
  readonly symbols: readonly string[];
  readonly topics: readonly string[];
  /** A file is closed and the next one started once it holds this many compressed bytes. */
  readonly maxFileBytes: number;
  /** … or once its first line is this old (ms). */
  readonly maxFileMs: number;
  /** zlib's compression level, 1 (fastest, the default: about the ratio of 6 on market frames, 2× faster) to 9. */
  readonly level?: number | undefined;
  /** Called with what went wrong writing (disk full, …); the recording goes on with the next file when it can. */
  readonly onError: (error: Error) => void;
}

/** Pending lines are handed to zlib when this many bytes are reached (and at every flush). */
const BATCH_BYTES = 256 * 1024;

/** One file being written. */
interface OpenFile {
  info: { -readonly [K in keyof RecordingFileInfo]: RecordingFileInfo[K] };
  readonly gzip: Gzip;
  /**
   * Lines not yet handed to zlib, UTF-8 encoded straight into one buffer (one `write` per batch: a stream write per
   * line costs more than the line, and joining strings first costs a copy).
   */
  pending: Buffer;
  pendingBytes: number;
  /** Lines in `pending`, and the time of the last one (for the block's check line). */
  pendingLines: number;
  pendingLast: number;
  fd: number | undefined;
  readonly ended: Promise<void>;
}

/** `20261125T210922Z` for a time in ms (UTC): a file name part, no address, no key. */
const stamp = (ms: number): string => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/**
 * The append-only, gzip-compressed, rotated files of a recording and its manifest (Node's fs and zlib). Lines are
 * batched (256 KiB) into a streaming gzip (level 1), each batch followed by its check line (format 3: the CRC-32 of
 * the batch's bytes, so the loader finds a damaged block before it delivers any line of it), whose output is written to the file at once
 * (synchronously: once zlib hands bytes back, they are in the kernel); `flush()` (the recorder calls it every second)
 * hands zlib the pending lines and makes it hand back everything written so far
 * (`Z_SYNC_FLUSH`) and rewrites the manifest, so a crash loses at most what came since the last flush, and the file
 * stays readable up to there (a gzip stream without its trailer: `loadRecording` reads it with `Z_SYNC_FLUSH`).
 * Never throws: fs errors go to `onError`.
 * @internal
 */
export class RecordingFiles {
  private current: OpenFile | undefined;
  private readonly done: RecordingFileInfo[] = [];
  private readonly closing: Promise<void>[] = [];
  private count = 0;
  private stopped = false;
  /** Frames written so far (handed to the file or still pending). */
  messages = 0;
  /** Frames on disk: those handed to zlib at the last completed flush (what a crash now would keep). */
  flushedMessages = 0;
  bytes = 0;

  constructor(private readonly settings: RecordingFilesSettings) {
    mkdirSync(settings.dir, { recursive: true });
  }

  get files(): number {
    return this.done.length + (this.current ? 1 : 0);
  }

  /** Appends one line (rotating first when the current file is full or old). */
  write(event: RecordedEvent): void {
    if (this.stopped) return;
    let file = this.current;
    if (file !== undefined && (file.info.bytes >= this.settings.maxFileBytes || event.t - file.info.first >= this.settings.maxFileMs)) {
      this.rotate();
      file = undefined;
    }
    file ??= this.open(event.t);
    const info = file.info;
    info.last = event.t;
    info.lines += 1;
    if (event.k === 'f' || event.k === 'b') {
      info.messages += 1;
      this.messages += 1;
    }
    this.append(file, event.t, recordedLine(event) + '\n');
  }

  /** Adds a line to the pending batch (handing the batch over first when it would not fit). */
  private append(file: OpenFile, t: number, line: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (file.pendingBytes + line.length * 3 > BATCH_BYTES) this.handOver(file);
    if (line.length * 3 > BATCH_BYTES) {
      // a line longer than a batch: a block of its own
      const bytes = Buffer.from(line, 'utf8');
      file.gzip.write(bytes);
      file.gzip.write(`${checkLine(t, 1, crc32(bytes))}\n`);
      return;
    }
    file.pendingBytes += file.pending.write(line, file.pendingBytes);
    file.pendingLines += 1;
    file.pendingLast = t;
  }

  /**
   * Hands the pending lines to zlib in one write, then their check line (the buffer goes with them; a new one takes
   * the next lines).
   */
  private handOver(file: OpenFile): void {
    if (file.pendingBytes === 0) return;
    const block = file.pending.subarray(0, file.pendingBytes);
    file.gzip.write(block);
    file.gzip.write(`${checkLine(file.pendingLast, file.pendingLines, crc32(block))}\n`);
    file.pending = Buffer.allocUnsafe(BATCH_BYTES);
    file.pendingBytes = 0;
    file.pendingLines = 0;
  }

  /** Hands what zlib holds to the file (`Z_SYNC_FLUSH`), then rewrites the manifest. */
  flush(): Promise<void> {
    const file = this.current;
    if (file === undefined) {
      this.writeManifest(false);
      return Promise.resolve();
    }
    // What this flush puts on disk: the lines written so far. Lines written while zlib flushes stay pending; the
    // manifest and the progress must not count them yet (a crash before the next flush loses them).
    const { messages, lines, last } = file.info;
    const total = this.messages;
    this.handOver(file);
    return new Promise<void>((resolve) => {
      file.gzip.flush(constants.Z_SYNC_FLUSH, () => {
        this.flushedMessages = Math.max(this.flushedMessages, total);
        this.writeManifest(false, this.current === file ? { ...file.info, messages, lines, last } : undefined);
        resolve();
      });
    });
  }

  /** Ends the current file (gzip trailer), waits for every file to be closed, writes the manifest `complete`. */
  async close(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.rotate();
    await Promise.all(this.closing);
    this.flushedMessages = this.messages;
    this.writeManifest(true);
  }

  private open(t: number): OpenFile {
    this.count += 1;
    const name = `${this.settings.prefix}-${stamp(t)}-${String(this.count).padStart(4, '0')}.jsonl.gz`;
    // 256 KiB output chunks: a third of the CPU of the default 16 KiB on market frames (measured, spec/bench/replay.ts)
    const gzip = createGzip({ level: this.settings.level ?? 1, chunkSize: 256 * 1024 });
    let fd: number | undefined;
    try {
      fd = openSync(join(this.settings.dir, name), 'a');
    } catch (e) {
      this.fail(e);
    }
    const info = { name, first: t, last: t, messages: 0, lines: 1, bytes: 0, symbols: this.settings.symbols, topics: this.settings.topics, complete: false };
    const file: OpenFile = {
      info,
      gzip,
      pending: Buffer.allocUnsafe(BATCH_BYTES),
      pendingBytes: 0,
      pendingLines: 0,
      pendingLast: t,
      fd,
      ended: new Promise<void>((resolve) => {
        gzip.on('end', resolve);
        gzip.on('error', (e) => {
          this.fail(e);
          resolve();
        });
      }),
    };
    gzip.on('data', (chunk: Buffer) => {
      if (file.fd === undefined) return;
      try {
        writeSync(file.fd, chunk);
        info.bytes += chunk.length;
        this.bytes += chunk.length;
      } catch (e) {
        this.fail(e);
      }
    });
    const start: RecordedEvent = { t, k: 'start', v: RECORDING_FORMAT, stream: this.settings.stream, symbols: [...this.settings.symbols], topics: [...this.settings.topics] };
    this.append(file, t, recordedLine(start) + '\n');
    this.current = file;
    return file;
  }

  /** Ends the current file; it is marked complete once its trailer is on disk. */
  private rotate(): void {
    const file = this.current;
    if (file === undefined) return;
    this.current = undefined;
    this.done.push(file.info);
    this.handOver(file);
    file.gzip.end();
    this.closing.push(
      file.ended.then(() => {
        if (file.fd !== undefined) {
          try {
            closeSync(file.fd);
          } catch (e) {
            this.fail(e);
          }
          file.fd = undefined;
        }
        file.info.complete = true;
        this.writeManifest(false);
      }),
    );
  }

  /** Rewrites the manifest; `current`: what of the current file is on disk (default: all it was written). */
  private writeManifest(complete: boolean, current?: RecordingFileInfo): void {
    const files = [...this.done, ...(this.current ? [current ?? this.current.info] : [])].map((info) => ({ ...info }));
    const manifest: RecordingManifest = { version: 1, stream: this.settings.stream, files, complete: complete && files.every((f) => f.complete) };
    const path = join(this.settings.dir, MANIFEST);
    try {
      writeFileSync(`${path}.tmp`, JSON.stringify(manifest, null, 1) + '\n');
      renameSync(`${path}.tmp`, path);
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    this.settings.onError(e instanceof Error ? e : new Error(String(e)));
  }
}
