import { ConfigError } from '../errors';

/** How many imported keys are kept; the oldest is dropped first. */
const MAX_CACHED_KEYS = 8;

/**
 * Imported HMAC keys, one per secret, kept inside this module only (never exported), so repeated signing
 * with the same secret imports the key once.
 */
const importedKeys = new Map<string, Promise<CryptoKey>>();

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

function importedKey(secret: string): Promise<CryptoKey> {
  const cached = importedKeys.get(secret);
  if (cached) return cached;
  const key = subtleCrypto().importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  if (importedKeys.size >= MAX_CACHED_KEYS) {
    const oldest = importedKeys.keys().next();
    if (!oldest.done) importedKeys.delete(oldest.value);
  }
  importedKeys.set(secret, key);
  key.catch(() => importedKeys.delete(secret));
  return key;
}

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * HMAC SHA256 of `message` (UTF-8) keyed with `secret` (UTF-8), as lowercase hexadecimal text (64
 * characters). Uses Web Crypto (`globalThis.crypto.subtle`), so it runs in browsers (secure contexts) and in
 * Node 20+. The imported key is cached per secret inside the module.
 *
 * Rejects with a {@link ConfigError} when `secret` is empty or Web Crypto is missing; never puts the secret
 * or the message in an error.
 *
 * @example
 * ```ts
 * import { hmacSha256Hex } from 'ex-streams';
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
  const key = await importedKey(secret);
  const signature = await subtleCrypto().sign('HMAC', key, new TextEncoder().encode(message));
  return toHex(signature);
}
