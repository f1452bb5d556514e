import { hmacSha256Signer } from './hmacSha256Hex';

/**
 * The browser build's signing function of a `secretKey`: HMAC SHA256 through Web Crypto (`crypto.subtle`, which
 * signs asynchronously), the key imported once. Replaces `secretKeySigner.ts` (`node:crypto`, synchronous) in the
 * browser build (rollup.config.js, scripts/browser-variants.js).
 * @internal
 */
export function secretKeySigner(secret: string): (message: string) => Promise<string> {
  return hmacSha256Signer(secret);
}
