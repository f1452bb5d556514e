import fc from 'fast-check';
import { RecentKeys } from '../../lib/internal/recentKeys';

/** The reference model: a Map in age order, expired or surplus keys forgotten oldest first. */
class ModelKeys {
  private readonly expiries = new Map<string, number>();
  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}
  add(key: string, now: number): boolean {
    for (const [k, expiry] of this.expiries) {
      if (expiry > now && this.expiries.size < this.maxKeys) break;
      this.expiries.delete(k);
    }
    if (this.expiries.has(key)) return false;
    this.expiries.set(key, now + this.windowMs);
    return true;
  }
}

describe('RecentKeys', () => {
  it('drops a key seen within the window, accepts it again after', () => {
    const keys = new RecentKeys(100, 10);
    expect(keys.add('a', 0)).toBe(true);
    expect(keys.add('a', 99)).toBe(false);
    expect(keys.add('a', 100)).toBe(true);
  });

  it('forgets the oldest keys beyond maxKeys', () => {
    const keys = new RecentKeys(1000, 2);
    expect(keys.add('a', 0)).toBe(true);
    expect(keys.add('b', 1)).toBe(true);
    expect(keys.add('c', 2)).toBe(true); // forgets 'a'
    expect(keys.add('a', 3)).toBe(true); // forgets 'b'
    expect(keys.add('a', 4)).toBe(false); // at capacity: 'c' is forgotten first, 'a' is still known
  });

  it('answers like the Map model for any sequence of adds (ring buffer growth and wrap-around included)', () => {
    const op = fc.tuple(fc.integer({ min: 0, max: 150 }).map(String), fc.integer({ min: 0, max: 20 }));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 200 }), fc.array(op, { maxLength: 400 }), (windowMs, maxKeys, ops) => {
        const keys = new RecentKeys(windowMs, maxKeys);
        const model = new ModelKeys(windowMs, maxKeys);
        let now = 0;
        for (const [key, dt] of ops) {
          now += dt;
          expect(keys.add(key, now)).toBe(model.add(key, now));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('addNumbers: a key of four integers, equal by its parts, never equal to a string key; like the model', () => {
    type Key = string | readonly [number, number, number, number];
    const num = fc.constantFrom(0, 1, 2, -1, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1, 1_700_000_000_123);
    const key: fc.Arbitrary<Key> = fc.oneof(fc.constantFrom('', '0', '1', 'a', 'a:b'), fc.tuple(num, num, num, num));
    const modelKey = (k: Key): string => (typeof k === 'string' ? `s${k}` : `n${k.join(',')}`);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 200 }), fc.array(fc.tuple(key, fc.integer({ min: 0, max: 20 })), { maxLength: 400 }), (windowMs, maxKeys, ops) => {
        const keys = new RecentKeys(windowMs, maxKeys);
        const model = new ModelKeys(windowMs, maxKeys);
        let now = 0;
        for (const [k, dt] of ops) {
          now += dt;
          const added = typeof k === 'string' ? keys.add(k, now) : keys.addNumbers(k[0], k[1], k[2], k[3], now);
          expect(added).toBe(model.add(modelKey(k), now));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('forgets everything on clear', () => {
    const keys = new RecentKeys(1000, 10);
    keys.add('a', 0);
    keys.clear();
    expect(keys.add('a', 1)).toBe(true);
  });
});
