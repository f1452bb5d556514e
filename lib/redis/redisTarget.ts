/**
 * Where the Redis of a gateway or a consumer is: a URL `redis://[user:password@]host:port[/db]` (`rediss://` for
 * TLS), or `{ cluster: [url, ...] }` for a Redis Cluster (the seed nodes; credentials and TLS are taken from the
 * first URL and used on every node). The credentials never appear in an error or a status.
 *
 * @example
 * ```ts
 * import type { RedisTarget } from 'ex-streams/redis';
 *
 * const single: RedisTarget = 'rediss://md-reader:s3cret@redis.internal:6380/0';
 * const cluster: RedisTarget = { cluster: ['redis://10.0.0.1:7000', 'redis://10.0.0.2:7000'] };
 * ```
 */
export type RedisTarget = string | { readonly cluster: readonly string[] };
