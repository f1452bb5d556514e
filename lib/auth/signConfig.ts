import { ConfigError } from '../errors';
import { secretKeySigner } from './secretKeySigner';

/** Default validity window of a signed request, in milliseconds (SPEC, Limits). @internal */
export const DEFAULT_RECV_WINDOW_MS = 5000;

/** Parameter names the signer adds itself; a request may not carry them. @internal */
export const RESERVED_PARAMS: readonly string[] = ['timestamp', 'recvWindow', 'signature'];

/**
 * A signing function: message in, hex signature out.
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import { hmacSha256Hex, type SignFunction } from 'ex-streams/signing';
 *
 * declare const apiKey: string, secretKey: string;
 * const sign: SignFunction = (message) => hmacSha256Hex(secretKey, message); // or a hardware module, a signing service
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, sign });
 * ```
 */
export type SignFunction = (message: string) => string | Promise<string>;

/** Throws a {@link ConfigError} unless `recvWindow` is a positive integer. @internal */
export function validRecvWindow(recvWindow: number = DEFAULT_RECV_WINDOW_MS): number {
  if (typeof recvWindow !== 'number' || !Number.isSafeInteger(recvWindow) || recvWindow <= 0) {
    throw new ConfigError('recvWindow', `must be a positive integer number of milliseconds (got ${String(recvWindow)})`);
  }
  return recvWindow;
}

/**
 * The signing function of a config: the custom `sign`, or HMAC SHA256 with `secretKey` (`node:crypto`,
 * synchronous, on Node; Web Crypto in the browser build: `secretKeySigner`). Throws a {@link ConfigError} when both
 * or neither are given, or the secret is empty.
 * @internal
 */
export function signFunctionOf(config: { readonly secretKey?: string | undefined; readonly sign?: SignFunction | undefined }): SignFunction {
  const { secretKey, sign } = config;
  if (sign !== undefined && secretKey !== undefined) {
    throw new ConfigError('sign', 'and secretKey cannot both be given');
  }
  if (sign !== undefined) {
    if (typeof sign !== 'function') throw new ConfigError('sign', 'must be a function');
    return sign;
  }
  if (secretKey === undefined) {
    throw new ConfigError('secretKey', 'is required for signed requests (or pass a custom sign function)');
  }
  if (typeof secretKey !== 'string' || secretKey.length === 0) {
    throw new ConfigError('secretKey', 'must be a non-empty string');
  }
  return secretKeySigner(secretKey);
}
