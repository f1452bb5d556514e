import { createHmac, webcrypto } from 'node:crypto';
import fc from 'fast-check';
import { hmacSha256Hex, hmacSha256Signer } from '../../lib/auth/hmacSha256Hex';
import { ConfigError } from '../../lib/errors';
import { PUBLISHED } from './vectors';


const nodeHmac = (secret: string, message: string): string =>
  createHmac('sha256', secret).update(message, 'utf8').digest('hex');

describe('hmacSha256Hex', () => {
  it('matches the published query-only / body-only vector (checked with node:crypto too)', async () => {
    expect(nodeHmac(PUBLISHED.secret, PUBLISHED.message)).toBe(PUBLISHED.signature);
    await expect(hmacSha256Hex(PUBLISHED.secret, PUBLISHED.message)).resolves.toBe(PUBLISHED.signature);
  });

  it('matches the published split vector over query + body with no separator', async () => {
    const message = PUBLISHED.splitQuery + PUBLISHED.splitBody;
    expect(nodeHmac(PUBLISHED.secret, message)).toBe(PUBLISHED.splitSignature);
    await expect(hmacSha256Hex(PUBLISHED.secret, message)).resolves.toBe(PUBLISHED.splitSignature);
  });

  it('matches RFC 4231 test case 2 ("Jefe")', async () => {
    await expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).resolves.toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('hashes UTF-8: own vectors with encoded and non-ASCII text', async () => {
    const cases: Array<[string, string]> = [
      ['sécret-日本', 'note=a+b%26c%3Dd&price=0.1&timestamp=1700000000000'],
      ['k', 'raw non-ASCII é 💹 text'],
      ['k', ''],
    ];
    for (const [secret, message] of cases) {
      await expect(hmacSha256Hex(secret, message)).resolves.toBe(nodeHmac(secret, message));
    }
  });

  it('equals node:crypto for any secret and message, as 64 lowercase hex digits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), async (secret, message) => {
        const hex = await hmacSha256Hex(secret, message);
        expect(hex).toMatch(/^[0-9a-f]{64}$/);
        expect(hex).toBe(nodeHmac(secret, message));
      }),
      { numRuns: 50 },
    );
  });

  it('hmacSha256Signer imports the key once per signer and agrees with hmacSha256Hex', async () => {
    const importKey = jest.spyOn(webcrypto.subtle, 'importKey');
    try {
      const secret = 'a-secret-used-only-by-this-test';
      const sign = hmacSha256Signer(secret);
      expect(await sign('a')).toBe(nodeHmac(secret, 'a'));
      expect(await sign('b')).toBe(await hmacSha256Hex(secret, 'b'));
      expect(importKey).toHaveBeenCalledTimes(2); // once for the signer, once for the one-off call
    } finally {
      importKey.mockRestore();
    }
  });

  it('rejects an empty secret with a ConfigError', async () => {
    await expect(hmacSha256Hex('', 'x')).rejects.toBeInstanceOf(ConfigError);
    await expect(hmacSha256Hex('', 'x')).rejects.toThrow('secretKey must be a non-empty string');
  });
});
