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
import { StringDecoder } from 'node:string_decoder';
import { promisify } from 'node:util';
import { constants, gunzip } from 'node:zlib';
import { type Observable, VirtualTimeScheduler } from 'rxjs';
import { marketStreams, type MarketStreams } from '../../lib/market/marketStreams';
import { RecordingFiles } from '../../lib/node/internal/recordingFiles';
import { loadRecording } from '../../lib/node/loadRecording';
import { recordMarket } from '../../lib/node/recordMarket';
import type { WebSocketCtor, WebSocketLike } from '../../lib/socket/webSocketLike';
import type { LazyRecording, Recording } from '../../lib/testing/recording';
import { replayMarket, type ReplayedMarket } from '../../lib/testing/replayMarket';
import { realtimesEnvelope, realtimesRecord } from '../../lib/testing/publicMessages';
import { REAL_SYMBOL, realFrame } from './realFrames';
import { median, tick } from './stats';

type Shape = 'trade' | 'kline' | 'depth';
const SHAPES: readonly Shape[] = ['trade', 'kline', 'depth'];
const TOPIC: Record<Shape, string> = { trade: 'trade', kline: 'kline_1m', depth: 'depth' };
const T0 = 1_731_300_000_000;
const gunzipAsync = promisify(gunzip);

/** One measured replay case: messages a second (median) and the ratio to the floor of the same shape and run. */
export interface ReplayRow {
  readonly shape: Shape;
  readonly case: string;
  readonly messages: number;
  readonly msgsPerSec: number;
  /** Median of the per-round ratios to the floor, and their range. */
  readonly ratio: number | undefined;
  readonly ratioRange?: readonly [number, number] | undefined;
}

/** The kinds of frames the recorder is measured on. */
type Kind = Shape | 'realtimes';
const KINDS: readonly Kind[] = ['trade', 'kline', 'realtimes', 'depth'];

/**
 * A whole venue at the service's push periods (SPEC: trade, kline, depth every 300 ms, realtimes every 500 ms per
 * symbol), 300 symbols: the most it sends, every topic pushing at every period (the simulator's own venue is ~1 070
 * messages a second, ~100-200 of them books: issue 28).
 */
const VENUE_RATE: Record<Kind, number> = { trade: 1000, kline: 1000, realtimes: 600, depth: 1000 };

/** The recorder's cost on one kind of frame. */
export interface RecorderKindRow {
  readonly kind: Kind;
  readonly messages: number;
  /** CPU µs per message without the recorder, with it, and the difference (medians of the rounds). */
  readonly baseUsPerMsg: number;
  readonly recordedUsPerMsg: number;
  readonly recorderUsPerMsg: number;
  /** The range of the per-round differences. */
  readonly recorderRange: readonly [number, number];
  /** Messages a second of this kind for a whole venue (`VENUE_RATE`). */
  readonly venueRate: number;
}

/** The recorder's cost, one row per kind (the type `main.ts` keeps in bench-results.json). */
export type RecorderRow = readonly RecorderKindRow[];

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

/**
 * The floor: the same files read and gunzipped (`node:zlib`, 1 MiB output chunks, as the loader), their text decoded a
 * chunk at a time (no whole-file string: a recorded day's file is beyond V8's longest string), each line's JSON (a
 * whole line, or a format-2 frame line's head) and each frame through `JSON.parse`. Returns the frames.
 */
async function readFloor(dir: string): Promise<number> {
  let frames = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl.gz')).sort()) {
    const bytes = await gunzipAsync(readFileSync(join(dir, name)), { finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 1024 * 1024 });
    const decoder = new StringDecoder('utf8');
    let carry = '';
    for (let at = 0; at < bytes.length; at += 1024 * 1024) {
      const lines = (carry + decoder.write(bytes.subarray(at, at + 1024 * 1024))).split('\n');
      carry = lines.pop()!;
      for (const line of lines) {
        if (line === '') continue;
        // format 2: a text frame is its head, a tab and its text (the head and the frame parsed); else one JSON line
        const head = line.indexOf('}');
        if (head > 0 && line.charCodeAt(head + 1) === 9) {
          JSON.parse(line.slice(0, head + 1));
          JSON.parse(line.slice(head + 2));
          frames++;
          continue;
        }
        const event = JSON.parse(line) as { k: string; d?: string };
        if (event.k === 'f' && event.d !== undefined) {
          JSON.parse(event.d);
          frames++;
        }
      }
    }
  }
  return frames;
}

