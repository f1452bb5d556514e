/**
 * Where a symbol's entries live (notes/scaling.md, "Key layout and why"): symbols are spread over `shards` streams by a
 * stable hash (FNV-1a, 32 bits, of the symbol's UTF-16 code units, modulo `shards`), the stream key
 * `${prefix}{${shard}}` (the braces are a Redis Cluster hash tag: a shard's stream and its `:last` hash share one
 * slot), and the id of each topic's latest entry in the hash `${prefix}{${shard}}:last`, field `${topic}|${symbol}`.
 *
 * @internal
 * @module
 */

import { fnv1a } from '../internal/fnv1a';

/** The shard of `symbol` among `shards`: FNV-1a (32 bits) of its code units, modulo `shards`. Stable across processes and versions. @internal */
export function shardOf(symbol: string, shards: number): number {
  return (fnv1a(symbol) >>> 0) % shards;
}

/** The stream key of `shard`. @internal */
export const streamKey = (prefix: string, shard: number): string => `${prefix}{${shard}}`;

/** The hash of the latest entry ids of `shard`'s topics. @internal */
export const lastKey = (prefix: string, shard: number): string => `${streamKey(prefix, shard)}:last`;

/** The field of a topic's latest entry id in {@link lastKey}. @internal */
export const lastField = (topic: string, symbol: string): string => `${topic}|${symbol}`;

/** The number written by `text` from `start` to `end` (`Number` of that slice, without making it when it is digits only). */
function numberAt(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number(text.slice(start, end));
    n = n * 10 + d;
  }
  return n;
}

/** Compares two stream ids (`ms-seq`) numerically: negative, zero or positive. No string made (one per entry read). @internal */
export function compareIds(x: string, y: string): number {
  let dx = x.indexOf('-');
  let dy = y.indexOf('-');
  if (dx < 0) dx = x.length;
  if (dy < 0) dy = y.length;
  return numberAt(x, 0, dx) - numberAt(y, 0, dy) || numberAt(x, dx + 1, x.length) - numberAt(y, dy + 1, y.length);
}
