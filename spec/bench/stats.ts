import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

export const now = (): number => performance.now();

/** Wall-clock epoch ms with sub-ms resolution, comparable across processes (the pusher uses the same). */
export const epochMs = (): number => performance.timeOrigin + performance.now();

export const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Operations per second of `fn`, median of `runs` runs of about `ms` each (after one warm-up run). */
export function opsPerSecond(fn: () => unknown, ms: number, runs = 3): number {
  const once = (): number => {
    let n = 0;
    const start = now();
    let elapsed = 0;
    while (elapsed < ms) {
      for (let i = 0; i < 64; i++) fn();
      n += 64;
      elapsed = now() - start;
    }
    return (n / elapsed) * 1000;
  };
  once();
  const results: number[] = [];
  for (let r = 0; r < runs; r++) results.push(once());
  return median(results);
}

/** `global.gc`: given by `--expose-gc`, else exposed at run time through the V8 flag. */
export function gcFunction(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed !== undefined) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as (() => void) | undefined;
}

/** Heap used after a full GC, in bytes (NaN when no GC can be forced). */
export async function heapAfterGc(): Promise<number> {
  const gc = gcFunction();
  if (gc === undefined) return NaN;
  for (let i = 0; i < 3; i++) {
    await tick();
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** Waits for `predicate` (polled every few ms), failing after `timeoutMs`. */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const start = now();
  while (!(await predicate())) {
    if (now() - start > timeoutMs) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(2);
  }
}
