import fc from 'fast-check';
import { assoc, Branch, Collision, collect, dissoc, Entry, find, hashOf, type Item } from '../../lib/internal/hashTrie';

/** Two distinct keys with the same 32-bit hash (birthday search over `k0`, `k1`, …). */
function collidingPair(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const key = `k${i}`;
    const other = seen.get(hashOf(key));
    if (other !== undefined) return [other, key];
    seen.set(hashOf(key), key);
  }
}

const empty = <V>(): Branch<V> => new Branch<V>(0, []);
const put = <V>(root: Item<V>, key: string, value: V, seq = 0): Item<V> => assoc(root, new Entry(key, value, hashOf(key), seq), 0);
/** The value at `key` in a root (a root is a Branch, or undefined once emptied by `dissoc`). */
const get = <V>(root: Item<V> | undefined, key: string): V | undefined => {
  if (root === undefined) return undefined;
  if (!(root instanceof Branch)) throw new Error('a root is always a Branch');
  return find(root, key, hashOf(key))?.value;
};
const entriesOf = <V>(root: Item<V> | undefined): [string, V][] => {
  const out: Entry<V>[] = [];
  if (root !== undefined) collect(root, out);
  return out.map((e): [string, V] => [e.key, e.value]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
};

describe('hashTrie', () => {
  it('hashOf is 32-bit FNV-1a over UTF-16 code units', () => {
    expect(hashOf('')).toBe(0x811c9dc5 | 0);
    expect(hashOf('a')).toBe(Math.imul(0x811c9dc5 ^ 97, 0x01000193) | 0);
    expect(hashOf('ab')).not.toBe(hashOf('ba'));
  });

  it('finds what was put, replaces a key in place, and leaves the old version untouched', () => {
    const one = put(empty<number>(), 'a', 1);
    const two = put(one, 'b', 2);
    const three = put(two, 'a', 3);
    expect([get(one, 'a'), get(one, 'b')]).toEqual([1, undefined]);
    expect(entriesOf(two)).toEqual([['a', 1], ['b', 2]]);
    expect(entriesOf(three)).toEqual([['a', 3], ['b', 2]]);
  });

  it('keeps keys whose hashes collide in one Collision node, and removes them one by one', () => {
    const [a, b] = collidingPair();
    expect(hashOf(a)).toBe(hashOf(b));
    const both = put(put(empty<string>(), a, 'A'), b, 'B');
    const leaves: Entry<string>[] = [];
    collect(both, leaves);
    expect(leaves.map((e) => e.key).sort()).toEqual([a, b].sort());
    expect([get(both, a), get(both, b)]).toEqual(['A', 'B']);
    const replaced = put(both, b, 'B2');
    expect(entriesOf(replaced)).toEqual(entriesOf(both).map(([k, v]): [string, string] => [k, k === b ? 'B2' : v]));
    const withoutA = dissoc(both, a, hashOf(a), 0);
    expect(entriesOf(withoutA)).toEqual([[b, 'B']]);
    expect(dissoc(withoutA!, b, hashOf(b), 0)).toBeUndefined();
    const collision = new Collision(hashOf(a), [new Entry(a, 1, hashOf(a), 0)]);
    expect(dissoc(collision, b, hashOf(b), 0)).toBe(collision);
  });

  it('returns the same node when removing an absent key', () => {
    const root = put(put(empty<number>(), 'a', 1), 'b', 2);
    expect(dissoc(root, 'zz', hashOf('zz'), 0)).toBe(root);
  });

  it('behaves as a Map under any sequence of puts and removals (property)', () => {
    const key = fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom(...collidingPair()));
    const op = fc.tuple(fc.boolean(), key, fc.integer());
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const model = new Map<string, number>();
        let root: Item<number> | undefined = empty<number>();
        for (const [isPut, k, v] of ops) {
          if (isPut) {
            model.set(k, v);
            root = put(root ?? empty<number>(), k, v);
          } else {
            model.delete(k);
            root = root === undefined ? undefined : dissoc(root, k, hashOf(k), 0);
          }
          expect(get(root, k)).toBe(model.get(k));
        }
        expect(entriesOf(root)).toEqual([...model.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      }),
      { numRuns: 200 },
    );
  });
});
