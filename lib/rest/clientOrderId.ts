/**
 * Client order ids the library generates for a placement sent without one (issue 26): the order can then be
 * looked up when its answer is lost.
 * @module
 */
import type { SchedulerLike } from 'rxjs';

/** Letters of a generated id: lower-case ASCII letters and digits (what every service of this family takes). */
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Random characters per id: 36^12 ≈ 2^62 ids per millisecond. */
const RANDOM_CHARS = 12;
/** What a generated id starts with, so it is told apart from a caller's own ids. */
export const GENERATED_ID_PREFIX = 'xs';

/** A source of random 32-bit words: the platform's `crypto.getRandomValues` when there is one. @internal */
export type RandomWords = (count: number) => ArrayLike<number>;

/** Words drawn from the platform per `getRandomValues` call (one call costs ~5 µs on Node, whatever its size). */
const POOL_WORDS = 1024;

/**
 * The platform's cryptographic random source (browsers, Node ≥ 19, Deno), else `Math.random`. Words are drawn
 * `POOL_WORDS` at a time into a pool of this closure and each is handed out once (a placement's id costs no call
 * of the platform on the order path but one in ~85). @internal
 */
export function platformRandomWords(): RandomWords {
  const crypto = (globalThis as { crypto?: { getRandomValues?: (a: Uint32Array) => Uint32Array } }).crypto;
  if (crypto !== undefined && typeof crypto.getRandomValues === 'function') {
    const getRandomValues = crypto.getRandomValues.bind(crypto);
    const pool = new Uint32Array(POOL_WORDS);
    let next = POOL_WORDS;
    return (count) => {
      if (count > POOL_WORDS) return getRandomValues(new Uint32Array(count));
      if (next + count > POOL_WORDS) {
        getRandomValues(pool);
        next = 0;
      }
      next += count;
      return pool.slice(next - count, next);
    };
  }
  return (count) => Array.from({ length: count }, () => Math.floor(Math.random() * 2 ** 32));
}

/**
 * Makes the generator of client order ids: `xs` + the clock in base 36 (8 characters until the year 2059) +
 * 12 random base-36 characters, 22 characters in all, `[0-9a-z]` only (within the length and the characters the
 * service family takes). Unique across processes and restarts: two ids collide only when made in the same
 * millisecond with the same 62 random bits.
 *
 * @example
 * ```ts no-check
 * const next = clientOrderIds(asyncScheduler);
 * next(); // 'xsmhx3k1q0a8f3kz9x2c1p'
 * ```
 * @internal
 */
export function clientOrderIds(scheduler: SchedulerLike, random: RandomWords = platformRandomWords()): () => string {
  return () => {
    const words = random(RANDOM_CHARS);
    let tail = '';
    for (let k = 0; k < RANDOM_CHARS; k++) tail += ALPHABET[(words[k]! >>> 0) % ALPHABET.length];
    return `${GENERATED_ID_PREFIX}${Math.max(0, Math.floor(scheduler.now())).toString(36)}${tail}`;
  };
}
