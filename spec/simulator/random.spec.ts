import { mixSeed, mulberry32, randomAlnum, randomInt } from '../../lib/simulator/core/random';

describe('mulberry32', () => {
  it('is deterministic per seed, different across seeds, and in [0, 1)', () => {
    const take = (seed: number) => {
      const next = mulberry32(seed);
      return Array.from({ length: 1000 }, next);
    };
    const a = take(1);
    expect(take(1)).toEqual(a);
    expect(take(2)).not.toEqual(a);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(a).size).toBe(a.length);
  });

  it('spreads its values over [0, 1)', () => {
    const next = mulberry32(42);
    const deciles = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) deciles[Math.floor(next() * 10)]! += 1;
    for (const count of deciles) expect(count).toBeGreaterThan(850);
  });

  it('takes the seed as an unsigned 32-bit integer', () => {
    expect(mulberry32(-1)()).toBe(mulberry32(0xffffffff)());
  });
});

describe('mixSeed', () => {
  it('gives a 32-bit seed per (seed, label), stable and distinct', () => {
    expect(mixSeed(1, 'market')).toBe(mixSeed(1, 'market'));
    expect(mixSeed(1, 'market')).not.toBe(mixSeed(1, 'account'));
    expect(mixSeed(1, 'market')).not.toBe(mixSeed(2, 'market'));
    for (const s of [mixSeed(0, ''), mixSeed(4294967295, 'x'.repeat(100))]) {
      expect(Number.isInteger(s) && s >= 0 && s <= 0xffffffff).toBe(true);
    }
  });

  it('is FNV-1a over the label from the seed-mixed basis', () => {
    expect(mixSeed(0, '')).toBe(0x811c9dc5);
    expect(mixSeed(0, 'a')).toBe(0xe40c292c); // FNV-1a 32 of "a"
  });
});

describe('randomAlnum', () => {
  it('draws letters and digits of the given length from the generator', () => {
    expect(randomAlnum(() => 0, 3)).toBe('AAA');
    expect(randomAlnum(() => 0.999999, 2)).toBe('99');
    expect(randomAlnum(mulberry32(7), 64)).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(randomAlnum(() => 0.5, 0)).toBe('');
  });
});

describe('randomInt', () => {
  it('draws an integer in [min, max], both ends included', () => {
    expect(randomInt(() => 0, 3, 7)).toBe(3);
    expect(randomInt(() => 0.999999, 3, 7)).toBe(7);
    const next = mulberry32(3);
    const seen = new Set(Array.from({ length: 500 }, () => randomInt(next, -2, 2)));
    expect([...seen].sort()).toEqual([-1, -2, 0, 1, 2].sort());
  });
});
