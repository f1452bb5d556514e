import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { until } from './until';

/**
 * Throwaway `redis-server` processes for tests (../shared/TOOLCHAIN.md, "Redis"): each on 127.0.0.1 at a free port,
 * no persistence, in its own temporary directory, ready when it answers `PING`. `kill('SIGKILL')` plays a crash,
 * `restart()` brings it back on the same port (empty: nothing was persisted), `stop()` ends it and removes its
 * directory. `startRedisServers(n, args)` starts several (a cluster's nodes: pass `['--cluster-enabled', 'yes']`).
 */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` (with `user:password@` when given). */
  url(credentials?: { user?: string; password: string }): string;
  /** A signal to the process (SIGKILL: a crash); resolves once it exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port; resolves once it answers PING. */
  restart(): Promise<void>;
  /** Runs a command through `redis-cli` (e.g. `['ACL', 'SETUSER', ...]`), returns its output. */
  cli(args: readonly string[]): string;
  /** SIGTERM (SIGKILL after 2 s), then the directory removed. */
  stop(): Promise<void>;
}

/** Whether `command` is on PATH (it answers `--version`). */
function onPath(command: string): boolean {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `describe` when `available`, else `describe.skip` with a console message saying what is `missing`. */
function describeIf(available: boolean, name: string, missing: string, body: () => void): void {
  if (available) return describe(name, body);
  // eslint-disable-next-line no-console
  console.warn(`${name}: skipped, ${missing} (apt-get install -y redis-server; .ci/run installs it)`);
  describe.skip(name, body);
}

/** Whether `redis-server` is on PATH. */
export function hasRedisServer(): boolean {
  return onPath('redis-server');
}

/** `describe`, or `describe.skip` with a console message when `redis-server` is absent. */
export function describeWithRedis(name: string, body: () => void): void {
  describeIf(hasRedisServer(), name, 'redis-server is not installed', body);
}

/** A loopback port free at the time of asking (nothing listens on it until something binds it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once `redis-server` on `port` answers PING (polled every 20 ms, at most `timeoutMs`). */
async function whenReady(port: number, timeoutMs = 5000): Promise<void> {
  const answers = async (): Promise<boolean> => {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, disconnectTimeout: 10 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  };
  await until(answers, `redis-server on port ${port} to answer PING`, { timeoutMs, everyMs: 20 });
}

/** Starts one `redis-server` (extra `args` appended). */
export async function startRedisServer(args: readonly string[] = []): Promise<RedisServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'xs-redis-'));
  const port = await freePort();
  let child: ChildProcess;
  const launch = async (): Promise<void> => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...args], {
      stdio: 'ignore',
    });
    await whenReady(port);
  };
  const exited = (): Promise<void> =>
    child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
  await launch();
  return {
    port,
    url: (credentials) =>
      credentials === undefined
        ? `redis://127.0.0.1:${port}`
        : `redis://${encodeURIComponent(credentials.user ?? '')}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}`,
    kill: async (signal = 'SIGKILL') => {
      const done = exited();
      child.kill(signal);
      await done;
    },
    restart: launch,
    cli: (cliArgs) => execFileSync('redis-cli', ['-p', String(port), ...cliArgs], { encoding: 'utf8' }),
    stop: async () => {
      const done = exited();
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await done;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `n` servers (e.g. a cluster's nodes). */
export function startRedisServers(n: number, args: readonly string[] = []): Promise<RedisServer[]> {
  return Promise.all(Array.from({ length: n }, () => startRedisServer(args)));
}

/** Whether `redis-cli` is on PATH (a cluster is created with it). */
export function hasRedisCli(): boolean {
  return onPath('redis-cli');
}

/** `describe`, or `describe.skip` with a console message when `redis-server` or `redis-cli` is absent. */
export function describeWithRedisCluster(name: string, body: () => void): void {
  describeIf(hasRedisServer() && hasRedisCli(), name, 'a Redis Cluster needs redis-server and redis-cli', body);
}

/** A Redis Cluster on loopback: its nodes, the seed URLs, the master serving a key, and a stop. */
export interface RedisCluster {
  readonly nodes: readonly RedisServer[];
  /** `redis://127.0.0.1:<port>` of every node. */
  readonly urls: readonly string[];
  /** The node that is the master of `key`'s slot now (asked of any live node). */
  masterOf(key: string): RedisServer;
  /** Resolves once every node still running says `cluster_state:ok` (polled every 50 ms, at most `timeoutMs`). */
  whenOk(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `masters * (1 + replicas)` cluster-enabled nodes (each in its own directory, so each has its own
 * `nodes.conf`; `--cluster-node-timeout 1000` so a killed master's replica takes over within a few seconds), joins them
 * with `redis-cli --cluster create … --cluster-replicas <replicas> --cluster-yes`, and waits for `cluster_state:ok`.
 */
export async function startRedisCluster(masters = 3, replicas = 1): Promise<RedisCluster> {
  const nodes = await startRedisServers(masters * (1 + replicas), ['--cluster-enabled', 'yes', '--cluster-node-timeout', '1000']);
  const alive = (): RedisServer[] => nodes.filter((n) => !stopped.has(n));
  const stopped = new Set<RedisServer>();
  /**
   * `cluster_state:ok` on every live node, every master that serves slots alive, and every live replica's link to its
   * master up (a replica that never synced refuses to take over from a killed master).
   */
  const healthy = (): boolean => {
    try {
      const live = alive();
      if (!live.every((n) => n.cli(['CLUSTER', 'INFO']).includes('cluster_state:ok'))) return false;
      const ports = new Set(live.map((n) => n.port));
      for (const line of live[0]!.cli(['CLUSTER', 'NODES']).split('\n')) {
        const [, address, flags, , , , , , ...slots] = line.split(' ');
        if (address === undefined || flags === undefined) continue;
        const port = Number(address.split('@')[0]!.split(':')[1]);
        if (flags.includes('master') && slots.length > 0 && (!ports.has(port) || flags.includes('fail'))) return false;
        if (flags.includes('slave') && ports.has(port)) {
          const replica = live.find((n) => n.port === port)!;
          if (!replica.cli(['INFO', 'replication']).includes('master_link_status:up')) return false;
        }
      }
      return true;
    } catch {
      return false;
    }
  };
  const cluster: RedisCluster = {
    nodes,
    urls: nodes.map((n) => n.url()),
    masterOf: (key) => {
      const node = alive()[0]!;
      const slot = Number(node.cli(['CLUSTER', 'KEYSLOT', key]).trim());
      for (const line of node.cli(['CLUSTER', 'NODES']).split('\n')) {
        const [, address, flags, , , , , , ...slots] = line.split(' ');
        if (address === undefined || !flags?.split(',').includes('master') || flags.includes('fail')) continue;
        const served = slots.some((range) => {
          const [from, to = from] = range.split('-').map(Number);
          return from !== undefined && to !== undefined && slot >= from && slot <= to;
        });
        const port = Number(address.split('@')[0]!.split(':')[1]);
        if (served) return nodes.find((n) => n.port === port)!;
      }
      throw new Error(`no master serves ${key} (slot ${slot})`);
    },
    whenOk: (timeoutMs = 20_000) =>
      until(healthy, 'the cluster to reach cluster_state:ok with every slot on a live master and every replica in sync', { timeoutMs, everyMs: 50 }),
    stop: async () => {
      await Promise.all(nodes.map((n) => n.stop()));
    },
  };
  // A killed node stays out of `whenOk` and `masterOf` until it is restarted.
  for (const node of nodes) {
    const { kill, restart } = node;
    Object.assign(node, {
      kill: async (signal?: NodeJS.Signals) => {
        stopped.add(node);
        await kill(signal);
      },
      restart: async () => {
        await restart();
        stopped.delete(node);
      },
    });
  }
  execFileSync('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', String(replicas), '--cluster-yes'], { stdio: 'ignore' });
  await cluster.whenOk();
  return cluster;
}
