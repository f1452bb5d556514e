/**
 * Issue 28's fan-out case (`--only=fanout`): one gateway (`publishMarket`) following the simulator's whole venue
 * (300 pairs × trade, depth (200 levels), realtimes, kline_1m at the service's push periods: trade, kline, depth every
 * 300 ms, realtimes every 500 ms), a real `redis-server` started here (127.0.0.1, an ephemeral port, no persistence, a
 * temporary directory, stopped at the end), and N consumer processes (`redisMarketStreams`) on loopback, each
 * subscribing every topic of every pair through the typed `*Messages` streams (`tradeMessages`, `depthMessages`,
 * `realtimesMessages`, `klineMessages(…, '1m')`). The yardstick, one direct subscriber (`marketStreams` on the
 * simulator, the same topics), runs in windows of its own after the consumers' (`--direct=beside`: in the same
 * windows, as before: on 2 cores it took a third of a core from the relay's processes while they were measured).
 * Every part is its own process (this file, forked with a role), so each one's CPU time (`process.cpuUsage`, over the
 * measured window) is its own. The children run this file transpiled to JavaScript (`.tmp/fanout-js`, see
 * `benchChildFile`; `--ts-node` runs them under ts-node, as before: the TypeScript compiler then sits in each heap).
 *
 * Reported per N (2 and 8), as medians of the rounds with their ranges:
 * - the latency the Redis hop adds: from the gateway's receive time (the entry's `r`, `Date.now()` of the gateway,
 *   truncated to the ms, so + 0.5 ms is added to it) to the typed message at a consumer (`performance.timeOrigin +
 *   performance.now()`: the same clock as `Date.now()`, below the ms); each consumer message is matched to its entry
 *   by symbol, topic and the frame's `sendTime` (the entries of the window read back with `XRANGE`); median and p99;
 * - the gateway's CPU share of one core, each consumer's, and a consumer's CPU per message as a ratio to the direct
 *   subscriber's (both count the same typed messages);
 * - per round, each process's stalls (`stalls:` lines): its event loop's delay (p99, max) and its GC pauses (count,
 *   total, longest, of which major), and its heap: where the added latency's tail comes from.
 *
 * The venue is the simulator itself by default; `--venue=replay` records its frames (every topic of every pair, 4 s)
 * and serves them again from a small server at the service's periods, or `--periods` (`replayVenue`): the simulator's frames at ~7 % of
 * a core instead of its 50-80 % (it generates every book), and at the full push rate (~3 600 msgs/s for 300 pairs,
 * where the simulator reached 2 340 on a quiet machine: its own CPU was the cap).
 *
 *   node -r ts-node/register/transpile-only spec/bench/fanout.ts [--quick] [--consumers=2,8] [--shards=4] [--rounds=3] [--seconds=10]
 *     [--pairs=300] [--warmup=12] [--periods=issue|trade:N,kline:N,realtimes:N,depth:N] [--arrival=smooth|burst] [--direct=alone|beside] [--venue=simulator|replay] [--ts-node]
 *   node -r ts-node/register/transpile-only spec/bench/fanout.ts --compare-gateway=DIR [--pairs=40] [--rounds=4] [--seconds=10]
 *     [--redis-delay-ms=N] (two gateways side by side, this tree's and checkout DIR's: see `compareGateways`)
 *
 * Skipped with a line on stderr when `redis-server` is not on PATH. `FANOUT_NODE_FLAGS='--single-threaded-gc …'` passes
 * Node / V8 flags to every child. `FANOUT_PROF=gateway,consumer,direct` runs those
 * processes under `node --cpu-prof` (profiles in .tmp/prof-fanout; summarise with spec/bench/topFrames.js);
 * `FANOUT_HEAP_PROF=gateway,consumer,direct` samples what those processes promote (see `heapSampler`; the
 * `.heapprofile` files open in Chrome DevTools' Memory tab); `FANOUT_SNAPSHOT=consumer,direct` writes a heap snapshot
 * of those at each window's end (what is alive then, and what holds it).
 */
