/**
 * `npm run bench` — the ex-streams benchmark (see docs/performance.md). Not run by jest.
 *
 *   npx ts-node --transpile-only spec/bench/main.ts [--quick] [--only=api,incremental,venue,orders,tick,subscribe,throughput,zip,reorder,latency,memory,replay,fanout]
 *
 * Run with `node --expose-gc` (the npm script does) for the memory cases. Prints markdown tables and
 * writes bench-results.json at the repository root.
 */
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  type BenchCase,
  floor,
  libraryCase,
  rawCount,
  rxjsMultiplex,
  rxjsCodecs,
  zipFflate,
  zipFloor,
  zipNodeInflate,
} from './cases';
import { nodeInflateRaw } from '../../lib/node/nodeInflateRaw';
import type { Shape } from './frames';
import { fanoutBench, type FanoutRow, fanoutTable } from './fanout';
import { latency, type LatencyRow } from './latency';
import { manyTopics, type MemoryRow, reconnectCycles, subscribeCycles } from './memory';
import { type ApiRow, publicApi, publicApiTable } from './publicApi';
import { incrementalBench, type IncrementalRow, incrementalTable } from './incremental';
import { venueTable, venueV2Bench, type VenueRow } from './venueV2';
import { orderLatency, type OrderLatencyRow, orderLatencyTable } from './orderLatency';
import { firstByte, orderPath, type OrderPathRow, orderPathTable } from './orderPath';
import { tickToOrder, type TickToOrderRow, tickToOrderTable } from './tickToOrder';
import { reorder, type ReorderRow } from './reorder';
import { type RecorderRow, recorderTable, replayBench, type ReplayRow, replayTable } from './replay';
import { subscribeBench, type SubscribeRow, subscribeTable } from './subscribe';
import { zipCheckCost, type ZipCheckRow, zipCheckTable } from './crc32';
import { startPusher } from './pusherClient';
import { gcFunction } from './stats';
import { throughput, type ThroughputRow } from './throughput';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const wants = (part: string): boolean => only === undefined || only.includes(part);

/** Frames per run: about a second at the floor's speed (a quarter of that with --quick). */
const COUNTS: Record<Shape | 'zip', number> = { trade: 400_000, kline: 300_000, depth: 10_000, executionReport: 240_000, zip: 8_000 };
const ROUNDS = quick ? 3 : 5;
const count = (k: Shape | 'zip'): number => (quick ? Math.round(COUNTS[k] / 8) : COUNTS[k]);

const log = (line: string): void => void process.stderr.write(line + '\n');
const fmt = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : 'n/a');
const pct = (x: number | undefined): string => (x === undefined || !Number.isFinite(x) ? '' : `${Math.round(x * 1000) / 10} %`);

function throughputTable(rows: readonly ThroughputRow[]): string {
  const head = '| shape (bytes) | case | msgs/s (median) | MB/s | vs floor |\n|---|---|---:|---:|---:|';
  const body = rows.map((r) => `| ${r.shape} (${r.bytes}) | ${r.case} | ${fmt(r.msgsPerSec)} | ${r.mbPerSec.toFixed(1)} | ${pct(r.ratio)} |`);
  return [head, ...body].join('\n');
}

function reorderTable(rows: readonly ReorderRow[]): string {
  const head = '| case | window | displacement | events/s (median) | ns/event |\n|---|---:|---:|---:|---:|';
  return [head, ...rows.map((r) => `| ${r.case} | ${r.window} | ${r.displacement} | ${fmt(r.eventsPerSec)} | ${r.nsPerEvent} |`)].join('\n');
}

function latencyTable(rows: readonly LatencyRow[]): string {
  const head = '| case | rate | samples | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|---:|';
  return [head, ...rows.map((r) => `| ${r.case} | ${fmt(r.ratePerSecond)}/s | ${r.samples} | ${r.p50Ms} | ${r.p99Ms} | ${r.maxMs} |`)].join('\n');
}

function memoryTable(rows: readonly MemoryRow[]): string {
  const head = '| case | cycles | heap before MB | heap after MB | growth MB | ms | note |\n|---|---:|---:|---:|---:|---:|---|';
  return [head, ...rows.map((r) => `| ${r.case} | ${fmt(r.cycles)} | ${r.heapBeforeMb} | ${r.heapAfterMb} | ${r.growthMb} | ${fmt(r.ms)} | ${r.note} |`)].join('\n');
}

