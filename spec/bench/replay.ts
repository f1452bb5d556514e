/**
 * Issue 29's replay and recording case (`--only=replay`):
 *
 * - **replay throughput**: a recording of real-shaped frames (one topic, frames 1 ms apart, written by the recorder's
 *   own file writer) replayed through `replayMarket` in virtual time (a `VirtualTimeScheduler`), records counted on the
 *   topic's typed stream; the floor is, in the same run, reading the same files (gunzip, lines) and `JSON.parse` of
 *   each line and of each frame. Two ratios: `loadRecording` + replay, and the replay alone (recording in memory).
 * - **recorder CPU per message**: the same frames pushed through `marketStreams` on a stand-in socket, with and without
 *   the recorder's tap (`recordMarket`, gzip included: `process.cpuUsage()` counts zlib's threads), the difference per
 *   message; and what that is for a whole venue (300 symbols × 4 topics at the service's push periods, ~3 600
 *   messages a second) as a share of one core.
 *
 *   node -r ts-node/register/transpile-only spec/bench/replay.ts [--quick]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { type Observable, VirtualTimeScheduler } from 'rxjs';
import { marketStreams, type MarketStreams } from '../../lib/market/marketStreams';
import { RecordingFiles } from '../../lib/node/internal/recordingFiles';
import { loadRecording } from '../../lib/node/loadRecording';
import { recordMarket } from '../../lib/node/recordMarket';
import type { WebSocketCtor, WebSocketLike } from '../../lib/socket/webSocketLike';
import type { Recording } from '../../lib/testing/recording';
import { replayMarket, type ReplayedMarket } from '../../lib/testing/replayMarket';
import { REAL_SYMBOL, realFrame } from './realFrames';
import { median, now, tick } from './stats';

type Shape = 'trade' | 'kline' | 'depth';
const SHAPES: readonly Shape[] = ['trade', 'kline', 'depth'];
const TOPIC: Record<Shape, string> = { trade: 'trade', kline: 'kline_1m', depth: 'depth' };
const T0 = 1_731_300_000_000;

/** One measured replay case: messages a second (median) and the ratio to the floor of the same shape and run. */
export interface ReplayRow {
  readonly shape: Shape;
  readonly case: string;
  readonly messages: number;
  readonly msgsPerSec: number;
  readonly ratio: number | undefined;
}

/** The recorder's cost. */
export interface RecorderRow {
  readonly messages: number;
  /** CPU µs per message without the recorder, with it, and the difference. */
  readonly baseUsPerMsg: number;
  readonly recordedUsPerMsg: number;
  readonly recorderUsPerMsg: number;
  /** The difference at 3 600 messages a second (300 symbols × 4 topics), in % of one core. */
  readonly venueCorePct: number;
}

/** Writes `count` frames of `shape` as a recording (its own writer), `t` 1 ms apart. */
async function writeRecording(dir: string, shape: Shape, count: number): Promise<void> {
  const files = new RecordingFiles({
    dir,
    prefix: 'market',
    stream: 'public',
    symbols: [REAL_SYMBOL],
    topics: [TOPIC[shape]],
    maxFileBytes: Infinity,
    maxFileMs: Infinity,
    onError: (e) => {
      throw e;
    },
  });
  files.write({ t: T0, k: 'open', epoch: 1 });
  for (let i = 0; i < count; i++) files.write({ t: T0 + 1 + i, k: 'f', d: realFrame(shape, i).toString() });
  files.write({ t: T0 + count + 1, k: 'close', code: 1000, clean: true });
  await files.close();
}

/** The floor: the files read, each line and each frame through `JSON.parse`. Returns the frames. */
function readFloor(dir: string): number {
  let frames = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl.gz')).sort()) {
    const text = gunzipSync(readFileSync(join(dir, name)), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const event = JSON.parse(line) as { k: string; d?: string };
      if (event.k === 'f' && event.d !== undefined) {
        JSON.parse(event.d);
        frames++;
      }
    }
  }
  return frames;
}

