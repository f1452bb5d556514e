/**
 * A configuration value that cannot work (a non-positive `recvWindow`, a missing secret, ...), reported
 * before anything is sent.
 *
 * @example
 * ```ts
 * import { ConfigError } from 'ex-streams';
 * new ConfigError('recvWindow', 'must be a positive integer').message; // 'recvWindow must be a positive integer'
 * ```
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    /** The option at fault. */
    readonly option: string,
    reason: string,
  ) {
    super(`${option} ${reason}`);
  }
}
