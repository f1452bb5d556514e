/**
 * An immutable `ReadonlyMap<string, V>` with structural sharing (a hash array mapped trie, 32-way, over a
 * 32-bit FNV-1a hash of the key): `with` and `without` return a new map that shares every untouched node with
 * the old one, so an update copies one path (at most 7 nodes of at most 32 slots; 2-3 for a few thousand
 * keys) whatever the size. Iteration follows insertion order like a `Map` (an existing key keeps its place
 * when its value changes; a deleted key that comes back goes last); the ordered entry list is built on the
 * first iteration of a map and cached (it never changes).
 *
 * @internal
 * @module
 */

import { assoc, Branch, collect, dissoc, Entry, find, hashOf, type Item } from './hashTrie';

const EMPTY_ROOT = new Branch<never>(0, []);

/** One change from a map to the next: an entry replaced (same place), added (last) or removed. */
interface Change<V> {
  readonly removed: Entry<V> | undefined;
  readonly added: Entry<V> | undefined;
}

/** Changes kept to derive a map's ordered entries from an earlier map's (beyond: collect and sort). */
const MAX_PENDING_CHANGES = 4;

/**
 * An iterator over ordered entries (an object with `next`: cheaper than a generator per element). Typed as
 * the `MapIterator` a `ReadonlyMap` returns, which the DOM / Node typings extend with `[Symbol.dispose]`
 * (a no-op on iterators, absent here).
 */
class EntryIterator<V, R> {
  private i = 0;

  constructor(
    private readonly list: readonly Entry<V>[],
    private readonly read: (e: Entry<V>) => R,
  ) {}

  next(): IteratorResult<R, undefined> {
    const list = this.list;
    return this.i < list.length ? { value: this.read(list[this.i++]!), done: false } : { value: undefined, done: true };
  }

  [Symbol.iterator](): EntryIterator<V, R> {
    return this;
  }
}

const readEntry = <V>(e: Entry<V>): [string, V] => [e.key, e.value];
const readKey = <V>(e: Entry<V>): string => e.key;
const readValue = <V>(e: Entry<V>): V => e.value;

/**
 * An immutable map from text keys, honest about what it is: it implements `ReadonlyMap` (its own name, its
 * own `Symbol.toStringTag`, no `Map` prototype), so nothing mistakes it for a `Map` whose internal storage
 * would look empty (`structuredClone`, `instanceof Map` checks). {@link PersistentMap.with} and
 * {@link PersistentMap.without} return new maps; `new Map(map)` copies one into a plain `Map`.
 * @internal
 */
export class PersistentMap<V> implements ReadonlyMap<string, V> {
  /** The empty map. */
  static empty<V>(): PersistentMap<V> {
    const map = new PersistentMap<V>(EMPTY_ROOT, 0, 0);
    map.ordered = [];
    return map;
  }

  /** The entries in iteration order, once built (a map never changes, so neither do they). */
  private ordered: readonly Entry<V>[] | undefined;
  /**
   * Until `ordered` is built: an earlier map's ordered entries and the changes since, so that a consumer
   * iterating every new map copies a list instead of sorting one (O(n), like copying a `Map`).
   */
  private base: readonly Entry<V>[] | undefined;
  private changes: readonly Change<V>[] | undefined;

  private constructor(
    private readonly root: Branch<V>,
    /** Number of entries. */
    private readonly count: number,
    private readonly nextSeq: number,
  ) {}

  get size(): number {
    return this.count;
  }

  get [Symbol.toStringTag](): string {
    return 'PersistentMap';
  }

  get(key: string): V | undefined {
    return find(this.root, key, hashOf(key))?.value;
  }

  has(key: string): boolean {
    return find(this.root, key, hashOf(key)) !== undefined;
  }

  /** A map with `key` set to `value` (an existing key keeps its place in the iteration order). */
  with(key: string, value: V): PersistentMap<V> {
    const hash = hashOf(key);
    const old = find(this.root, key, hash);
    const entry = new Entry(key, value, hash, old === undefined ? this.nextSeq : old.seq);
    const root = assoc(this.root, entry, 0) as Branch<V>;
    return old === undefined
      ? this.next(root, this.count + 1, this.nextSeq + 1, undefined, entry)
      : this.next(root, this.count, this.nextSeq, old, entry);
  }

  /** A map without `key` (this map when `key` is absent). */
  without(key: string): PersistentMap<V> {
    const hash = hashOf(key);
    const old = find(this.root, key, hash);
    if (old === undefined) return this;
    const root = dissoc(this.root, key, hash, 0) as Branch<V> | undefined;
    return this.next(root ?? EMPTY_ROOT, this.count - 1, this.nextSeq, old, undefined);
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const e of this.entryList()) callback.call(thisArg, e.value, e.key, this);
  }

  entries(): MapIterator<[string, V]> {
    return new EntryIterator(this.entryList(), readEntry) as unknown as MapIterator<[string, V]>;
  }

  keys(): MapIterator<string> {
    return new EntryIterator(this.entryList(), readKey) as unknown as MapIterator<string>;
  }

  values(): MapIterator<V> {
    return new EntryIterator(this.entryList(), readValue) as unknown as MapIterator<V>;
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  /** The map after one change, remembering how to derive its order from this one's. */
  private next(root: Branch<V>, size: number, nextSeq: number, removed: Entry<V> | undefined, added: Entry<V> | undefined): PersistentMap<V> {
    const map = new PersistentMap(root, size, nextSeq);
    if (this.ordered !== undefined) {
      map.base = this.ordered;
      map.changes = [{ removed, added }];
    } else if (this.changes !== undefined && this.changes.length < MAX_PENDING_CHANGES) {
      map.base = this.base;
      map.changes = [...this.changes, { removed, added }];
    }
    return map;
  }

  private entryList(): readonly Entry<V>[] {
    if (this.ordered !== undefined) return this.ordered;
    let list: Entry<V>[];
    if (this.base !== undefined && this.changes !== undefined) {
      list = this.base.slice();
      for (const { removed, added } of this.changes) {
        if (removed === undefined) list.push(added!); // a new key: the highest seq so far, so last
        else {
          const at = list.indexOf(removed);
          if (added === undefined) list.splice(at, 1);
          else list[at] = added; // same key, same seq, same place
        }
      }
    } else {
      list = [];
      collect(this.root, list);
      list.sort((a, b) => a.seq - b.seq);
    }
    this.ordered = list;
    this.base = this.changes = undefined;
    return list;
  }
}

/**
 * How many trie nodes of `after` are not nodes of `before` (what an update allocated): a structural check
 * for tests. @internal
 */
export function newNodes<V>(before: PersistentMap<V>, after: PersistentMap<V>): number {
  const seen = new Set<unknown>();
  const walk = (node: Item<V>, visit: (n: Item<V>) => void): void => {
    visit(node);
    if (node instanceof Branch) for (const item of node.items) walk(item, visit);
  };
  walk(rootOf(before), (n) => seen.add(n));
  let count = 0;
  walk(rootOf(after), (n) => {
    if (!seen.has(n)) count++;
  });
  return count;
}

const rootOf = <V>(map: PersistentMap<V>): Item<V> => (map as unknown as { root: Item<V> }).root;