const streamOf = (market: Pick<MarketStreams, 'trades' | 'klines' | 'depth'>, shape: Shape): Observable<unknown> =>
  shape === 'trade' ? market.trades(REAL_SYMBOL) : shape === 'kline' ? market.klines(REAL_SYMBOL, '1m') : market.depth(REAL_SYMBOL);

/** Replays `recording` in virtual time; returns the records delivered. */
function replayAll(recording: Recording, shape: Shape): number {
  const scheduler = new VirtualTimeScheduler(undefined, Infinity);
  const replay: ReplayedMarket = replayMarket(recording, { scheduler });
  let n = 0;
  streamOf(replay, shape).subscribe(() => n++);
  scheduler.flush();
  return n;
}

/** Replay throughput of each shape over `rounds` rounds. */
export async function replayThroughput(count: (shape: Shape) => number, rounds: number, log: (line: string) => void): Promise<ReplayRow[]> {
  const rows: ReplayRow[] = [];
  for (const shape of SHAPES) {
    const n = count(shape);
    const dir = mkdtempSync(join(tmpdir(), 'exs-bench-replay-'));
    try {
      await writeRecording(dir, shape, n);
      const floor: number[] = [];
      const loaded: number[] = [];
      const inMemory: number[] = [];
      for (let r = 0; r <= rounds; r++) {
        let start = now();
        const frames = readFloor(dir);
        const floorMs = now() - start;
        start = now();
        const recording = await loadRecording(dir);
        const loadMs = now() - start;
        start = now();
        const delivered = replayAll(recording, shape);
        const replayMs = now() - start;
        if (frames !== n || delivered < n) throw new Error(`replay bench ${shape}: ${frames} frames read, ${delivered} records delivered, ${n} written`);
        if (r === 0) continue; // warm-up
        floor.push((n / floorMs) * 1000);
        loaded.push((n / (loadMs + replayMs)) * 1000);
        inMemory.push((n / replayMs) * 1000);
        log(`  ${shape}: round ${r}: floor ${Math.round(floorMs)} ms, load ${Math.round(loadMs)} ms, replay ${Math.round(replayMs)} ms (${n} frames)`);
      }
      const f = median(floor);
      rows.push(
        { shape, case: 'files → JSON.parse of lines and frames (floor)', messages: n, msgsPerSec: f, ratio: 1 },
        { shape, case: 'loadRecording + replayMarket (virtual time)', messages: n, msgsPerSec: median(loaded), ratio: median(loaded) / f },
        { shape, case: 'replayMarket alone (recording in memory)', messages: n, msgsPerSec: median(inMemory), ratio: median(inMemory) / f },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

/** A socket stand-in that opens on the next microtask and hands pushed text frames to `onmessage` (as a browser socket). */
function pushSockets(): { readonly Ctor: WebSocketCtor; push(text: string): void } {
  let last: WebSocketLike | undefined;
  class PushSocket implements WebSocketLike {
    readyState = 0;
    binaryType = 'arraybuffer';
    onopen: ((e: unknown) => void) | null = null;
    onmessage: ((e: { data: unknown }) => void) | null = null;
    onclose: ((e: { code: number; reason: string; wasClean: boolean }) => void) | null = null;
    onerror: ((e: unknown) => void) | null = null;
    constructor(_url: string) {
      last = this;
      queueMicrotask(() => {
        this.readyState = 1;
        this.onopen?.({});
      });
    }
    send(): void {}
    close(code = 1000): void {
      if (this.readyState === 3) return;
      this.readyState = 3;
      this.onclose?.({ code, reason: '', wasClean: true });
    }
  }
  return { Ctor: PushSocket, push: (text) => last?.onmessage?.({ data: text }) };
}

const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** CPU per message of `marketStreams` on a stand-in socket, with (`recorded`) or without the recorder's tap. */
async function cpuPerMessage(frames: readonly string[], recorded: boolean): Promise<number> {
  const sockets = pushSockets();
  const dir = mkdtempSync(join(tmpdir(), 'exs-bench-rec-'));
  try {
    const topics = ['trade', 'kline_1m', 'depth'];
    let stop: () => Promise<void>;
    if (recorded) {
      // recordMarket subscribes the same three typed streams itself
      const rec = recordMarket({ url: 'ws://bench/quote/ws/v1', symbols: [REAL_SYMBOL], topics, out: dir, WebSocketCtor: sockets.Ctor });
      stop = () => rec.stop();
    } else {
      const market = marketStreams({ url: 'ws://bench/quote/ws/v1', WebSocketCtor: sockets.Ctor });
      const subs = SHAPES.map((shape) => streamOf(market, shape).subscribe());
      stop = async () => subs.forEach((s) => s.unsubscribe());
    }
    await new Promise((resolve) => setTimeout(resolve, 5)); // the socket opens, the topics are subscribed
    const start = cpuUs();
    // in batches, as a feed arrives (zlib keeps pace, memory stays flat), for both cases alike
    for (let i = 0; i < frames.length; i++) {
      sockets.push(frames[i]!);
      if (i % 100 === 99) await tick();
    }
    await stop(); // with the recorder: the last file ended (gzip finished)
    return (cpuUs() - start) / frames.length;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The recorder's CPU per message (median of `rounds`), frames of the three shapes in turn. */
export async function recorderCost(messages: number, rounds: number, log: (line: string) => void): Promise<RecorderRow> {
  const frames = Array.from({ length: messages }, (_, i) => realFrame(SHAPES[i % 3]!, Math.floor(i / 3)).toString());
  const base: number[] = [];
  const recorded: number[] = [];
  for (let r = 0; r <= rounds; r++) {
    const b = await cpuPerMessage(frames, false);
    const w = await cpuPerMessage(frames, true);
    if (r === 0) continue;
    base.push(b);
    recorded.push(w);
    log(`  recorder: round ${r}: ${b.toFixed(2)} µs/msg without, ${w.toFixed(2)} µs/msg with the recorder`);
  }
  const baseUs = median(base);
  const recordedUs = median(recorded);
  const diff = recordedUs - baseUs;
  return {
    messages,
    baseUsPerMsg: Math.round(baseUs * 100) / 100,
    recordedUsPerMsg: Math.round(recordedUs * 100) / 100,
    recorderUsPerMsg: Math.round(diff * 100) / 100,
    venueCorePct: Math.round(((diff * 3600) / 1e6) * 1000) / 10,
  };
}

const fmt = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : 'n/a');
const pct = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '' : `${Math.round(x * 1000) / 10} %`);

export function replayTable(rows: readonly ReplayRow[]): string {
  const head = '| shape | case | frames | msgs/s (median) | vs floor |\n|---|---|---:|---:|---:|';
  return [head, ...rows.map((r) => `| ${r.shape} | ${r.case} | ${fmt(r.messages)} | ${fmt(r.msgsPerSec)} | ${pct(r.ratio)} |`)].join('\n');
}

export function recorderTable(row: RecorderRow): string {
  return [
    '| frames (trade, kline, depth in turn) | CPU µs/msg without | with the recorder | recorder µs/msg | a venue (300 × 4 topics, 3 600 msgs/s) |',
    '|---:|---:|---:|---:|---:|',
    `| ${fmt(row.messages)} | ${row.baseUsPerMsg} | ${row.recordedUsPerMsg} | ${row.recorderUsPerMsg} | ${row.venueCorePct} % of one core |`,
  ].join('\n');
}

/** The whole case, as `main.ts` runs it. */
export async function replayBench(quick: boolean, log: (line: string) => void): Promise<{ replay: ReplayRow[]; recorder: RecorderRow }> {
  const counts: Record<Shape, number> = { trade: 100_000, kline: 100_000, depth: 5_000 };
  log('replay: throughput in virtual time vs reading the files + JSON.parse');
  const replay = await replayThroughput((s) => (quick ? counts[s] / 4 : counts[s]), quick ? 2 : 3, log);
  log('replay: the recorder CPU per message');
  const recorder = await recorderCost(quick ? 15_000 : 60_000, quick ? 2 : 3, log);
  return { replay, recorder };
}

if (require.main === module) {
  replayBench(process.argv.includes('--quick'), (line) => process.stderr.write(line + '\n')).then(
    ({ replay, recorder }) => {
      process.stdout.write(`${replayTable(replay)}\n\n${recorderTable(recorder)}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
