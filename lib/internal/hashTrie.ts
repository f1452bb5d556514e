/**
 * The hash array mapped trie under `PersistentMap`: 32-way nodes indexed by 5 bits of a 32-bit FNV-1a
 * hash of the key (a bitmap says which slots are used), entries whose full hashes collide in a list. Every
 * operation returns new nodes along one path and shares the rest.
 *
 * @internal
 * @module
 */

import { FNV_OFFSET, fnv1a } from './fnv1a';

/** One key and its value; `seq` orders iteration (first insertion). @internal */
export class Entry<V> {
  constructor(
    readonly key: string,
    readonly value: V,
    readonly hash: number,
    readonly seq: number,
  ) {}
}

/** A trie node: `bitmap` says which of the 32 slots are used; `items` holds them in slot order. @internal */
export class Branch<V> {
  constructor(
    readonly bitmap: number,
    readonly items: readonly Item<V>[],
  ) {}
}

/** Entries whose keys share the full 32-bit hash. @internal */
export class Collision<V> {
  constructor(
    readonly hash: number,
    readonly entries: readonly Entry<V>[],
  ) {}
}

/** A slot of a trie node. @internal */
export type Item<V> = Entry<V> | Branch<V> | Collision<V>;

/** The key {@link hashOf} hashed last, and its hash: a fold looks one key up, then sets it (one hash, not two). */
let lastKey = '';
let lastHash = FNV_OFFSET | 0;

/** FNV-1a of the key's UTF-16 code units ({@link fnv1a}), the last key's remembered. @internal */
export function hashOf(key: string): number {
  if (key === lastKey) return lastHash;
  lastKey = key;
  lastHash = fnv1a(key);
  return lastHash;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The entry of `key` under `root`, if any. @internal */
export function find<V>(root: Branch<V>, key: string, hash: number): Entry<V> | undefined {
  let node: Item<V> = root;
  for (let shift = 0; ; shift += 5) {
    if (node instanceof Branch) {
      const bit = 1 << ((hash >>> shift) & 31);
      if ((node.bitmap & bit) === 0) return undefined;
      node = node.items[popcount(node.bitmap & (bit - 1))]!;
    } else if (node instanceof Collision) {
      for (const e of node.entries) if (e.key === key) return e;
      return undefined;
    } else return node.key === key ? node : undefined;
  }
}

const withItem = <A>(items: readonly A[], at: number, item: A): A[] => {
  const out = items.slice();
  out[at] = item;
  return out;
};

/** `a` and `b` (different keys) in one subtree at `shift`. */
function pair<V>(a: Entry<V> | Collision<V>, b: Entry<V>, shift: number): Branch<V> | Collision<V> {
  if (a.hash === b.hash) return new Collision(b.hash, a instanceof Collision ? [...a.entries, b] : [a, b]);
  const ia = (a.hash >>> shift) & 31;
  const ib = (b.hash >>> shift) & 31;
  if (ia === ib) return new Branch(1 << ia, [pair(a, b, shift + 5)]);
  return new Branch((1 << ia) | (1 << ib), ia < ib ? [a, b] : [b, a]);
}

/** `node` with `entry` in place of the entry of the same key, or added. */
export function assoc<V>(node: Item<V>, entry: Entry<V>, shift: number): Item<V> {
  if (node instanceof Branch) {
    const bit = 1 << ((entry.hash >>> shift) & 31);
    const at = popcount(node.bitmap & (bit - 1));
    if ((node.bitmap & bit) === 0) {
      const items = node.items.slice();
      items.splice(at, 0, entry);
      return new Branch(node.bitmap | bit, items);
    }
    return new Branch(node.bitmap, withItem(node.items, at, assoc(node.items[at]!, entry, shift + 5)));
  }
  if (node instanceof Collision) {
    if (node.hash !== entry.hash) return pair(node, entry, shift);
    const at = node.entries.findIndex((e) => e.key === entry.key);
    return new Collision(node.hash, at < 0 ? [...node.entries, entry] : withItem(node.entries, at, entry));
  }
  return node.key === entry.key ? entry : pair(node, entry, shift);
}

/** `node` without `key` (`undefined` when nothing is left); the same node when `key` is absent. */
export function dissoc<V>(node: Item<V>, key: string, hash: number, shift: number): Item<V> | undefined {
  if (node instanceof Branch) {
    const bit = 1 << ((hash >>> shift) & 31);
    if ((node.bitmap & bit) === 0) return node;
    const at = popcount(node.bitmap & (bit - 1));
    const child = node.items[at]!;
    const next = dissoc(child, key, hash, shift + 5);
    if (next === child) return node;
    if (next !== undefined) return new Branch(node.bitmap, withItem(node.items, at, next));
    if (node.items.length === 1) return undefined;
    const items = node.items.slice();
    items.splice(at, 1);
    return new Branch(node.bitmap & ~bit, items);
  }
  if (node instanceof Collision) {
    const entries = node.entries.filter((e) => e.key !== key);
    return entries.length === node.entries.length ? node : entries.length === 0 ? undefined : new Collision(node.hash, entries);
  }
  return node.key === key ? undefined : node;
}

/** Every entry under `node`, appended to `out` (trie order). @internal */
export function collect<V>(node: Item<V>, out: Entry<V>[]): void {
  if (node instanceof Branch) for (const item of node.items) collect(item, out);
  else if (node instanceof Collision) out.push(...node.entries);
  else out.push(node);
}

