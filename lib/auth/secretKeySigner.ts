import { createHmac, createSecretKey } from 'node:crypto';
import { ConfigError } from '../errors';

/**
 * The signing function of a `secretKey` in the Node build (and the default ESM/CJS builds, which are Node's):
 * HMAC SHA256 with `node:crypto`, synchronous (a few µs; no promise, no hop before the request is sent). The key
 * is made once (`createSecretKey`) and kept only in this closure. Equals `hmacSha256Signer` (Web Crypto) for every
 * secret and message (spec/auth/secretKeySigner.spec.ts). The browser build swaps this module for
 * `secretKeySigner.browser.ts` (Web Crypto), see scripts/browser-variants.js.
 *
 * Throws a {@link ConfigError} when `secret` is empty; never puts the secret or the message in an error.
 * @internal
 */
export function secretKeySigner(secret: string): (message: string) => string {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new ConfigError('secretKey', 'must be a non-empty string');
  }
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return (message) => createHmac('sha256', key).update(message, 'utf8').digest('hex');
}
