import { FNV_OFFSET, fnv1a } from '../../internal/fnv1a';

/**
 * mulberry32: a small, fast, seeded PRNG returning floats in [0, 1).
 * @internal
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a hash of a text mixed with a number, to derive independent seeds. @internal */
export function mixSeed(seed: number, label: string): number {
  return fnv1a(label, FNV_OFFSET ^ seed) >>> 0;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` random alphanumeric characters. @internal */
export function randomAlnum(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALNUM[Math.floor(random() * ALNUM.length)];
  return out;
}

/** An integer in [min, max]. @internal */
export function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