/** Sets each row's ratio to the floor row of the same shape. */
function withRatios(rows: ThroughputRow[], floorCase: BenchCase): ThroughputRow[] {
  const f = rows.find((r) => r.case === floorCase.name);
  for (const r of rows) if (f) r.ratio = r.msgsPerSec / f.msgsPerSec;
  return rows;
}

async function main(): Promise<void> {
  const started = Date.now();
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    exposeGc: gcFunction() !== undefined,
    quick,
  };
  log(`ex-streams bench: ${machine.cpus} cpus (${machine.cpuModel}), node ${machine.node}${quick ? ', --quick' : ''}`);
  const pusher = await startPusher();
  const results: {
    machine: typeof machine;
    api: ApiRow[];
    incremental: IncrementalRow[];
    venue: VenueRow[];
    orders: OrderLatencyRow[];
    tick: TickToOrderRow[];
    orderPath: OrderPathRow[];
    subscribe: SubscribeRow[];
    zipCheck: ZipCheckRow[];
    throughput: ThroughputRow[];
    reorder: ReorderRow[];
    latency: LatencyRow[];
    memory: MemoryRow[];
    replay: ReplayRow[];
    recorder?: RecorderRow;
    fanout?: FanoutRow[];
    seconds?: number;
  } = { machine, api: [], incremental: [], venue: [], orders: [], tick: [], orderPath: [], subscribe: [], zipCheck: [], throughput: [], reorder: [], latency: [], memory: [], replay: [] };
  const ours = libraryCase('ex-streams marketStreams / userStream');
  try {
    if (wants('api')) results.api = await publicApi(quick ? 3 : 7, log, quick ? 0.5 : 1);
    if (wants('incremental')) results.incremental = await incrementalBench(quick ? 3 : 7, log, quick ? 0.5 : 1);
    if (wants('venue')) results.venue = await venueV2Bench({ pairs: 300, rounds: quick ? 2 : 3, seconds: quick ? 4 : 10, warmupSeconds: quick ? 2 : 5 }, log);
    if (wants('orders')) {
      log('order loop: frame → orders$ / balances$ / executionReports$');
      results.orders = await orderLatency(quick ? 300 : 1500);
    }
    if (wants('tick')) {
      log('tick to order: venue process → depth frame → orderBook() → newOrder → POST (vs a bare client, alternated)');
      results.tick = await tickToOrder(quick ? 300 : 1500);
      log('order path: newOrder() → fetch() (socket-free)');
      results.orderPath = [...(await orderPath(quick ? 1000 : 5000)), ...(await firstByte(quick ? 1000 : 3000))];
    }
    if (wants('subscribe')) {
      log('subscribe: 500 topics against the simulator, first open and reconnect');
      results.subscribe = await subscribeBench(quick ? 1 : 3, log);
    }
    if (wants('throughput')) {
      const text: BenchCase[] = [rawCount, floor, rxjsMultiplex, rxjsCodecs, ours];
      for (const shape of ['trade', 'kline', 'depth', 'executionReport'] as const) {
        log(`throughput: ${shape}`);
        results.throughput.push(...withRatios(await throughput(pusher, text, shape, 'text', count(shape), ROUNDS, log), floor));
      }
    }
    if (wants('zip')) {
      log('throughput: depth (zip)');
      const zip: BenchCase[] = [
        zipFloor,
        zipFflate,
        zipNodeInflate,
        libraryCase('ex-streams marketStreams (binary: true)', 'zip'),
        libraryCase('ex-streams marketStreams (binary: true, nodeInflateRaw)', 'zip', nodeInflateRaw),
      ];
      results.throughput.push(...withRatios(await throughput(pusher, zip, 'depth', 'zip', count('zip'), ROUNDS, log), zipFloor));
      log('zip: the CRC-32 check of an entry');
      results.zipCheck = zipCheckCost(quick ? 2 : 5);
    }
    if (wants('reorder')) {
      log('reorder buffer');
      results.reorder = reorder(quick ? 200_000 : 1_000_000, [16, 256, 4096], 64, quick ? 3 : 5);
    }
    if (wants('latency')) {
      const seconds = quick ? 2 : 5;
      for (const c of [floor, ours]) {
        log(`latency: ${c.name}`);
        results.latency.push(await latency(pusher, c, 10_000, seconds));
      }
    }
    if (wants('memory')) {
      log('memory: subscribe/unsubscribe cycles');
      results.memory.push(await subscribeCycles(pusher, 10_000));
      log('memory: reconnects');
      results.memory.push(await reconnectCycles(pusher, quick ? 200 : 1_000));
      log('memory: 1000 topics');
      results.memory.push(await manyTopics(pusher, 1_000));
    }
    if (wants('replay')) {
      const { replay, recorder } = await replayBench(quick, log);
      results.replay = replay;
      results.recorder = recorder;
    }
    if (wants('fanout')) {
      log('fanout: one gateway, Redis, 2 and 8 consumer processes (issue 28)');
      results.fanout = await fanoutBench({ consumers: [2, 8], rounds: quick ? 2 : 3, seconds: quick ? 5 : 10, shards: 4 }, log);
    }
  } finally {
    await pusher.close();
  }
  results.seconds = Math.round((Date.now() - started) / 1000);
  const out: string[] = [];
  out.push(`Machine: ${machine.cpus} cpus (${machine.cpuModel}), node ${machine.node}, ${machine.platform}; ${results.seconds} s${quick ? ' (--quick)' : ''}`);
  if (results.api.length > 0) out.push('', '### Public API on real-shaped frames (socket-free, vs JSON.parse of the same bytes)', '', publicApiTable(results.api));
  if (results.incremental.length > 0) out.push('', '### Incremental book: a delta against a full book (socket-free)', '', incrementalTable(results.incremental));
  if (results.venue.length > 0) out.push('', '### A whole venue over V2 (venue in its own process, loopback)', '', venueTable(results.venue));
  if (results.orders.length > 0) out.push('', '### Order loop: a private frame to the subscriber (socket-free, default settings, frames 3 ms apart)', '', orderLatencyTable(results.orders));
  if (results.tick.length > 0) out.push('', '### Tick to order (venue in its own process, loopback, clients alternated tick by tick)', '', tickToOrderTable(results.tick));
  if (results.orderPath.length > 0) out.push('', '### newOrder() to the fetch call (socket-free, stub fetch) and to the first byte (loopback)', '', orderPathTable(results.orderPath));
  if (results.subscribe.length > 0) out.push('', '### Subscribing 500 topics (simulator on loopback, defaults)', '', subscribeTable(results.subscribe));
  if (results.throughput.length > 0) out.push('', '### Throughput (loopback, pusher in its own process)', '', throughputTable(results.throughput));
  if (results.zipCheck.length > 0) out.push('', '### Zip frames: the entry CRC-32 check (socket-free)', '', zipCheckTable(results.zipCheck));
  if (results.reorder.length > 0) out.push('', '### Reorder buffer', '', reorderTable(results.reorder));
  if (results.latency.length > 0) out.push('', '### Latency at a steady rate (trade frames, send time → subscriber)', '', latencyTable(results.latency));
  if (results.memory.length > 0) {
    out.push('', `### Memory${machine.exposeGc ? '' : ' (run with --expose-gc for heap numbers)'}`, '', memoryTable(results.memory));
  }
  if (results.replay.length > 0) out.push('', '### Replay in virtual time (vs reading the same files + JSON.parse of lines and frames)', '', replayTable(results.replay));
  if (results.recorder !== undefined) out.push('', '### The recorder: CPU per message (socket-free, gzip included)', '', recorderTable(results.recorder));
  if (results.fanout !== undefined) out.push('', '### Redis fan-out: one gateway, N consumer processes (issue 28)', '', fanoutTable(results.fanout));
  else if (wants('fanout')) out.push('', '### Redis fan-out (issue 28)', '', 'Skipped: redis-server is not on PATH.');
  process.stdout.write(out.join('\n') + '\n');
  const file = path.resolve(__dirname, '../../bench-results.json');
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  log(`wrote ${file}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    log(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
