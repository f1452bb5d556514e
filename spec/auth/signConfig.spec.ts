import { ConfigError } from '../../lib/errors';
import { hmacSha256Hex } from '../../lib/auth/hmacSha256Hex';
import { DEFAULT_RECV_WINDOW_MS, signFunctionOf, validRecvWindow } from '../../lib/auth/signConfig';

describe('validRecvWindow', () => {
  it('defaults to 5000 ms and keeps a positive integer', () => {
    expect(validRecvWindow()).toBe(DEFAULT_RECV_WINDOW_MS);
    expect(DEFAULT_RECV_WINDOW_MS).toBe(5000);
    expect(validRecvWindow(60_000)).toBe(60_000);
  });

  it('throws a ConfigError naming the option for anything else', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity, '5000' as unknown as number]) {
      expect(() => validRecvWindow(bad)).toThrow(ConfigError);
      expect(() => validRecvWindow(bad)).toThrow(/recvWindow/);
    }
  });
});

describe('signFunctionOf', () => {
  it('returns a custom sign function as given', () => {
    const sign = (message: string): string => `sig(${message})`;
    expect(signFunctionOf({ sign })).toBe(sign);
  });

  it('signs with HMAC SHA256 of the secret key otherwise', async () => {
    const sign = signFunctionOf({ secretKey: 'key' });
    await expect(Promise.resolve(sign('message'))).resolves.toBe(await hmacSha256Hex('key', 'message'));
  });

  it('refuses both, neither, an empty secret and a sign that is not a function', () => {
    const cases: [Parameters<typeof signFunctionOf>[0], string][] = [
      [{ secretKey: 'k', sign: () => 's' }, 'sign'],
      [{}, 'secretKey'],
      [{ secretKey: '' }, 'secretKey'],
      [{ sign: 'not a function' as unknown as () => string }, 'sign'],
    ];
    for (const [config, option] of cases) {
      let caught: unknown;
      try {
        signFunctionOf(config);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).option).toBe(option);
    }
  });
});
