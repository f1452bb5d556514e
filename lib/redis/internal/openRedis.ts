import { Cluster, Redis } from 'ioredis';
import { ConfigError } from '../../errors';
import type { RedisTarget } from '../redisTarget';

/** A client of a single Redis or of a cluster (the commands ex-streams uses exist on both). @internal */
export type RedisClient = Redis | Cluster;

/** What a URL sets of ioredis' options (written out: its `RedisOptions` does not hold under `exactOptionalPropertyTypes`). */
interface UrlOptions {
  readonly username?: string;
  readonly password?: string;
  readonly db?: number;
  readonly tls?: { readonly servername: string };
}

/** The connection options of one URL (credentials, db, TLS), without its host. @internal */
function urlOptions(url: string): { host: string; port: number; options: UrlOptions } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('redis', 'must be a redis:// or rediss:// URL');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new ConfigError('redis', 'must be a redis:// or rediss:// URL');
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new ConfigError('redis', 'the database (URL path) must be a non-negative integer');
  const options: UrlOptions = {
    ...(parsed.username && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password && { password: decodeURIComponent(parsed.password) }),
    ...(db !== 0 && { db }),
    ...(parsed.protocol === 'rediss:' && { tls: { servername: parsed.hostname } }),
  };
  return { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : 6379, options };
}

/** Checks `target` (throws a `ConfigError` on a bad one). @internal */
export function checkTarget(target: RedisTarget): void {
  if (typeof target === 'string') urlOptions(target);
  else if (target.cluster.length === 0) throw new ConfigError('redis', 'a cluster needs at least one node URL');
  else target.cluster.forEach(urlOptions);
}

/** `String.prototype` made fast again (see {@link fastStringMethods}). */
let stringMethodsFast = false;

/**
 * Puts `String.prototype` back in V8's fast mode, once. ioredis declares `class VerbatimString extends String`: on
 * loading it, V8 turns `String.prototype` into a dictionary (a prototype being set up), and nothing turns it back,
 * for a string's method lookups do not. Then every `s.charCodeAt(i)`, `s.slice(…)`, `s.indexOf(…)` of optimized code
 * is a generic property load and call: a consumer's frame parser ran at the cost of a generic call per character
 * (`Builtins_LoadIC` 14 % of its samples under `perf`, 2 % for a direct subscriber). One property stored on an object
 * that inherits from it makes V8 turn the chain back to fast; no property of `String.prototype` changes.
 * @internal
 */
export function fastStringMethods(): void {
  if (stringMethodsFast) return;
  stringMethodsFast = true;
  const probe = Object.create(String.prototype) as { fast?: boolean };
  probe.fast = true;
}

/**
 * A new client of `target`, connecting at once and reconnecting by itself (ioredis's backoff, at most
 * `maxReconnectDelayMs`). Commands issued while it is not connected fail at once (no offline queue): the
 * gateway queues its own entries and the consumer retries its own reads. Its `error` events must be listened to
 * by the caller (an unheard `error` event would end the process).
 * @internal
 */
export function openRedis(target: RedisTarget, name: string, maxReconnectDelayMs = 2000): RedisClient {
  fastStringMethods();
  const common = {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // `disconnect()` waits this long for a socket that never closes (one that never connected) before dropping it.
    disconnectTimeout: 100,
    retryStrategy: (times: number) => Math.min(50 * 2 ** Math.min(times, 10), maxReconnectDelayMs),
  };
  if (typeof target === 'string') {
    const { host, port, options } = urlOptions(target);
    return new Redis({ ...common, ...options, host, port });
  }
  const nodes = target.cluster.map(urlOptions);
  const first = nodes[0];
  return new Cluster(
    nodes.map(({ host, port }) => ({ host, port })),
    {
      enableOfflineQueue: false,
      clusterRetryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), maxReconnectDelayMs),
      redisOptions: { ...common, ...first?.options },
    },
  );
}

/**
 * Resolves when `conn` is ready (at once if it is, or if `stopped()`), or when it ends (a loop that stops it emits
 * `end`, so that its wait ends with it). @internal
 */
export function whenReady(conn: RedisClient, stopped: () => boolean): Promise<void> {
  if (conn.status === 'ready' || stopped()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      conn.off('ready', done);
      conn.off('end', done);
      resolve();
    };
    conn.once('ready', done);
    conn.once('end', done);
  });
}
