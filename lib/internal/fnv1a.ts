/**
 * FNV-1a, 32 bits: the one hash of ex-streams (the Redis shards of symbols, the simulator's derived seeds, the
 * memory of recent keys, the trie under `PersistentMap`). Plain functions, small enough for the engine to inline
 * into a hot loop.
 *
 * @internal
 * @module
 */

/** The FNV-1a offset basis (32 bits): the hash of nothing. @internal */
export const FNV_OFFSET = 0x811c9dc5;

/** The FNV-1a prime (32 bits). */
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a of the UTF-16 code units of `text`, continued from `hash` (the offset basis by default), as a signed
 * 32-bit integer (`>>> 0` for the unsigned one): `fnv1a('a') >>> 0` is `0xe40c292c`. @internal
 */
export function fnv1a(text: string, hash: number = FNV_OFFSET): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h | 0;
}

/**
 * FNV-1a continued from `hash` over the integer `n` as two 32-bit words (its low, then its high 32 bits), as a
 * signed 32-bit integer: a key of numbers hashed without making a string. @internal
 */
export function fnv1aNumber(hash: number, n: number): number {
  const h = Math.imul(hash ^ (n | 0), FNV_PRIME);
  return Math.imul(h ^ ((n / 4294967296) | 0), FNV_PRIME);
}