const streamOf = (market: Pick<MarketStreams, 'trades' | 'klines' | 'depth'>, shape: Shape): Observable<unknown> =>
  shape === 'trade' ? market.trades(REAL_SYMBOL) : shape === 'kline' ? market.klines(REAL_SYMBOL, '1m') : market.depth(REAL_SYMBOL);

/** Replays `recording` in virtual time; returns the records delivered. */
function replayAll(recording: Recording | LazyRecording, shape: Shape): number {
  const scheduler = new VirtualTimeScheduler(undefined, Infinity);
  const replay: ReplayedMarket = replayMarket(recording, { scheduler });
  let n = 0;
  streamOf(replay, shape).subscribe(() => n++);
  scheduler.flush();
  return n;
}

/** Replay throughput of each shape over `rounds` rounds. */
export async function replayThroughput(
  count: (shape: Shape) => number,
  rounds: number,
  log: (line: string) => void,
  shapes: readonly Shape[] = SHAPES,
): Promise<ReplayRow[]> {
  const rows: ReplayRow[] = [];
  for (const shape of shapes) {
    const n = count(shape);
    const dir = mkdtempSync(join(tmpdir(), 'exs-bench-replay-'));
    try {
      await writeRecording(dir, shape, n);
      const floor: number[] = [];
      const loaded: number[] = [];
      const lazy: number[] = [];
      const inMemory: number[] = [];
      const check = (what: string, got: number): void => {
        if (got < n) throw new Error(`replay bench ${shape}: ${what} ${got} of the ${n} frames written`);
      };
      const cases: Record<string, () => Promise<void>> = {
        floor: async () => {
          const start = cpuMs();
          check('floor read', await readFloor(dir));
          floor.push((n / (cpuMs() - start)) * 1000);
        },
        eager: async () => {
          let start = cpuMs();
          const recording = await loadRecording(dir);
          const loadMs = cpuMs() - start;
          start = cpuMs();
          check('eager replay delivered', replayAll(recording, shape));
          const replayMs = cpuMs() - start;
          loaded.push((n / (loadMs + replayMs)) * 1000);
          inMemory.push((n / replayMs) * 1000);
        },
        lazy: async () => {
          const start = cpuMs();
          check('lazy replay delivered', replayAll(await loadRecording(dir, { lazy: true }), shape));
          lazy.push((n / (cpuMs() - start)) * 1000);
        },
      };
      const order = Object.keys(cases);
      for (let r = 0; r <= rounds; r++) {
        const warm = r === 0;
        for (const name of order) await cases[name]!();
        if (warm) {
          for (const a of [floor, loaded, lazy, inMemory]) a.length = 0;
          continue;
        }
        log(
          `  ${shape}: round ${r} (${order.join(', ')}): floor ${fmt(floor[r - 1]!)} msgs/s, load + replay ${fmt(loaded[r - 1]!)}, ` +
            `lazy load + replay ${fmt(lazy[r - 1]!)}, replay alone ${fmt(inMemory[r - 1]!)} (${n} frames)`,
        );
        order.push(order.shift()!); // rotate: each case in each position
        global.gc?.();
      }
      const f = median(floor);
      const row = (name: string, rates: number[]): ReplayRow => {
        const ratios = rates.map((x, i) => x / floor[i]!);
        return { shape, case: name, messages: n, msgsPerSec: median(rates), ratio: median(ratios), ratioRange: [Math.min(...ratios), Math.max(...ratios)] };
      };
      rows.push(
        { shape, case: 'files → JSON.parse of lines and frames (floor)', messages: n, msgsPerSec: f, ratio: 1 },
        row('loadRecording + replayMarket (virtual time)', loaded),
        row('loadRecording(lazy) + replayMarket (lines decoded as played)', lazy),
        row('replayMarket alone (recording in memory)', inMemory),
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

const cpuMs = (): number => cpuUs() / 1000;

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** Frame number `n` of a kind, as text. */
function kindFrame(kind: Kind, n: number): string {
  if (kind !== 'realtimes') return realFrame(kind, n).toString();
  const record = realtimesRecord({ t: T0 + n, s: REAL_SYMBOL, c: `${30000 + (n % 100)}.12` as `${number}`, v: `${1000 + n}.5` as `${number}` });
  return JSON.stringify(realtimesEnvelope(record, { symbol: REAL_SYMBOL, sendTime: T0 + n }));
}

/** CPU per message of `marketStreams` on a stand-in socket, with (`recorded`) or without the recorder's tap. */
async function cpuPerMessage(frames: readonly string[], recorded: boolean): Promise<number> {
  const sockets = pushSockets();
  const dir = mkdtempSync(join(tmpdir(), 'exs-bench-rec-'));
  try {
    const topics = ['trade', 'kline_1m', 'realtimes', 'depth'];
    let stop: () => Promise<void>;
    if (recorded) {
      // recordMarket subscribes the same four typed streams itself
      const rec = recordMarket({ url: 'ws://bench/quote/ws/v1', symbols: [REAL_SYMBOL], topics, out: dir, WebSocketCtor: sockets.Ctor });
      stop = () => rec.stop();
    } else {
      const market = marketStreams({ url: 'ws://bench/quote/ws/v1', WebSocketCtor: sockets.Ctor });
      const subs = [...SHAPES.map((shape) => streamOf(market, shape).subscribe()), market.realtimes(REAL_SYMBOL).subscribe()];
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

/** The recorder's CPU per message of each kind (medians of `rounds`, with and without in alternation, order swapped each round). */
export async function recorderCost(messages: number, rounds: number, log: (line: string) => void): Promise<RecorderRow> {
  const rows: RecorderKindRow[] = [];
  for (const kind of KINDS) {
    const n = kind === 'depth' ? Math.ceil(messages / 4) : messages;
    const frames = Array.from({ length: n }, (_, i) => kindFrame(kind, i));
    const base: number[] = [];
    const recorded: number[] = [];
    for (let r = 0; r <= rounds; r++) {
      const first = r % 2 === 0;
      const b1 = first ? await cpuPerMessage(frames, false) : undefined;
      const w = await cpuPerMessage(frames, true);
      const b = b1 ?? (await cpuPerMessage(frames, false));
      if (r === 0) continue;
      base.push(b);
      recorded.push(w);
      log(`  recorder ${kind}: round ${r}: ${b.toFixed(2)} µs/msg without, ${w.toFixed(2)} µs/msg with the recorder`);
    }
    const diffs = recorded.map((w, i) => w - base[i]!);
    const round = (x: number): number => Math.round(x * 100) / 100;
    rows.push({
      kind,
      messages: n,
      baseUsPerMsg: round(median(base)),
      recordedUsPerMsg: round(median(recorded)),
      recorderUsPerMsg: round(median(diffs)),
      recorderRange: [round(Math.min(...diffs)), round(Math.max(...diffs))],
      venueRate: VENUE_RATE[kind],
    });
  }
  return rows;
}

/** A whole venue's recorder CPU, % of one core: Σ rate × µs per message of each kind (medians; and the ranges' ends). */
export function venueShare(rows: RecorderRow): { pct: number; low: number; high: number; rate: number } {
  const sum = (us: (r: RecorderKindRow) => number): number => Math.round(rows.reduce((a, r) => a + (r.venueRate * us(r)) / 1e6, 0) * 1000) / 10;
  return { pct: sum((r) => r.recorderUsPerMsg), low: sum((r) => r.recorderRange[0]), high: sum((r) => r.recorderRange[1]), rate: rows.reduce((a, r) => a + r.venueRate, 0) };
}

const fmt = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : 'n/a');
const pct = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '' : `${Math.round(x * 1000) / 10} %`);

export function replayTable(rows: readonly ReplayRow[]): string {
  const head = '| shape | case | frames | msgs/s (median, CPU time) | vs floor (median of rounds) | range |\n|---|---|---:|---:|---:|---:|';
  const range = (r: ReplayRow): string => (r.ratioRange === undefined ? '' : `${pct(r.ratioRange[0])} - ${pct(r.ratioRange[1])}`);
  return [head, ...rows.map((r) => `| ${r.shape} | ${r.case} | ${fmt(r.messages)} | ${fmt(r.msgsPerSec)} | ${pct(r.ratio)} | ${range(r)} |`)].join('\n');
}

export function recorderTable(rows: RecorderRow): string {
  const venue = venueShare(rows);
  return [
    '| frame | frames | CPU µs/msg without | with the recorder | recorder µs/msg (median) | range | venue rate (msgs/s) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) => `| ${r.kind} | ${fmt(r.messages)} | ${r.baseUsPerMsg} | ${r.recordedUsPerMsg} | ${r.recorderUsPerMsg} | ${r.recorderRange[0]} - ${r.recorderRange[1]} | ${fmt(r.venueRate)} |`,
    ),
    '',
    `A whole venue (300 symbols × trade, kline, depth every 300 ms and realtimes every 500 ms: ${fmt(venue.rate)} msgs/s, ` +
      `the service's most): the recorder ${venue.pct} % of one core (${venue.low} - ${venue.high} % over the rounds' ranges).`,
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
