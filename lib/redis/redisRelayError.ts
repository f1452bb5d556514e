import { redact } from '../internal/redact';
import type { RedisTarget } from './redisTarget';

/**
 * A Redis operation of the gateway or the consumer failed (a connection lost or refused, a command refused, an
 * entry that could not be read). Reported on `errors$`; nothing stops: the Redis client reconnects and the work
 * goes on. The message is redacted: no password, no URL credentials.
 *
 * @example
 * ```ts
 * import { RedisRelayError } from 'ex-streams/redis';
 *
 * const error = new RedisRelayError('xadd', 'Connection is closed.');
 * console.log(error.name, error.operation, error.message); // RedisRelayError xadd redis xadd: Connection is closed.
 * ```
 */
export class RedisRelayError extends Error {
  override readonly name = 'RedisRelayError';

  /** `operation`: what was attempted (`connect`, `xadd`, `xread`, ...); `detail`: the cause's message, redacted by the caller. */
  constructor(
    readonly operation: string,
    detail: string,
  ) {
    super(`redis ${operation}: ${detail}`);
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

/** `error` as a {@link RedisRelayError} for `operation`, its message cleared of `secrets` and URL credentials. @internal */
export function relayError(operation: string, error: unknown, secrets: readonly string[]): RedisRelayError {
  const text = error instanceof Error ? error.message : String(error);
  return new RedisRelayError(operation, redact(text, secrets).replace(URL_CREDENTIALS, '$1***@'));
}
