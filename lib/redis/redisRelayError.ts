import { redact } from '../internal/redact';
import type { RedisTarget } from './redisTarget';

/**
 * A Redis operation of the gateway or the consumer failed (a connection lost or refused, a command refused, an
 * entry that is not the relay's, an id ahead of the gateway's clock, a stream behind a consumer's cursor). Reported on
 * `errors$` once per episode (until the operation works again); nothing stops: the Redis client reconnects and the
 * work goes on. The message is redacted: no password, no URL credentials.
 *
 * @example
 * ```ts
 * import { RedisRelayError } from 'ex-streams/redis';
 *
 * const error = new RedisRelayError('xadd', 'no connection to Redis');
 * console.log(error.name, error.operation, error.reason); // RedisRelayError xadd no connection to Redis
 * ```
 */
export class RedisRelayError extends Error {
  override readonly name = 'RedisRelayError';

  /**
   * `operation`: what was attempted (`connect`, `xadd`, `xread`, ...); `reason`: why it failed, in plain words (the
   * client library's own wording for a missing connection is never passed on), redacted by the caller.
   */
  constructor(
    readonly operation: string,
    readonly reason: string,
  ) {
    super(`redis ${operation}: ${reason}`);
  }
}

/** The secrets of a target: its passwords and user names, and its URLs whole. @internal */
export function targetSecrets(target: RedisTarget): string[] {
  const urls = typeof target === 'string' ? [target] : [...target.cluster];
  const secrets: string[] = [];
  for (const url of urls) {
    secrets.push(url);
    try {
      const parsed = new URL(url);
      if (parsed.password) secrets.push(decodeURIComponent(parsed.password), parsed.password);
      if (parsed.username && parsed.password) secrets.push(`${parsed.username}:${parsed.password}`);
    } catch {
      // not a URL: the whole text is a secret (above)
    }
  }
  return secrets;
}

const URL_CREDENTIALS = /(rediss?:\/\/)[^@\s/]*@/gi;

/**
 * What the Redis client (ioredis) says when it has no working connection: its own wording ("Stream isn't writeable and
 * enableOfflineQueue options is false", "Connection is closed.", "Reached the max retries per request limit") and the
 * socket's (`ECONNREFUSED`, `ECONNRESET`, `EPIPE`, `ETIMEDOUT`, `EHOSTUNREACH`, `ENOTFOUND`, `EAI_AGAIN`).
 */
const NOT_CONNECTED =
  /Stream isn't writeable|enableOfflineQueue|Connection is closed|max retries per request|Socket closed|connect ETIMEDOUT|\b(ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)\b/;

/** The plain reason given for every failure of {@link NOT_CONNECTED}'s kind. @internal */
export const NOT_CONNECTED_REASON = 'no connection to Redis (it is down, restarting or unreachable); retrying until it answers';

/** Whether `error` says only that the client had no working connection (see {@link NOT_CONNECTED}). @internal */
export function notConnected(error: unknown): boolean {
  return NOT_CONNECTED.test(error instanceof Error ? error.message : String(error));
}

/**
 * `error` as a {@link RedisRelayError} for `operation`, its message cleared of `secrets` and URL credentials. The
 * client's own words for a missing connection become one plain reason ({@link NOT_CONNECTED_REASON}); Redis's
 * answers (`WRONGPASS`, `NOPERM`, `OOM`, ...) are kept, redacted. @internal
 */
export function relayError(operation: string, error: unknown, secrets: readonly string[]): RedisRelayError {
  if (error instanceof RedisRelayError) return error;
  if (notConnected(error)) return new RedisRelayError(operation, NOT_CONNECTED_REASON);
  const text = error instanceof Error ? error.message : String(error);
  return new RedisRelayError(operation, redact(text, secrets).replace(URL_CREDENTIALS, '$1***@'));
}
