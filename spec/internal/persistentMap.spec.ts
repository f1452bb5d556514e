import fc from 'fast-check';
import { newNodes, PersistentMap } from '../../lib/internal/persistentMap';

/** The map's hash (FNV-1a over UTF-16 code units), to build keys that collide. */
function fnv(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Two distinct keys with the same 32-bit hash (birthday search). */
function collidingPair(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const key = `k${i}`;
    const other = seen.get(fnv(key));
    if (other !== undefined) return [other, key];
    seen.set(fnv(key), key);
  }
}

const sameAsMap = <V>(actual: PersistentMap<V>, expected: ReadonlyMap<string, V>): void => {
  expect(actual.size).toBe(expected.size);
  expect([...actual]).toEqual([...expected]);
  expect([...actual.keys()]).toEqual([...expected.keys()]);
  expect([...actual.values()]).toEqual([...expected.values()]);
  for (const [k, v] of expected) {
    expect(actual.has(k)).toBe(true);
    expect(actual.get(k)).toBe(v);
  }
};

type Op = { readonly del: boolean; readonly key: string; readonly value: number };

describe('PersistentMap', () => {
  const [c1, c2] = collidingPair();
  const keyArb = fc.oneof(fc.constantFrom('1', '2', '3', '42', c1, c2), fc.string({ maxLength: 4 }), fc.nat({ max: 5000 }).map(String));
  const opArb = fc.record({ del: fc.boolean(), key: keyArb, value: fc.integer() });

  it('behaves like a Map copied before each change (get, has, size, insertion order), old versions unchanged (property)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 200 }), fc.array(fc.nat(), { maxLength: 20 }), (ops: Op[], firstReads: number[]) => {
        let map = PersistentMap.empty<number>();
        let model = new Map<string, number>();
        const versions: [PersistentMap<number>, Map<string, number>][] = [[map, model]];
        for (const op of ops) {
          model = new Map(model);
          if (op.del) {
            model.delete(op.key);
            map = map.without(op.key);
          } else {
            model.set(op.key, op.value);
            map = map.with(op.key, op.value);
          }
          versions.push([map, model]);
        }
        // Iteration order is derived from an earlier map's when that one was iterated, else rebuilt: read
        // some versions first, in any order, then all of them.
        for (const k of firstReads) {
          const [m, expected] = versions[k % versions.length]!;
          sameAsMap(m, expected);
        }
        for (const [m, expected] of versions) sameAsMap(m, expected);
        expect(map.has('absent key')).toBe(false);
        expect(map.get('absent key')).toBeUndefined();
      }),
    );
  });

  it('keeps keys whose hashes collide apart', () => {
    expect(c1).not.toBe(c2);
    expect(fnv(c1)).toBe(fnv(c2));
    const both = PersistentMap.empty<string>().with(c1, 'a').with(c2, 'b').with('x', 'c');
    sameAsMap(both, new Map([[c1, 'a'], [c2, 'b'], ['x', 'c']]));
    const updated = both.with(c2, 'B');
    sameAsMap(updated, new Map([[c1, 'a'], [c2, 'B'], ['x', 'c']]));
    sameAsMap(updated.without(c1), new Map([[c2, 'B'], ['x', 'c']]));
    sameAsMap(updated.without(c1).without(c2), new Map([['x', 'c']]));
    sameAsMap(both, new Map([[c1, 'a'], [c2, 'b'], ['x', 'c']]));
  });

  it('returns itself when deleting an absent key', () => {
    const m = PersistentMap.empty<number>().with('a', 1);
    expect(m.without('b')).toBe(m);
  });

  it('copies one path per update, whatever the size', () => {
    const sizes = [10, 1000, 100_000];
    const copied = sizes.map((n) => {
      let m = PersistentMap.empty<number>();
      for (let i = 0; i < n; i++) m = m.with(String(1_000_000 + i), i);
      const update = m.with(String(1_000_000 + (n >> 1)), -1);
      const insert = m.with('new', -1);
      const remove = m.without(String(1_000_000 + (n >> 2)));
      return Math.max(newNodes(m, update), newNodes(m, insert), newNodes(m, remove));
    });
    // One node per trie level plus the new entry: 32-way branching, so 4-5 levels for 100 000 keys.
    for (const c of copied) expect(c).toBeLessThanOrEqual(6);
  });

  it('is an honest ReadonlyMap: its own tag, no Map prototype, copied into a Map with new Map(map)', () => {
    const m = PersistentMap.empty<number>().with('a', 1).with('b', 2);
    expect(Object.prototype.toString.call(m)).toBe('[object PersistentMap]');
    expect(m).not.toBeInstanceOf(Map);
    expect(m.constructor).toBe(PersistentMap);
    expect('set' in m || 'delete' in m || 'clear' in m).toBe(false);
    expect(new Map(m)).toEqual(new Map([['a', 1], ['b', 2]]));
    expect(structuredClone(new Map(m))).toEqual(new Map([['a', 1], ['b', 2]]));
    // two maps compare by their entries, in order
    expect(m).toEqual(PersistentMap.empty<number>().with('a', 1).with('b', 2));
    expect(m).not.toEqual(PersistentMap.empty<number>().with('a', 1).with('b', 3));
    expect([...m]).toEqual([['a', 1], ['b', 2]]);
    const seen: [string, number][] = [];
    m.forEach((v, k, self) => {
      expect(self).toBe(m);
      seen.push([k, v]);
    });
    expect(seen).toEqual([['a', 1], ['b', 2]]);
  });
});
