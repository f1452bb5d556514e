import { ConfigError } from '../errors';

function subtleCrypto(): SubtleCrypto {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (!subtle) {
    throw new ConfigError(
      'secretKey',
      'cannot be used: Web Crypto (crypto.subtle) is not available here (an insecure browser context?); pass a custom sign function',
    );
  }
  return subtle;
}

function importKey(secret: string): Promise<CryptoKey> {
  return subtleCrypto().importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
}

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * HMAC SHA256 of `message` (UTF-8) keyed with `secret` (UTF-8), as lowercase hexadecimal text (64
 * characters). Uses Web Crypto (`globalThis.crypto.subtle`), so it runs in browsers (secure contexts) and in
 * Node 20+. Each call imports the key; to sign many messages with one secret use {@link hmacSha256Signer},
 * which imports it once.
 *
 * Rejects with a {@link ConfigError} when `secret` is empty or Web Crypto is missing; never puts the secret
 * or the message in an error.
 *
 * @example
 * ```ts
 * import { hmacSha256Hex } from 'ex-streams/signing';
 * await hmacSha256Hex(
 *   'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j',
 *   'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559',
 * ); // 'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71'
 * ```
 */
export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new ConfigError('secretKey', 'must be a non-empty string');
  }
  return hmacSha256Signer(secret)(message);
}

/**
 * A signing function bound to one secret: the Web Crypto key is imported once, on first use, and kept only
 * in this closure (nothing module-wide retains the secret). `restClient` and `signer` sign with it in the browser
 * build; on Node they sign with `node:crypto` (synchronous, the same signatures).
 *
 * @example
 * ```ts
 * import { hmacSha256Signer } from 'ex-streams/signing';
 * const sign = hmacSha256Signer('NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j');
 * await sign('symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559');
 * // 'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71'
 * ```
 */
export function hmacSha256Signer(secret: string): (message: string) => Promise<string> {
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new ConfigError('secretKey', 'must be a non-empty string');
  }
  let key: Promise<CryptoKey> | undefined;
  return async (message) => {
    if (key === undefined) {
      key = importKey(secret);
      key.catch(() => (key = undefined));
    }
    const signature = await subtleCrypto().sign('HMAC', await key, new TextEncoder().encode(message));
    return toHex(signature);
  };
}
