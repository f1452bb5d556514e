import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';

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

/** Whether `redis-server` is on PATH. */
export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `describe`, or `describe.skip` with a console message when `redis-server` is absent. */
export function describeWithRedis(name: string, body: () => void): void {
  if (hasRedisServer()) return describe(name, body);
  // eslint-disable-next-line no-console
  console.warn(`${name}: skipped, redis-server is not installed (apt-get install -y redis-server; .ci/run installs it)`);
  describe.skip(name, body);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once `redis-server` on `port` answers PING (polled every 20 ms, at most `timeoutMs`). */
async function whenReady(port: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, disconnectTimeout: 10 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return;
    } catch {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      client.disconnect();
    }
  }
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
