/**
 * The signer of a `secretKey`: `node:crypto`, synchronous, in the Node build (lib/auth/secretKeySigner.ts); Web
 * Crypto in the browser build (secretKeySigner.browser.ts). Both equal Web Crypto's HMAC (`hmacSha256Signer`) for
 * any secret and message.
 */
import fc from 'fast-check';
import { hmacSha256Signer } from '../../lib/auth/hmacSha256Hex';
import { secretKeySigner } from '../../lib/auth/secretKeySigner';
import { secretKeySigner as browserSigner } from '../../lib/auth/secretKeySigner.browser';
import { signFunctionOf } from '../../lib/auth/signConfig';
import { ConfigError } from '../../lib/errors';
import { PUBLISHED } from './vectors';

describe('secretKeySigner', () => {
  it('signs synchronously on Node: the published vectors, as text (no promise)', () => {
    const sign = secretKeySigner(PUBLISHED.secret);
    expect(sign(PUBLISHED.message)).toBe(PUBLISHED.signature);
    expect(sign(PUBLISHED.splitQuery + PUBLISHED.splitBody)).toBe(PUBLISHED.splitSignature);
    expect(typeof signFunctionOf({ secretKey: PUBLISHED.secret })(PUBLISHED.message)).toBe('string');
  });

  it('equals Web Crypto for any secret and message, lone surrogates included (property)', async () => {
    const text = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('\uD800', '\uDFFF', 'a', 'é', '&', '=') }));
    await fc.assert(
      fc.asyncProperty(text.filter((s) => s.length > 0), text, async (secret, message) => {
        const expected = await hmacSha256Signer(secret)(message);
        const hex = secretKeySigner(secret)(message);
        expect(hex).toMatch(/^[0-9a-f]{64}$/);
        expect(hex).toBe(expected);
        await expect(Promise.resolve(browserSigner(secret)(message))).resolves.toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('one signer signs many messages alike, each as a fresh one would', () => {
    const sign = secretKeySigner('k');
    const first = ['a', 'b', 'a'].map(sign);
    expect(first[0]).toBe(first[2]);
    expect(first[0]).toBe(secretKeySigner('k')('a'));
    expect(first[1]).not.toBe(first[0]);
  });

  it('refuses an empty secret with a ConfigError that names no secret (both builds)', () => {
    for (const make of [secretKeySigner, browserSigner]) {
      expect(() => make('')).toThrow(ConfigError);
      expect(() => make('')).toThrow('secretKey must be a non-empty string');
      expect(() => make(undefined as unknown as string)).toThrow(ConfigError);
    }
  });
});
