/**
 * Issue 28's fan-out case (`--only=fanout`): one gateway (`publishMarket`) following the simulator's whole venue
 * (300 pairs × trade, depth (200 levels), realtimes, kline_1m at the service's push periods: trade, kline, depth every
 * 300 ms, realtimes every 500 ms), a real `redis-server` started here (127.0.0.1, an ephemeral port, no persistence, a
 * temporary directory, stopped at the end), and N consumer processes (`redisMarketStreams`) on loopback, each
 * subscribing every topic of every pair through the typed `*Messages` streams (`tradeMessages`, `depthMessages`,
 * `realtimesMessages`, `klineMessages(…, '1m')`), beside one direct subscriber (`marketStreams` on the simulator) that
 * subscribes the same topics in the same run. Every part is its own process (this file, forked with a role), so each
 * one's CPU time (`process.cpuUsage`, over the measured window) is its own.
 *
 * Reported per N (2 and 8), as medians of the rounds with their ranges:
 * - the latency the Redis hop adds: from the gateway's receive time (the entry's `r`, `Date.now()` of the gateway,
 *   truncated to the ms, so + 0.5 ms is added to it) to the typed message at a consumer (`performance.timeOrigin +
 *   performance.now()`: the same clock as `Date.now()`, below the ms); each consumer message is matched to its entry
 *   by symbol, topic and the frame's `sendTime` (the entries of the window read back with `XRANGE`); median and p99;
 * - the gateway's CPU share of one core, each consumer's, and a consumer's CPU per message as a ratio to the direct
 *   subscriber's (both count the same typed messages).
 *
 *   node -r ts-node/register/transpile-only spec/bench/fanout.ts [--quick] [--consumers=2,8] [--shards=4] [--rounds=3] [--seconds=10]
 *
 * Skipped with a line on stderr when `redis-server` is not on PATH. `FANOUT_PROF=gateway,consumer,direct` runs those
 * processes under `node --cpu-prof` (profiles in .tmp/prof-fanout; summarise with spec/bench/topFrames.js).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
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
 * subscription's pace sets their phases: `smooth` subscribes one topic a frame at 4 000 a second (1 200 topics spread
 * over one 300 ms period: pushes arrive evenly, as in issue 28's bare sketch); `burst` subscribes 20 symbols a frame at
 * once (every topic pushes in the same few ms: ~1 MB every 300 ms, each stage handles a burst before its last frame).
 */
const argArrival = /--arrival[= ](smooth|burst)/.exec(process.argv.join(' '));
const ARRIVAL = (argArrival?.[1] ?? 'smooth') as 'smooth' | 'burst';
const MARKET = ARRIVAL === 'smooth' ? ({ resubscribeRatePerSecond: 4000, subscribeBurst: 1, maxSymbolsPerFrame: 1 } as const) : ({ resubscribeRatePerSecond: 200, subscribeBurst: 100 } as const);
/** The consumers' subscriptions go to Redis, not to the venue: no pacing needed. */
const RELAY_MARKET = { resubscribeRatePerSecond: 200, subscribeBurst: 100 } as const;