import { type ChildProcess, fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { median, percentile } from './stats';

type Role = 'sim' | 'gateway' | 'consumer' | 'direct';
const TOPICS = ['trade', 'depth', 'realtimes', 'kline_1m'] as const;
/** Pairs of the venue (300: the whole venue; `--pairs` for a lighter one), the same in every process of a run. */
const argPairs = /--pairs[= ](\d+)/.exec(process.argv.join(' '));
const PAIRS = argPairs === null ? 300 : Number(argPairs[1]);
const SYMBOLS = Array.from({ length: PAIRS }, (_, i) => `P${i}USDT`);
/**
 * How the venue's pushes arrive. The simulator starts each topic's push timer when the topic is subscribed, so the
 * subscription's pace sets their phases: `smooth` subscribes one topic a frame, the topics spread over the longest push
 * period (`SMOOTH_RATE`: 1 200 topics over 500 ms at the service's periods, over 2 s at `--periods=issue`), so that
 * pushes arrive evenly, as in issue 28's bare sketch (until session 16 over 300 ms whatever the periods: at
 * `--periods=issue` every push of a second came in its first 300 ms); `burst` subscribes 20 symbols a frame at
 * once (every topic pushes in the same few ms: ~1 MB every 300 ms, each stage handles a burst before its last frame).
 */
const argArrival = /--arrival[= ](smooth|burst)/.exec(process.argv.join(' '));
const ARRIVAL = (argArrival?.[1] ?? 'smooth') as 'smooth' | 'burst';
/**
 * When the direct subscriber (the yardstick of a consumer's CPU per message) runs: `alone` (default), in windows of its
 * own after the consumers' (it decodes the whole venue too: beside them it took a core's third from the relay's
 * processes on this 2-core machine); `beside`: in the same windows as the consumers, as before.
 */
const argDirect = /--direct[= ](alone|beside)/.exec(process.argv.join(' '));
const DIRECT = (argDirect?.[1] ?? 'alone') as 'alone' | 'beside';
/**
 * The venue: `simulator` (default), or `replay`: the simulator's frames recorded for a few seconds at start, then served
 * by a small server in its place (see `replayVenue`), so that the venue costs little of the machine's two cores.
 */
/**
 * Seconds every client runs before its first measured window (`--warmup=S`, default 12): the first seconds of a process
 * (its code tiered up by the JIT, its young generation grown to the load) are not what it costs over a day. With 2 s,
 * the first 10 s window was the slowest in most runs (at `--periods=issue`, 2 rounds, 5 runs: the direct subscriber's
 * CPU per message 38-65 % above the second window's, a consumer's up to 42 %).
 */
const argWarmup = /--warmup[= ](\d+)/.exec(process.argv.join(' '));
const WARMUP_MS = (argWarmup === null ? 12 : Number(argWarmup[1])) * 1000;
/**
 * `--bare=on`: a bare ioredis reader in the bench process reads every entry in the measured windows (the gateway +
 * Redis part of the added latency, column "of which gateway + Redis"); off by default: it is a third reader of every
 * entry (Redis answers it too, and the bench process wakes for it) on the cores the measured processes share.
 */
const BARE = /--bare[= ]on/.test(process.argv.join(' '));
const argVenue = /--venue[= ](simulator|replay)/.exec(process.argv.join(' '));
const VENUE = (argVenue?.[1] ?? 'simulator') as 'simulator' | 'replay';
/**
 * The simulator's push periods (`--periods=trade:1000,kline:1000,realtimes:1000,depth:2000`), or `--periods=issue`: the
 * venue issue 28 measured its targets against (~1 070 msgs/s with ~100-200 books/s: every topic once a second, books
 * every 2 s, 1 050 msgs/s with 150 books/s at 300 pairs). Default: the service's periods (SPEC: trade, kline and depth
 * every 300 ms, realtimes every 500 ms), every topic pushing at every period (~3 200-3 600 msgs/s, ~1 000 books/s at
 * 300 pairs), which the real service sends only when every pair is busy.
 */
const argPeriods = /--periods[= ]([\w:,]+)/.exec(process.argv.join(' '));
const PERIODS_ARG = argPeriods?.[1];
const PERIODS: Partial<Record<'trade' | 'kline' | 'realtimes' | 'depth', number>> =
  PERIODS_ARG === undefined
    ? {}
    : PERIODS_ARG === 'issue'
      ? { trade: 1000, kline: 1000, realtimes: 1000, depth: 2000 }
      : Object.fromEntries(PERIODS_ARG.split(',').map((kv) => kv.split(':')).map(([k, v]) => [k, Number(v)]));
const periodsText = (): string =>
  PERIODS_ARG === undefined
    ? "the service's periods (300 ms; realtimes 500 ms)"
    : `periods ${['trade', 'kline', 'realtimes', 'depth'].map((k) => `${k} ${PERIODS[k as keyof typeof PERIODS] ?? (k === 'realtimes' ? 500 : 300)} ms`).join(', ')}${PERIODS_ARG === 'issue' ? " (--periods=issue: issue 28's measured venue)" : ''}`;
/** Subscriptions a second for `smooth` arrival: every topic once over the longest push period. */
const SMOOTH_RATE = Math.round((PAIRS * TOPICS.length * 1000) / Math.max(PERIODS.trade ?? 300, PERIODS.kline ?? 300, PERIODS.realtimes ?? 500, PERIODS.depth ?? 300));
const MARKET =
  ARRIVAL === 'smooth' ? ({ resubscribeRatePerSecond: SMOOTH_RATE, subscribeBurst: 1, maxSymbolsPerFrame: 1 } as const) : ({ resubscribeRatePerSecond: 200, subscribeBurst: 100 } as const);
/** The consumers' subscriptions go to Redis, not to the venue: no pacing needed. */
const RELAY_MARKET = { resubscribeRatePerSecond: 200, subscribeBurst: 100 } as const;

/** A consumer's or the direct subscriber's report over one window. */
interface ClientReport {
  readonly type: 'report';
  readonly cpuUs: number;
  readonly wallMs: number;
  readonly stalls: Stalls;
  readonly messages: number;
  readonly byTopic: Record<string, number>;
  /** Per message: key `topic|symbol|sendTime` and arrival (epoch ms, sub-ms). */
  readonly keys: string[];
  readonly at: number[];
}

/** One round of one N. */
interface Round {
  readonly addedMedianMs: number;
  readonly addedP99Ms: number;
  readonly matched: number;
  readonly gatewayShare: number;
  /** The gateway's CPU per entry written, µs (its share at a stated rate: this × msgs/s). */
  readonly gatewayUsPerMsg: number;
  /** Gateway `r` → a bare ioredis reader in the bench process (the gateway + Redis part of the added latency). */
  readonly bareMedianMs: number;
  readonly consumerShares: number[];
  readonly consumerUsPerMsg: number;
  readonly directUsPerMsg: number;
  readonly ratio: number;
  readonly directLatencyMedianMs: number;
  readonly ratePerSec: number;
  readonly mix: Record<string, number>;
  readonly load: string;
}

/** The result row of one N (medians of the rounds, ranges). */
export interface FanoutRow {
  readonly consumers: number;
  readonly shards: number;
  readonly rounds: number;
  readonly seconds: number;
  readonly ratePerSec: number;
  readonly mix: Record<string, number>;
  readonly addedMedianMs: readonly [number, number, number];
  readonly addedP99Ms: readonly [number, number, number];
  readonly gatewayShare: readonly [number, number, number];
  readonly gatewayUsPerMsg: readonly [number, number, number];
  readonly bareMedianMs: readonly [number, number, number];
  readonly consumerShare: readonly [number, number, number];
  readonly consumerUsPerMsg: number;
  readonly directUsPerMsg: number;
  readonly ratio: readonly [number, number, number];
  readonly directLatencyMedianMs: number;
  readonly loads: string[];
}

const cpuUs = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const epochMs = (): number => performance.timeOrigin + performance.now();
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

/** [median, low, high] */
const spread = (xs: readonly number[]): [number, number, number] => [median(xs), Math.min(...xs), Math.max(...xs)];
const r2 = (x: number): number => Math.round(x * 100) / 100;

// ---------------------------------------------------------------------------------------------------------------
// Children

/** Sends `m` to the parent. */
const tell = (m: unknown): void => void process.send!(m as never);

/** Where a process's own stalls come from over a window: its event loop's delay and its GC pauses (ms). */
interface Stalls {
  readonly loopP50Ms: number;
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
  readonly gcCount: number;
  readonly gcTotalMs: number;
  readonly gcMaxMs: number;
  /** Of which major (mark-compact): count, total ms. */
  readonly gcMajor: number;
  readonly gcMajorMs: number;
  /** The heap in use at the window's end, MB. */
  readonly heapMb: number;
}

/** A window's CPU and wall time, started at `begin` and read at `end`, with the process's {@link Stalls}. */
function windowMeter(): { begin(): void; end(): { cpuUs: number; wallMs: number; stalls: Stalls } } {
  let c0 = 0;
  let t0 = 0;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const gc: number[] = [];
  const major: number[] = [];
  let measuring = false;
  new PerformanceObserver((list) => {
    if (!measuring) return;
    for (const e of list.getEntries()) {
      gc.push(e.duration);
      // NODE_PERFORMANCE_GC_MAJOR
      if (((e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0) === 4) major.push(e.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  return {
    begin: () => {
      c0 = cpuUs();
      t0 = performance.now();
      loop.reset();
      loop.enable();
      gc.length = 0;
      major.length = 0;
      measuring = true;
    },
    end: () => {
      loop.disable();
      measuring = false;
      const stalls: Stalls = {
        loopP50Ms: loop.percentile(50) / 1e6,
        loopP99Ms: loop.percentile(99) / 1e6,
        loopMaxMs: loop.max / 1e6,
        gcCount: gc.length,
        gcTotalMs: gc.reduce((a, b) => a + b, 0),
        gcMaxMs: Math.max(0, ...gc),
        gcMajor: major.length,
        gcMajorMs: major.reduce((a, b) => a + b, 0),
        heapMb: process.memoryUsage().heapUsed / 1e6,
      };
      return { cpuUs: cpuUs() - c0, wallMs: performance.now() - t0, stalls };
    },
  };
}

/** A process's stalls in a line: event-loop delay p99 / max, GC pauses. */
const stallLine = (s: Stalls): string =>
  `loop delay p99 ${r2(s.loopP99Ms)} max ${r2(s.loopMaxMs)} ms, GC ${s.gcCount} pauses ${r2(s.gcTotalMs)} ms (max ${r2(s.gcMaxMs)}; major ${s.gcMajor}, ${r2(s.gcMajorMs)} ms), heap ${Math.round(s.heapMb)} MB`;

async function simChild(): Promise<void> {
  const { startSimulator } = await import('../../lib/simulator');
  const sim = await startSimulator({ symbols: SYMBOLS, seed: 28, periodsMs: PERIODS });
  const meter = windowMeter();
  let venue = { url: sim.publicStreamUrl, close: () => sim.close() };
  if (VENUE === 'replay') {
    const frames = await captureFrames(sim.publicStreamUrl);
    await sim.close();
    venue = await replayVenue(frames);
  }
  tell({ type: 'ready', url: venue.url });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'begin') meter.begin();
    if (m.type === 'end') tell({ type: 'report', ...meter.end() });
    if (m.type === 'stop') void venue.close().then(() => process.exit(0));
  });
}

/** How long `--venue=replay` records the simulator's frames before serving them, ms. */
const CAPTURE_MS = 4000;

/**
 * `--venue=replay`: the simulator's own frames, every topic of every pair for {@link CAPTURE_MS}, each kept without its
 * envelope's tail (`"f"`, `"sendTime"`, `"shared"`, `"id"`: written again at each push), by `symbol|request topic`.
 */
async function captureFrames(url: string): Promise<Map<string, string[]>> {
  const frames = new Map<string, string[]>();
  const firsts = new Map<string, string[]>();
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let id = 0;
  for (const topic of TOPICS) {
    for (let i = 0; i < SYMBOLS.length; i += 20) {
      socket.send(JSON.stringify({ id: String(++id), event: 'sub', symbol: SYMBOLS.slice(i, i + 20).join(','), topic, params: { binary: false } }));
    }
  }
  socket.on('message', (data: Buffer) => {
    const text = data.toString();
    const m = JSON.parse(text) as { symbol?: string; topic?: string; params?: { klineType?: string }; f?: boolean };
    if (typeof m.symbol !== 'string' || typeof m.topic !== 'string') return;
    const key = `${m.symbol}|${m.topic === 'kline' ? `kline_${m.params?.klineType}` : m.topic}`;
    const into = m.f === true ? firsts : frames;
    const list = into.get(key) ?? [];
    list.push(text.slice(0, text.lastIndexOf(']') + 1));
    into.set(key, list);
  });
  await new Promise((resolve) => setTimeout(resolve, CAPTURE_MS));
  socket.close();
  // a topic that sent only its first message (a quiet pair's trades) replays that one
  for (const [key, list] of firsts) if (!frames.has(key)) frames.set(key, list);
  return frames;
}

/**
 * `--venue=replay`: a websocket server that answers pings and `sub` / `cancel` as the simulator does and pushes each
 * subscribed topic's captured frames in turn at the topic's period (realtimes 500 ms, the others 300 ms; the first at
 * once, `"f":true`), each with a new `sendTime` and the request's `id`: the simulator's frames without its cost (it
 * generated each book, ~57 % of a core at the whole venue).
 */
/** The push period of a replayed topic: `--periods` (as the simulator's), else the service's (300 ms, realtimes 500 ms). */
function replayPeriodMs(topic: string): number {
  const kind = topic.startsWith('kline_') ? 'kline' : (topic as 'trade' | 'realtimes' | 'depth');
  return PERIODS[kind] ?? (kind === 'realtimes' ? 500 : 300);
}

async function replayVenue(frames: ReadonlyMap<string, readonly string[]>): Promise<{ url: string; close: () => Promise<void> }> {
  const { WebSocketServer } = await import('ws');
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  server.on('connection', (peer) => {
    const subs = new Map<string, NodeJS.Timeout>();
    const stop = (key: string): void => {
      clearInterval(subs.get(key));
      subs.delete(key);
    };
    peer.on('close', () => [...subs.keys()].forEach(stop));
    peer.on('message', (data: Buffer) => {
      let m: { ping?: unknown; event?: unknown; symbol?: unknown; topic?: unknown; id?: unknown };
      try {
        m = JSON.parse(data.toString()) as typeof m;
      } catch {
        return;
      }
      if (m.ping !== undefined) return peer.send(`{"pong":${Date.now()}}`);
      if (typeof m.symbol !== 'string' || typeof m.topic !== 'string') return;
      const { topic } = m;
      const id = String(m.id);
      for (const symbol of m.symbol.split(',')) {
        const key = `${symbol}|${topic}`;
        stop(key);
        const list = frames.get(key);
        if (m.event !== 'sub' || list === undefined) continue;
        let at = 0;
        const push = (): void => {
          const first = at === 0;
          peer.send(`${list[at++ % list.length]},"f":${first},"sendTime":${Date.now()},"shared":false,"id":"${id}"}`);
        };
        push();
        subs.set(key, setInterval(push, replayPeriodMs(topic)));
      }
    });
  });
  const { port } = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}/quote/ws/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function gatewayChild(url: string, redis: string, prefix: string, shards: number): Promise<void> {
  const { publishMarket } = await import('../../lib/redis/publishMarket');
  const gateway = publishMarket({ redis, url, symbols: SYMBOLS, topics: [...TOPICS], prefix, shards, market: MARKET, WebSocketCtor: WebSocket as never });
  let written = 0;
  let dropped = 0;
  let queued = 0;
  gateway.status$.subscribe((s) => {
    written = s.written;
    dropped = s.dropped;
    queued = s.queued;
  });
  gateway.errors$.subscribe((e) => process.stderr.write(`fanout gateway: ${e.message}\n`));
  const meter = windowMeter();
  const heap = heapSampler('gateway');
  let w0 = 0;
  // ready once it has written a second of the venue
  const wait = setInterval(() => {
    if (written > 1000) {
      clearInterval(wait);
      tell({ type: 'ready' });
    }
  }, 50);
  process.on('message', (m: { type: string }) => {
    if (m.type === 'begin') {
      meter.begin();
      heap.begin();
      w0 = written;
    }
    if (m.type === 'end') {
      tell({ type: 'report', ...meter.end(), written: written - w0, dropped, queued });
      heap.end();
    }
    if (m.type === 'stop') void gateway.stop().then(() => process.exit(0));
  });
}

/**
 * `FANOUT_HEAP_PROF=gateway,consumer,direct`: the inspector's sampling heap profiler over each measured window of those
 * processes, keeping only the samples of objects that survived a scavenge (`includeObjectsCollectedByMajorGC`, not
 * by minor GC): what the process promoted, by allocation site (`.tmp/prof-fanout/<role>-<pid>-<n>.heapprofile`;
 * with `--expose-gc` in `FANOUT_NODE_FLAGS`, two scavenges first, so that the young generation's last objects do not
 * count). `FANOUT_HEAP_ALL=1`: every object allocated, scavenged or not (the allocation rate by site). A diagnosis,
 * not a measure: it costs CPU.
 */
function heapSampler(role: Role): { begin(): void; end(): void } {
  if (!(process.env['FANOUT_HEAP_PROF'] ?? '').split(',').includes(role)) return { begin: () => undefined, end: () => undefined };
  const session = new inspector.Session();
  session.connect();
  let n = 0;
  return {
    begin: () =>
      session.post('HeapProfiler.startSampling', {
        samplingInterval: Number(process.env['FANOUT_HEAP_INTERVAL'] ?? 16384),
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: process.env['FANOUT_HEAP_ALL'] === '1',
      } as never),
    end: () => {
      const gc = (globalThis as { gc?: (o: unknown) => void }).gc;
      gc?.({ type: 'minor' });
      gc?.({ type: 'minor' });
      session.post('HeapProfiler.stopSampling', (error, result) => {
        if (error !== null) return void process.stderr.write(`fanout heap profile: ${error.message}\n`);
        const dir = path.join(ROOT, '.tmp/prof-fanout');
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, `${role}-${process.pid}-${++n}.heapprofile`), JSON.stringify(result.profile));
      });
    },
  };
}

/** The venue (a `sim` child: its `url`) and a gateway on it writing to `redisUrl` under `prefix`, both ready (and pushed to `children`). */
async function startVenueAndGateway(redisUrl: string, prefix: string, shards: number, children: Child[]): Promise<{ sim: Child; url: string; gateway: Child }> {
  const sim = spawnChild('sim', []);
  children.push(sim);
  const url = String((await sim.ready)['url']);
  const gateway = spawnChild('gateway', ['--url', url, '--redis', redisUrl, '--prefix', prefix, '--shards', String(shards)]);
  children.push(gateway);
  await gateway.ready;
  return { sim, url, gateway };
}

/**
 * The latency the Redis hop added to each message of `reports` that has an entry in `rTimes` (the gateway's receive
 * time, truncated to the ms: + 0.5 ms), sorted.
 */
function addedLatencies(reports: readonly Pick<ClientReport, 'keys' | 'at'>[], rTimes: ReadonlyMap<string, number>): number[] {
  const added: number[] = [];
  const dumpTo = process.env['FANOUT_DUMP'];
  const dump: string[] = [];
  reports.forEach((rep, c) => {
    for (let i = 0; i < rep.keys.length; i++) {
      const r0 = rTimes.get(rep.keys[i]!);
      if (r0 === undefined) continue;
      const ms = rep.at[i]! - (r0 + 0.5);
      added.push(ms);
      if (dumpTo) dump.push(`${c} ${r0} ${ms.toFixed(3)} ${rep.keys[i]!}`);
    }
  });
  if (dumpTo) fs.appendFileSync(dumpTo, dump.join('\n') + '\n');
  return added.sort((a, b) => a - b);
}

/** A consumer (`redis` given) or the direct subscriber (`url` given): every topic of every pair, typed messages. */
async function clientChild(source: { redis: string; prefix: string; shards: number } | { url: string }): Promise<void> {
  const { merge } = await import('rxjs');
  const market =
    'redis' in source
      ? (await import('../../lib/redis/redisMarketStreams')).redisMarketStreams({ redis: source.redis, prefix: source.prefix, shards: source.shards, market: RELAY_MARKET })
      : (await import('../../lib/market/marketStreams')).marketStreams({ url: source.url, WebSocketCtor: WebSocket as never, ...MARKET });
  const streams = SYMBOLS.flatMap((s) => [market.tradeMessages(s), market.depthMessages(s), market.realtimesMessages(s), market.klineMessages(s, '1m')]);
  const seen = new Set<string>();
  let live = false;
  let measuring = false;
  let messages = 0;
  let byTopic: Record<string, number> = {};
  // What a window's messages were, kept as numbers until the window ends (a string per message kept to the end of
  // the window outlived the scavenges: ~2 MB promoted per window, a quarter of a consumer's, the measure weighing on
  // what it measures): each message's topic and pair by number, its send time, its arrival.
  const names: string[] = [];
  const nameIds = new Map<string, number>();
  let ids: number[] = [];
  let sendTimes: number[] = [];
  let at: number[] = [];
  const meter = windowMeter();
  const role = 'redis' in source ? 'consumer' : 'direct';
  const heap = heapSampler(role);
  const sub = merge(...streams).subscribe((m) => {
    if (measuring) {
      const t = epochMs();
      messages++;
      byTopic[m.topic] = (byTopic[m.topic] ?? 0) + 1;
      const name = `${m.topic}|${m.symbol}`;
      let id = nameIds.get(name);
      if (id === undefined) nameIds.set(name, (id = names.push(name) - 1));
      ids.push(id);
      sendTimes.push(m.sendTime ?? -1);
      at.push(t);
    } else if (!live) {
      seen.add(`${m.topic}|${m.symbol}`);
      if (seen.size === streams.length) {
        live = true;
        tell({ type: 'ready' });
      }
    }
  });
  market.errors$.subscribe((e) => process.stderr.write(`fanout ${role}: ${e.message}\n`));
  process.on('message', (m: { type: string }) => {
    if (m.type === 'begin') {
      messages = 0;
      byTopic = {};
      ids = [];
      sendTimes = [];
      at = [];
      measuring = true;
      meter.begin();
      heap.begin();
    }
    if (m.type === 'end') {
      const w = meter.end();
      heap.end();
      measuring = false;
      // FANOUT_SNAPSHOT=consumer,direct: a heap snapshot at each window's end (what is alive, and what holds it).
      if ((process.env['FANOUT_SNAPSHOT'] ?? '').split(',').includes(role)) {
        fs.mkdirSync(path.join(ROOT, '.tmp/prof-fanout'), { recursive: true });
        v8.writeHeapSnapshot(path.join(ROOT, `.tmp/prof-fanout/${role}-${process.pid}.heapsnapshot`));
      }
      const keys = ids.map((id, i) => `${names[id]}|${sendTimes[i]! < 0 ? 'undefined' : sendTimes[i]}`);
      tell({ type: 'report', ...w, messages, byTopic, keys, at } satisfies ClientReport);
      ids = [];
      sendTimes = [];
      at = [];
    }
    if (m.type === 'stop') {
      sub.unsubscribe();
      setTimeout(() => process.exit(0), 100);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Parent

/** A forked child: its first `ready` message, and requests answered by its next message. */
interface Child {
  readonly role: Role;
  readonly process: ChildProcess;
  readonly ready: Promise<Record<string, unknown>>;
  request(type: string): Promise<Record<string, unknown>>;
  send(type: string): void;
  stop(): Promise<void>;
}

/** The repository's root (this file is spec/bench/fanout.ts, or its transpiled copy under .tmp/fanout-js). */
const ROOT = path.resolve(__dirname, __filename.endsWith('.ts') ? '../..' : '../../../..');

/**
 * The file the children run: this one transpiled to CommonJS JavaScript (with `lib/`, `spec/bench/`, `spec/helpers/`:
 * TypeScript's `transpileModule`, what ts-node's transpile-only mode does, ahead of time) under `.tmp/fanout-js`, so
 * that no child carries the TypeScript compiler in its heap, as no deployment does: the gateway's heap was 48-78 MB
 * under ts-node, 14-36 MB transpiled (GC pauses of the gateway and the consumers make the added latency's p99: the
 * `stalls:` lines). `--ts-node`: the children run this file under ts-node.
 */
let childFile: string | undefined;
async function benchChildFile(): Promise<string> {
  if (childFile !== undefined) return childFile;
  if (!__filename.endsWith('.ts') || process.argv.includes('--ts-node')) return (childFile = __filename);
  return (childFile = await transpiledBench(ROOT));
}

/** The bench file of the checkout at `root`, transpiled with its `lib/`, `spec/bench/`, `spec/helpers/` under its `.tmp/fanout-js`. */
async function transpiledBench(root: string): Promise<string> {
  const ts = await import('typescript');
  const { mkdirSync, readdirSync, readFileSync, writeFileSync } = await import('node:fs');
  const out = path.join(root, '.tmp/fanout-js');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const dir of ['lib', 'spec/bench', 'spec/helpers']) {
    for (const file of walk(path.join(root, dir))) {
      if (!file.endsWith('.ts') || file.endsWith('.d.ts')) continue;
      const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true };
      const js = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file }).outputText;
      const dest = path.join(out, path.relative(root, file)).replace(/\.ts$/, '.js');
      mkdirSync(path.dirname(dest), { recursive: true });
      writeFileSync(dest, js);
    }
  }
  return path.join(out, 'spec/bench/fanout.js');
}

function spawnChild(role: Role, args: readonly string[], file = childFile ?? __filename): Child {
  const prof = (process.env['FANOUT_PROF'] ?? '').split(',').includes(role);
  // ts-node only for a TypeScript file (a transpiled bench runs as plain JavaScript)
  // FANOUT_NODE_FLAGS: V8 / Node flags for every child (e.g. `--single-threaded-gc`, `--max-semi-space-size=64`)
  const flags = (process.env['FANOUT_NODE_FLAGS'] ?? '').split(' ').filter((f) => f !== '');
  const execArgv = [...flags, ...(file.endsWith('.ts') ? ['-r', 'ts-node/register/transpile-only'] : []), ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, '.tmp/prof-fanout')}`, `--cpu-prof-name=${role}-${process.hrtime.bigint()}.cpuprofile`] : [])];
  const child = fork(file, ['--role', role, '--pairs', String(PAIRS), '--arrival', ARRIVAL, '--venue', VENUE, ...(PERIODS_ARG === undefined ? [] : ['--periods', PERIODS_ARG]), ...args], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiters: Array<(m: Record<string, unknown>) => void> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (m: Record<string, unknown>) => waiters.shift()?.(m));
  const next = (): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      waiters.push(resolve);
      void exited.then(() => reject(new Error(`fanout: the ${role} process exited`)));
    });
  const ready = next();
  ready.catch(() => undefined);
  return {
    role,
    process: child,
    ready,
    request: (type) => {
      const reply = next();
      child.send({ type });
      return reply;
    },
    send: (type) => void child.send({ type }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * A bare ioredis reader in this process (one `XREAD BLOCK` over every shard, no library): gateway `r` → entry read, ms,
 * for each data entry until `stop()`. It splits the added latency into the gateway + Redis part and the consumer's.
 */
async function bareReader(redisUrl: string, prefix: string, shards: number): Promise<{ stop(): Promise<number[]> }> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl);
  const keys = Array.from({ length: shards }, (_, i) => `${prefix}{${i}}`);
  const cursors = keys.map(() => '$');
  const out: number[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const reply = (await client.xread('COUNT', 1000, 'BLOCK', 200, 'STREAMS', ...keys, ...cursors)) as [string, [string, string[]][]][] | null;
      const t = epochMs();
      for (const [key, entries] of reply ?? []) {
        const at = keys.indexOf(key);
        for (const [id, fields] of entries) {
          cursors[at] = id;
          const r = fields.indexOf('r');
          if (r >= 0 && fields.includes('f')) out.push(t - (Number(fields[r + 1]) + 0.5));
        }
      }
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      client.disconnect();
      return out.sort((a, b) => a - b);
    },
  };
}

/** The gateway's receive time (`r`) of each data entry written since `fromMs`, by `topic|symbol|sendTime`. */
async function receiveTimes(redisUrl: string, prefix: string, shards: number, fromMs: number, hop: number[] = []): Promise<Map<string, number>> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl);
  const out = new Map<string, number>();
  try {
    for (let shard = 0; shard < shards; shard++) {
      const key = `${prefix}{${shard}}`;
      let start = `${Math.floor(fromMs)}-0`;
      for (;;) {
        const entries = await client.xrange(key, start, '+', 'COUNT', 2000);
        for (const [, fields] of entries) {
          let s = '';
          let c = '';
          let r = NaN;
          let f = '';
          for (let i = 0; i < fields.length; i += 2) {
            const v = fields[i + 1]!;
            switch (fields[i]) {
              case 's': s = v; break;
              case 'c': c = v; break;
              case 'r': r = Number(v); break;
              case 'f': f = v; break;
              default:
            }
          }
          if (f === '') continue;
          const m = /"sendTime":"?(\d+)/.exec(f);
          if (m !== null) out.set(`${c}|${s}|${m[1]}`, r);
          if (m !== null) hop.push(r - Number(m[1]));
        }
        if (entries.length < 2000) break;
        start = `(${entries[entries.length - 1]![0]}`;
      }
    }
  } finally {
    client.disconnect();
  }
  return out;
}

/**
 * Two gateways side by side (`--compare-gateway=DIR`): this tree's and the one in checkout `DIR` (its own
 * `spec/bench/fanout.ts`, e.g. a `git archive` of an earlier commit with `node_modules` linked), following the same
 * simulator into the same `redis-server` (each its own prefix) in the same windows, with a bare ioredis reader per
 * gateway in this process: their CPU per entry and their `r` → read latency under the same load. On a machine shared
 * with other work this is the comparison that holds (the load moves both alike). Returns the lines it logged.
 */
export async function compareGateways(otherDir: string, windows: number, seconds: number, shards: number, log: (line: string) => void, redisDelayMs = 0): Promise<void> {
  const { startRedisServer } = await import('../helpers/redisServer');
  const { startTcpProxy } = await import('../helpers/tcpProxy');
  const redis = await startRedisServer();
  // `--redis-delay-ms`: the gateways reach Redis through a proxy that delays Redis's answers (a Redis across a network)
  const proxy = redisDelayMs > 0 ? await startTcpProxy(redis.port, { downstreamDelayMs: redisDelayMs }) : undefined;
  const gatewayRedis = proxy === undefined ? redis.url() : `redis://127.0.0.1:${proxy.port}`;
  // Both under ts-node (the other checkout's file is TypeScript): alike, whatever that costs.
  const mine = path.join(ROOT, 'spec/bench/fanout.ts');
  const sim = spawnChild('sim', [], mine);
  const children: Child[] = [sim];
  try {
    const url = String((await sim.ready)['url']);
    const other = path.resolve(otherDir, 'spec/bench/fanout.ts');
    const gateways = [mine, other].map((file, i) => {
      const args = ['--url', url, '--redis', gatewayRedis, '--prefix', `cmp${i}:`, '--shards', String(shards)];
      return spawnChild('gateway', args, file);
    });
    children.push(...gateways);
    await Promise.all(gateways.map((g) => g.ready));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (let w = 0; w < windows; w++) {
      const loadAt = load();
      const readers = await Promise.all(gateways.map((_, i) => bareReader(redis.url(), `cmp${i}:`, shards)));
      for (const c of [sim, ...gateways]) c.send('begin');
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      const latencies = await Promise.all(readers.map((r) => r.stop()));
      const [simReport, ...reports] = await Promise.all([sim, ...gateways].map((c) => c.request('end')));
      const line = reports.map((rep, i) => {
        const lat = latencies[i]!;
        const name = i === 0 ? 'this tree' : otherDir;
        return `${name}: ${r2(Number(rep['cpuUs']) / Number(rep['written']))} µs/entry, ${pct(Number(rep['cpuUs']) / 1000 / Number(rep['wallMs']))} ` +
          `(${Math.round(Number(rep['written']) / (Number(rep['wallMs']) / 1000))} entries/s), r → read median ${r2(percentile(lat, 50))} ms p99 ${r2(percentile(lat, 99))} ms`;
      });
      log(`  window ${w + 1}, load ${loadAt}: ${line.join('; ')}; simulator ${pct(Number(simReport['cpuUs']) / 1000 / Number(simReport['wallMs']))}`);
    }
  } finally {
    for (const c of children.reverse()) await c.stop().catch(() => undefined);
    await proxy?.close();
    await redis.stop();
  }
}

/**
 * `--compare-consumer=DIR`: one simulator, one gateway (this tree's) and one `redis-server`, with `consumers` consumer
 * processes of this tree and as many of checkout DIR's (both transpiled), measured in the same windows: each one's CPU
 * per message and the latency it adds (gateway `r` → typed message). The machine's load moves both alike, where runs
 * one after the other (the main case) differ by more than a change to the consumer.
 */
export async function compareConsumers(otherDir: string, consumers: number, windows: number, seconds: number, shards: number, log: (line: string) => void): Promise<void> {
  const { startRedisServer } = await import('../helpers/redisServer');
  const redis = await startRedisServer();
  const children: Child[] = [];
  try {
    const files = [await benchChildFile(), await transpiledBench(path.resolve(otherDir))];
    const prefix = `cmp:${Date.now()}:`;
    const { gateway } = await startVenueAndGateway(redis.url(), prefix, shards, children);
    const names = ['this tree', otherDir];
    const groups = files.map((file) => Array.from({ length: consumers }, () => spawnChild('consumer', ['--redis', redis.url(), '--prefix', prefix, '--shards', String(shards)], file)));
    const all = groups.flat();
    children.push(...all);
    await Promise.all(all.map((c) => c.ready));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    log(`compare consumers: ${consumers} of this tree and ${consumers} of ${otherDir} on one gateway (${PAIRS} pairs, ${periodsText()}), ${shards} shards`);
    for (let w = 0; w < windows; w++) {
      const loadAt = load();
      const beginMs = Date.now();
      for (const c of [gateway, ...all]) c.send('begin');
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      const [gwReport, ...reports] = (await Promise.all([gateway, ...all].map((c) => c.request('end')))) as unknown as [Record<string, unknown>, ...ClientReport[]];
      const rTimes = await receiveTimes(redis.url(), prefix, shards, beginMs - 5000);
      const line = groups.map((_, g) => {
        const reps = reports.slice(g * consumers, (g + 1) * consumers);
        const added = addedLatencies(reps, rTimes);
        const us = reps.map((rep) => r2(rep.cpuUs / rep.messages));
        const gc = reps.map((rep) => `${Math.round(rep.stalls.gcTotalMs)}/${Math.round(rep.stalls.gcMaxMs)}`);
        return `${names[g]}: µs/msg ${us.join(', ')}; added median ${r2(percentile(added, 50))} ms, p99 ${r2(percentile(added, 99))} ms; GC ms total/max ${gc.join(', ')}`;
      });
      const gwRate = Math.round(Number(gwReport['written']) / (Number(gwReport['wallMs']) / 1000));
      log(`  window ${w + 1}, load ${loadAt}, ${gwRate} entries/s: ${line.join(' | ')}`);
    }
  } finally {
    for (const c of children.reverse()) await c.stop().catch(() => undefined);
    await redis.stop();
  }
}

export interface FanoutOptions {
  readonly consumers: readonly number[];
  readonly rounds: number;
  readonly seconds: number;
  readonly shards: number;
}

/** The whole case; `undefined` (and a line on `log`) when `redis-server` is absent. */
export async function fanoutBench(options: FanoutOptions, log: (line: string) => void): Promise<FanoutRow[] | undefined> {
  const { hasRedisServer, startRedisServer } = await import('../helpers/redisServer');
  if (!hasRedisServer()) {
    log('fanout: skipped, redis-server is not on PATH (apt-get install -y redis-server)');
    return undefined;
  }
  const { shards, rounds, seconds } = options;
  const redis = await startRedisServer();
  const children: Child[] = [];
  const rows: FanoutRow[] = [];
  try {
    await benchChildFile();
    const prefix = `bench:${Date.now()}:`;
    const { sim, url, gateway } = await startVenueAndGateway(redis.url(), prefix, shards, children);
    log(`fanout: ${VENUE === 'replay' ? "the simulator's frames, replayed" : 'simulator'} (${PAIRS} pairs, ${ARRIVAL} arrival) and gateway up; redis-server on port ${redis.port}, ${shards} shards`);
    /** The direct subscriber's rounds (alone, or beside the consumers with `--direct=beside`). */
    const directRound = (report: ClientReport): { usPerMsg: number; latencyMedianMs: number; latencyP99Ms: number; ratePerSec: number; mix: Record<string, number> } => {
      const wallS = report.wallMs / 1000;
      const latency = report.keys.map((k, i) => report.at[i]! - (Number(k.slice(k.lastIndexOf('|') + 1)) + 0.5)).sort((a, b) => a - b);
      return {
        usPerMsg: report.cpuUs / report.messages,
        latencyMedianMs: r2(percentile(latency, 50)),
        latencyP99Ms: r2(percentile(latency, 99)),
        ratePerSec: Math.round(report.messages / wallS),
        mix: Object.fromEntries(Object.entries(report.byTopic).map(([k, v]) => [k, Math.round(v / wallS)])),
      };
    };
    const share = (rep: { cpuUs: number; wallMs: number }): number => rep.cpuUs / 1000 / rep.wallMs;
    for (const n of options.consumers) {
      const consumers = Array.from({ length: n }, () => spawnChild('consumer', ['--redis', redis.url(), '--prefix', prefix, '--shards', String(shards)]));
      const beside = DIRECT === 'beside' ? [spawnChild('direct', ['--url', url])] : [];
      const clients = [...consumers, ...beside];
      children.push(...clients);
      await Promise.all(clients.map((c) => c.ready));
      await new Promise((resolve) => setTimeout(resolve, WARMUP_MS)); // warm-up: every topic live, JIT settled (see WARMUP_MS)
      const relayRounds: Array<Omit<Round, 'directUsPerMsg' | 'ratio' | 'directLatencyMedianMs' | 'ratePerSec' | 'mix'> & { consumerMessages: number; directReport?: ClientReport }> = [];
      for (let r = 0; r < rounds; r++) {
        const loadAt = load();
        const beginMs = Date.now();
        const bare = BARE ? await bareReader(redis.url(), prefix, shards) : { stop: async (): Promise<number[]> => [] };
        for (const c of [sim, gateway, ...clients]) c.send('begin');
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        const bareAdded = await bare.stop();
        const [simReport, gwReport, ...reports] = await Promise.all([sim, gateway, ...clients].map((c) => c.request('end')));
        const consumerReports = reports.slice(0, n) as unknown as ClientReport[];
        const venueHop: number[] = [];
        const rTimes = await receiveTimes(redis.url(), prefix, shards, beginMs - 5000, venueHop);
        venueHop.sort((a, b) => a - b);
        const sendToConsumer = consumerReports[0]!.keys.map((k, i) => consumerReports[0]!.at[i]! - Number(k.slice(k.lastIndexOf('|') + 1))).sort((a, b) => a - b);
        const added = addedLatencies(consumerReports, rTimes);
        log(
          `  diag: simulator sendTime → gateway r median ${percentile(venueHop, 50)} ms, p99 ${percentile(venueHop, 99)}; sendTime → consumer 1 median ${r2(percentile(sendToConsumer, 50))}; ` +
            `gateway r → a bare ioredis XREAD in the bench process median ${r2(percentile(bareAdded, 50))} ms, p99 ${r2(percentile(bareAdded, 99))} (${bareAdded.length}); gateway queued ${String(gwReport['queued'])}\n` +
            `  stalls: gateway ${stallLine(gwReport['stalls'] as Stalls)}; consumer 1 ${stallLine(consumerReports[0]!.stalls)}; simulator ${stallLine(simReport['stalls'] as Stalls)}`,
        );
        const consumerUs = consumerReports.map((c) => c.cpuUs / c.messages);
        const round = {
          addedMedianMs: r2(percentile(added, 50)),
          addedP99Ms: r2(percentile(added, 99)),
          matched: added.length,
          gatewayShare: share(gwReport as { cpuUs: number; wallMs: number }),
          gatewayUsPerMsg: r2(Number(gwReport['cpuUs']) / Number(gwReport['written'])),
          bareMedianMs: r2(percentile(bareAdded, 50)),
          consumerShares: consumerReports.map(share),
          consumerUsPerMsg: median(consumerUs),
          load: loadAt,
          consumerMessages: consumerReports.reduce((a, c) => a + c.messages, 0),
          ...(beside.length > 0 && { directReport: reports[n] as unknown as ClientReport }),
        };
        relayRounds.push(round);
        const gwRate = Math.round(Number(gwReport['written']) / (Number(gwReport['wallMs']) / 1000));
        log(
          `  ${n} consumers, round ${r + 1}: load ${loadAt}; gateway wrote ${gwRate} entries/s; added latency median ${round.addedMedianMs} ms, ` +
            `p99 ${round.addedP99Ms} ms (${added.length} of ${round.consumerMessages} matched); gateway ${pct(round.gatewayShare)} ` +
            `(${String(gwReport['written'])} written, ${String(gwReport['dropped'])} dropped in all); consumers ${round.consumerShares.map(pct).join(', ')}; ` +
            `µs/msg consumer ${r2(round.consumerUsPerMsg)}; simulator ${pct(share(simReport as { cpuUs: number; wallMs: number }))}`,
        );
      }
      await Promise.all(clients.map((c) => c.stop()));
      // The direct subscriber: beside the consumers (`--direct=beside`), or alone after them (the default), so that it
      // does not take a core's share from the relay's processes while they are measured.
      let directs = relayRounds.flatMap((r) => (r.directReport === undefined ? [] : [directRound(r.directReport)]));
      if (DIRECT === 'alone') {
        const direct = spawnChild('direct', ['--url', url]);
        children.push(direct);
        await direct.ready;
        await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
        for (let r = 0; r < rounds; r++) {
          const loadAt = load();
          for (const c of [sim, direct]) c.send('begin');
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
          const [simReport, directReport] = await Promise.all([sim, direct].map((c) => c.request('end')));
          const d = directRound(directReport as unknown as ClientReport);
          directs.push(d);
          log(
            `  direct subscriber alone, round ${r + 1}: load ${loadAt}; ${d.ratePerSec} msgs/s (${JSON.stringify(d.mix)}); µs/msg ${r2(d.usPerMsg)}; ` +
              `sendTime → message median ${d.latencyMedianMs} ms, p99 ${d.latencyP99Ms} ms (one hop, for the machine's tail); simulator ${pct(share(simReport as { cpuUs: number; wallMs: number }))}; ` +
              `stalls ${stallLine((directReport as unknown as ClientReport).stalls)}`,
          );
        }
        await direct.stop();
      }
      directs = directs.length > 0 ? directs : [{ usPerMsg: NaN, latencyMedianMs: NaN, latencyP99Ms: NaN, ratePerSec: 0, mix: {} }];
      const directUs = median(directs.map((d) => d.usPerMsg));
      const done: Round[] = relayRounds.map((r) => ({
        ...r,
        directUsPerMsg: directUs,
        ratio: r.consumerUsPerMsg / directUs,
        directLatencyMedianMs: median(directs.map((d) => d.latencyMedianMs)),
        ratePerSec: Math.round(r.consumerMessages / n / seconds),
        mix: directs[directs.length >> 1]!.mix,
      }));
      const allShares = done.flatMap((d) => d.consumerShares);
      rows.push({
        consumers: n,
        shards,
        rounds,
        seconds,
        ratePerSec: median(done.map((d) => d.ratePerSec)),
        mix: done[done.length >> 1]!.mix,
        addedMedianMs: spread(done.map((d) => d.addedMedianMs)),
        addedP99Ms: spread(done.map((d) => d.addedP99Ms)),
        gatewayShare: spread(done.map((d) => d.gatewayShare)),
        gatewayUsPerMsg: spread(done.map((d) => d.gatewayUsPerMsg)),
        bareMedianMs: spread(done.map((d) => d.bareMedianMs)),
        consumerShare: spread(allShares),
        consumerUsPerMsg: r2(median(done.map((d) => d.consumerUsPerMsg))),
        directUsPerMsg: r2(directUs),
        ratio: spread(done.map((d) => d.ratio)),
        directLatencyMedianMs: median(done.map((d) => d.directLatencyMedianMs)),
        loads: done.map((d) => d.load),
      });
    }
  } finally {
    for (const c of children.reverse()) await c.stop().catch(() => undefined);
    await redis.stop();
  }
  return rows;
}

const pct = (x: number): string => `${(Math.round(x * 1000) / 10).toFixed(1)} %`;
const range = ([m, lo, hi]: readonly [number, number, number], f: (x: number) => string): string => `${f(m)} (${f(lo)} - ${f(hi)})`;
const ms = (x: number): string => `${r2(x)} ms`;
const times = (x: number): string => `${r2(x)}x`;

/** The markdown table, targets beside the figures (issue 28's targets are stated for 2 consumers). */
export function fanoutTable(rows: readonly FanoutRow[]): string {
  const head =
    '| consumers | shards | venue msgs/s | added latency median | p99 | of which gateway + Redis (median) | gateway (share of a core) | gateway µs/msg | each consumer | consumer µs/msg vs direct | ratio |\n' +
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const body = rows.map(
    (r) =>
      `| ${r.consumers} | ${r.shards} | ${r.ratePerSec} | ${range(r.addedMedianMs, ms)} | ${range(r.addedP99Ms, ms)} | ${Number.isNaN(r.bareMedianMs[0]) ? 'not read (--bare=on)' : range(r.bareMedianMs, ms)} | ${range(r.gatewayShare, pct)} | ` +
      `${range(r.gatewayUsPerMsg, (x) => String(Math.round(x)))} | ` +
      `${range(r.consumerShare, pct)} | ${r.consumerUsPerMsg} vs ${r.directUsPerMsg} | ${range(r.ratio, times)} |`,
  );
  const two = rows.find((r) => r.consumers === 2);
  const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');
  const targets =
    two === undefined
      ? []
      : [
          '',
          `Targets (2 consumers, medians of the rounds): added median ≤ 1 ms: ${ms(two.addedMedianMs[0])}, ${verdict(two.addedMedianMs[0] <= 1)}; ` +
            `p99 ≤ 5 ms: ${ms(two.addedP99Ms[0])}, ${verdict(two.addedP99Ms[0] <= 5)}; gateway < 25 % of a core: ${pct(two.gatewayShare[0])}, ${verdict(two.gatewayShare[0] < 0.25)}; ` +
            `a consumer's CPU per message ≤ 1.5x a direct subscriber's: ${times(two.ratio[0])}, ${verdict(two.ratio[0] <= 1.5)}. ` +
            `The gateway at the issue's venue rate (1 070 msgs/s): ${pct((two.gatewayUsPerMsg[0] * 1070) / 1e6)} of a core (its µs/msg × rate).`,
        ];
  const first = rows[0];
  const mix = first === undefined ? '' : Object.entries(first.mix).map(([k, v]) => `${k} ${v}/s`).join(', ');
  return [
    head,
    ...body,
    ...targets,
    '',
    `Venue: the simulator, ${PAIRS} pairs × trade, depth (200 levels), realtimes, kline_1m at ${periodsText()}, ${ARRIVAL} arrival; ` +
      `measured mix at the direct subscriber: ${mix}. Every process on this machine; consumers and the direct subscriber subscribe every topic ` +
      `(typed *Messages streams); the direct subscriber ${DIRECT === 'alone' ? 'in windows of its own, after the consumers\'' : 'beside the consumers'}. Load averages at each round: ${rows.map((r) => `${r.consumers}: ${r.loads.join(' / ')}`).join('; ')}.`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------

const argValue = (name: string): string | undefined => {
  const args = process.argv.slice(2);
  const at = args.indexOf(`--${name}`);
  if (at >= 0) return args[at + 1];
  return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
};

if (require.main === module) {
  const role = argValue('role') as Role | undefined;
  const fail = (e: unknown): void => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  };
  const shardsArg = Number(argValue('shards') ?? 4);
  if (role === 'sim') simChild().catch(fail);
  else if (role === 'gateway') gatewayChild(argValue('url')!, argValue('redis')!, argValue('prefix')!, shardsArg).catch(fail);
  else if (role === 'consumer') clientChild({ redis: argValue('redis')!, prefix: argValue('prefix')!, shards: shardsArg }).catch(fail);
  else if (role === 'direct') clientChild({ url: argValue('url')! }).catch(fail);
  else {
    const compare = argValue('compare-gateway');
    const compareConsumer = argValue('compare-consumer');
    if (compareConsumer !== undefined) {
      const n = Number(argValue('consumers') ?? 1);
      compareConsumers(compareConsumer, n, Number(argValue('rounds') ?? 4), Number(argValue('seconds') ?? 10), shardsArg, (line) => process.stderr.write(line + '\n')).then(() => process.exit(0), fail);
    } else if (compare !== undefined) {
      const delay = Number(argValue('redis-delay-ms') ?? 0);
      compareGateways(compare, Number(argValue('rounds') ?? 4), Number(argValue('seconds') ?? 10), shardsArg, (line) => process.stderr.write(line + '\n'), delay).then(() => process.exit(0), fail);
    } else {
      const quick = process.argv.includes('--quick');
      const options: FanoutOptions = {
        consumers: (argValue('consumers') ?? '2,8').split(',').map(Number),
        rounds: Number(argValue('rounds') ?? (quick ? 2 : 3)),
        seconds: Number(argValue('seconds') ?? (quick ? 5 : 10)),
        shards: shardsArg,
      };
      fanoutBench(options, (line) => process.stderr.write(line + '\n')).then((rows) => {
        if (rows !== undefined) process.stdout.write(fanoutTable(rows) + '\n');
        process.exit(0);
      }, fail);
    }
  }
}
