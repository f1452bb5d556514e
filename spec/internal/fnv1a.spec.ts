import { FNV_OFFSET, fnv1a, fnv1aNumber } from '../../lib/internal/fnv1a';
import { shardOf } from '../../lib/redis/marketKeys';
import { mixSeed } from '../../lib/simulator/core/random';

/** FNV-1a (32 bits) by its definition, over bytes: the reference the code-unit form must equal on ASCII text. */
function reference(bytes: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Number((BigInt(h ^ b) * 0x01000193n) & 0xffffffffn) >>> 0;
  return h >>> 0;
}

describe('fnv1a', () => {
  it('gives the published FNV-1a 32-bit values', () => {
    expect(fnv1a('') >>> 0).toBe(0x811c9dc5);
    expect(fnv1a('a') >>> 0).toBe(0xe40c292c);
    expect(fnv1a('foobar') >>> 0).toBe(0xbf9cf968);
    expect(FNV_OFFSET).toBe(0x811c9dc5);
  });

  it('equals the byte definition on ASCII text, as a signed 32-bit integer', () => {
    for (const text of ['BTCUSDT', 'ETHUSDT', 'x', 'depth|BTCUSDT', '0123456789']) {
      const h = fnv1a(text);
      expect(h).toBe(h | 0);
      expect(h >>> 0).toBe(reference([...text].map((c) => c.charCodeAt(0))));
    }
  });

  it('continues from a given hash', () => {
    expect(fnv1a('bar', fnv1a('foo'))).toBe(fnv1a('foobar'));
  });

  it('hashes an integer as its low and high 32-bit words', () => {
    const key = (a: number, b: number, c: number, d: number) => fnv1aNumber(fnv1aNumber(fnv1aNumber(fnv1aNumber(FNV_OFFSET, a), b), c), d);
    expect(key(0, 0, 0, 0)).toBe(-1679724187);
    expect(key(1, 2, 3, 4)).toBe(1324734849);
    expect(key(2 ** 40 + 7, 123456789012, 5, -1)).toBe(1932067832);
  });

  it('keeps the shards of symbols and the derived seeds of the simulator', () => {
    expect([shardOf('BTCUSDT', 16), shardOf('ETHUSDT', 7), shardOf('€', 1000)]).toEqual([12, 5, 75]);
    expect([mixSeed(0, 'a'), mixSeed(42, 'market'), mixSeed(7, '')]).toEqual([3826002220, 611931291, 2166136258]);
  });
});