/** A consumer's or the direct subscriber's report over one window. */
interface ClientReport {
  readonly type: 'report';
  readonly cpuUs: number;
  readonly wallMs: number;
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

/** A window's CPU and wall time, started at `begin` and read at `end`. */
function windowMeter(): { begin(): void; end(): { cpuUs: number; wallMs: number } } {
  let c0 = 0;
  let t0 = 0;
  return {
    begin: () => {
      c0 = cpuUs();
      t0 = performance.now();
    },
    end: () => ({ cpuUs: cpuUs() - c0, wallMs: performance.now() - t0 }),
  };
}

async function simChild(): Promise<void> {
  const { startSimulator } = await import('../../lib/simulator');
  const sim = await startSimulator({ symbols: SYMBOLS, seed: 28 });
  const meter = windowMeter();
  tell({ type: 'ready', url: sim.publicStreamUrl });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'begin') meter.begin();
    if (m.type === 'end') tell({ type: 'report', ...meter.end() });
    if (m.type === 'stop') void sim.close().then(() => process.exit(0));
  });
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
      w0 = written;
    }
    if (m.type === 'end') tell({ type: 'report', ...meter.end(), written: written - w0, dropped, queued });
    if (m.type === 'stop') void gateway.stop().then(() => process.exit(0));
  });
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
  let keys: string[] = [];
  let at: number[] = [];
  const meter = windowMeter();
  const sub = merge(...streams).subscribe((m) => {
    if (measuring) {
      const t = epochMs();
      messages++;
      byTopic[m.topic] = (byTopic[m.topic] ?? 0) + 1;
      keys.push(`${m.topic}|${m.symbol}|${m.sendTime}`);
      at.push(t);
    } else if (!live) {
      seen.add(`${m.topic}|${m.symbol}`);
      if (seen.size === streams.length) {
        live = true;
        tell({ type: 'ready' });
      }
    }
  });
  market.errors$.subscribe((e) => process.stderr.write(`fanout ${'redis' in source ? 'consumer' : 'direct'}: ${e.message}\n`));
  process.on('message', (m: { type: string }) => {
    if (m.type === 'begin') {
      messages = 0;
      byTopic = {};
      keys = [];
      at = [];
      measuring = true;
      meter.begin();
    }
    if (m.type === 'end') {
      const w = meter.end();
      measuring = false;
      tell({ type: 'report', ...w, messages, byTopic, keys, at } satisfies ClientReport);
      keys = [];
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

function spawnChild(role: Role, args: readonly string[]): Child {
  const prof = (process.env['FANOUT_PROF'] ?? '').split(',').includes(role);
  const execArgv = ['-r', 'ts-node/register/transpile-only', ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(__dirname, '../../.tmp/prof-fanout')}`, `--cpu-prof-name=${role}-${process.hrtime.bigint()}.cpuprofile`] : [])];
  const child = fork(__filename, ['--role', role, '--pairs', String(PAIRS), '--arrival', ARRIVAL, ...args], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
    const sim = spawnChild('sim', []);
    children.push(sim);
    const url = String((await sim.ready)['url']);
    const prefix = `bench:${Date.now()}:`;
    const gateway = spawnChild('gateway', ['--url', url, '--redis', redis.url(), '--prefix', prefix, '--shards', String(shards)]);
    children.push(gateway);
    await gateway.ready;
    log(`fanout: simulator (${PAIRS} pairs, ${ARRIVAL} arrival) and gateway up; redis-server on port ${redis.port}, ${shards} shards`);
    for (const n of options.consumers) {
      const consumers = Array.from({ length: n }, () => spawnChild('consumer', ['--redis', redis.url(), '--prefix', prefix, '--shards', String(shards)]));
      const direct = spawnChild('direct', ['--url', url]);
      const clients = [...consumers, direct];
      children.push(...clients);
      await Promise.all(clients.map((c) => c.ready));
      await new Promise((resolve) => setTimeout(resolve, 2000)); // warm-up: every topic live, JIT settled
      const done: Round[] = [];
      for (let r = 0; r < rounds; r++) {
        const loadAt = load();
        const beginMs = Date.now();
        const bare = await bareReader(redis.url(), prefix, shards);
        for (const c of [sim, gateway, ...clients]) c.send('begin');
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        const bareAdded = await bare.stop();
        const [simReport, gwReport, ...reports] = await Promise.all([sim, gateway, ...clients].map((c) => c.request('end')));
        const consumerReports = reports.slice(0, n) as unknown as ClientReport[];
        const directReport = reports[n] as unknown as ClientReport;
        const venueHop: number[] = [];
        const rTimes = await receiveTimes(redis.url(), prefix, shards, beginMs - 5000, venueHop);
        venueHop.sort((a, b) => a - b);
        const sendToConsumer = consumerReports[0]!.keys.map((k, i) => consumerReports[0]!.at[i]! - Number(k.slice(k.lastIndexOf('|') + 1))).sort((a, b) => a - b);
        log(
          `  diag: simulator sendTime → gateway r median ${percentile(venueHop, 50)} ms, p99 ${percentile(venueHop, 99)}; sendTime → consumer 1 median ${r2(percentile(sendToConsumer, 50))}; ` +
            `gateway r → a bare ioredis XREAD in the bench process median ${r2(percentile(bareAdded, 50))} ms, p99 ${r2(percentile(bareAdded, 99))} (${bareAdded.length}); gateway queued ${String(gwReport['queued'])}`,
        );
        const added: number[] = [];
        for (const rep of consumerReports) {
          for (let i = 0; i < rep.keys.length; i++) {
            const r0 = rTimes.get(rep.keys[i]!);
            if (r0 !== undefined) added.push(rep.at[i]! - (r0 + 0.5));
          }
        }
        added.sort((a, b) => a - b);
        const directLatency = directReport.keys.map((k, i) => directReport.at[i]! - (Number(k.slice(k.lastIndexOf('|') + 1)) + 0.5)).sort((a, b) => a - b);
        const share = (rep: { cpuUs: number; wallMs: number }): number => rep.cpuUs / 1000 / rep.wallMs;
        const consumerUs = consumerReports.map((c) => c.cpuUs / c.messages);
        const directUs = directReport.cpuUs / directReport.messages;
        const wallS = directReport.wallMs / 1000;
        const mix = Object.fromEntries(Object.entries(directReport.byTopic).map(([k, v]) => [k, Math.round(v / wallS)]));
        const round: Round = {
          addedMedianMs: r2(percentile(added, 50)),
          addedP99Ms: r2(percentile(added, 99)),
          matched: added.length,
          gatewayShare: share(gwReport as { cpuUs: number; wallMs: number }),
          gatewayUsPerMsg: r2(Number(gwReport['cpuUs']) / Number(gwReport['written'])),
          bareMedianMs: r2(percentile(bareAdded, 50)),
          consumerShares: consumerReports.map(share),
          consumerUsPerMsg: median(consumerUs),
          directUsPerMsg: directUs,
          ratio: median(consumerUs) / directUs,
          directLatencyMedianMs: r2(percentile(directLatency, 50)),
          ratePerSec: Math.round(directReport.messages / wallS),
          mix,
          load: loadAt,
        };
        done.push(round);
        const consumerMsgs = consumerReports.map((c) => c.messages);
        log(
          `  ${n} consumers, round ${r + 1}: load ${loadAt}; ${round.ratePerSec} msgs/s (${JSON.stringify(mix)}); added latency median ${round.addedMedianMs} ms, ` +
            `p99 ${round.addedP99Ms} ms (${added.length} of ${consumerMsgs.reduce((a, b) => a + b, 0)} matched); gateway ${pct(round.gatewayShare)} ` +
            `(${String(gwReport['written'])} written, ${String(gwReport['dropped'])} dropped in all); consumers ${round.consumerShares.map(pct).join(', ')}; ` +
            `µs/msg consumer ${r2(round.consumerUsPerMsg)} vs direct ${r2(directUs)} (x${r2(round.ratio)}); simulator ${pct(share(simReport as { cpuUs: number; wallMs: number }))}; ` +
            `direct sendTime → message median ${round.directLatencyMedianMs} ms`,
        );
      }
      await Promise.all(clients.map((c) => c.stop()));
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
        directUsPerMsg: r2(median(done.map((d) => d.directUsPerMsg))),
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
      `| ${r.consumers} | ${r.shards} | ${r.ratePerSec} | ${range(r.addedMedianMs, ms)} | ${range(r.addedP99Ms, ms)} | ${range(r.bareMedianMs, ms)} | ${range(r.gatewayShare, pct)} | ` +
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
    `Venue: the simulator, ${PAIRS} pairs × trade, depth (200 levels), realtimes, kline_1m at the service's periods (300 ms; realtimes 500 ms), ${ARRIVAL} arrival; ` +
      `measured mix at the direct subscriber: ${mix}. Every process on this machine; consumers and the direct subscriber subscribe every topic ` +
      `(typed *Messages streams). Load averages at each round: ${rows.map((r) => `${r.consumers}: ${r.loads.join(' / ')}`).join('; ')}.`,
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
