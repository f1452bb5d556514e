/**
 * The scaling example (docs/scaling.md, "Run the example"): the simulator, a `redis-server` (from PATH, or the one at
 * `redisUrl`), one gateway (`publishMarket`) and two consumer processes (`consumer.ts`: a book's spread, a VWAP),
 * for `seconds`, then everything stopped in reverse order.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { filter, firstValueFrom } from 'rxjs';
import { publishMarket } from '../../../lib/redis/index';
import { startSimulator } from '../../../lib/simulator/index';

/** What a run printed, per consumer. */
export interface ScalingResult {
  readonly lines: Readonly<Record<'book' | 'vwap', readonly string[]>>;
  /** Entries the gateway wrote. */
  readonly written: number;
}

/** redis-server is not on PATH (and no `redisUrl` was given). */
export class NoRedisServer extends Error {
  constructor() {
    super('redis-server is not on PATH: install it (apt-get install -y redis-server) or point REDIS_URL at a Redis 7');
  }
}

/** A throwaway redis-server: 127.0.0.1, a free port, no persistence, its own temporary directory. */
async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const dir = mkdtempSync(path.join(tmpdir(), 'xs-example-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  try {
    // ready when it says so (its log on stdout), or gone (not installed: ENOENT)
    await new Promise<void>((resolve, reject) => {
      child.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'ENOENT' ? new NoRedisServer() : e));
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code})`)));
      createInterface({ input: child.stdout! }).on('line', (line) => line.includes('Ready to accept connections') && resolve());
    });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Forks a consumer; resolves once it is subscribed. Its stdout lines go to `line`. */
async function startConsumer(args: readonly string[], line: (text: string) => void): Promise<{ stop(): Promise<void> }> {
  const child: ChildProcess = fork(path.join(__dirname, 'consumer.ts'), args, {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  createInterface({ input: child.stdout! }).on('line', line);
  await Promise.race([
    new Promise<void>((resolve) => child.once('message', () => resolve())),
    exited.then(() => Promise.reject(new Error(`consumer ${args.join(' ')} exited before it started`))),
  ]);
  return {
    stop: async () => {
      if (child.connected) child.send('stop');
      else child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(force);
    },
  };
}

/** Runs the example for `seconds` (after both consumers started), printing every line through `print`. */
export async function runScalingExample(options: {
  seconds: number;
  print: (line: string) => void;
  redisUrl?: string | undefined;
  /** Ends the run before `seconds` (main.ts: Ctrl-C; the spec: once both consumers printed). */
  until?: Promise<unknown> | undefined;
}): Promise<ScalingResult> {
  const { seconds, print } = options;
  const prefix = 'xs:example:';
  const stops: Array<() => Promise<void>> = [];
  const lines = { book: [] as string[], vwap: [] as string[] };
  let written = 0;
  try {
    const redis = options.redisUrl === undefined ? await startRedis() : { url: options.redisUrl, stop: async () => undefined };
    stops.push(() => redis.stop());
    print(options.redisUrl === undefined ? `redis-server started at ${redis.url}` : 'using the Redis at REDIS_URL');
    const sim = await startSimulator({ symbols: ['BTCUSDT', 'ETHUSDT'] });
    stops.push(() => sim.close());
    print(`simulator at ${sim.publicStreamUrl}`);

    // One gateway: the one venue connection, every frame of these topics into Redis.
    const gateway = publishMarket({ redis: redis.url, url: sim.publicStreamUrl, symbols: ['BTCUSDT', 'ETHUSDT'], topics: ['trade', 'depth'], prefix, maxLen: 10_000 });
    stops.push(() => gateway.stop());
    const errors = gateway.errors$.subscribe((e) => print(`gateway: ${e.message}`));
    stops.push(async () => errors.unsubscribe());
    const status = gateway.status$.subscribe((s) => (written = s.written));
    stops.push(async () => status.unsubscribe());
    await firstValueFrom(gateway.status$.pipe(filter((s) => s.redis === 'ready' && s.venue.type === 'open')));
    print('gateway: venue open, Redis ready');

    // Two consumer processes, each with its own view of the same data.
    const consumers = await Promise.all(
      (
        [
          ['book', 'BTCUSDT'],
          ['vwap', 'ETHUSDT'],
        ] as const
      ).map(([kind, symbol]) =>
        startConsumer([kind, symbol, redis.url, prefix], (text) => {
          lines[kind].push(text);
          print(text);
        }),
      ),
    );
    for (const consumer of consumers) stops.push(() => consumer.stop());
    print(`two consumers running; stopping in ${seconds} s`);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, seconds * 1000))), options.until]);
    clearTimeout(timer);
  } finally {
    // consumers first, then the gateway, the simulator and Redis
    for (const stop of stops.reverse()) await stop().catch((e: unknown) => print(`stop: ${e instanceof Error ? e.message : String(e)}`));
  }
  print(`stopped (the gateway wrote ${written} entries)`);
  return { lines, written };
}
