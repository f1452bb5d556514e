import { zipDepthFrame, frameText, type Shape } from './frames';
import type { BenchCase } from './cases';
import type { Pusher } from './pusherClient';
import { median, now, sleep } from './stats';

export interface ThroughputRow {
  readonly shape: string;
  readonly case: string;
  readonly bytes: number;
  readonly runs: number[];
  readonly msgsPerSec: number;
  readonly mbPerSec: number;
  /** Ratio to the floor of the same shape, same invocation. */
  ratio?: number;
}

const TIMEOUT_MS = 120_000;

/** One run: open the case, have the pusher send `count` frames, time until the case delivered them all. */
async function runOnce(pusher: Pusher, c: BenchCase, shape: Shape, frame: string, binary: boolean, count: number): Promise<number> {
  let n = 0;
  let finish: (t: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (finish = resolve));
  const close = await c.open(pusher.url, shape, () => {
    if (++n === count) finish(now());
  });
  await sleep(20);
  const start = now();
  const pushed = pusher.push(frame, count, binary);
  let timer: NodeJS.Timeout | undefined;
  const end = await Promise.race([done, new Promise<number>((resolve) => (timer = setTimeout(() => resolve(NaN), TIMEOUT_MS)))]);
  clearTimeout(timer);
  await pushed;
  close();
  await sleep(30);
  if (Number.isNaN(end)) throw new Error(`bench: ${c.name} / ${shape} received ${n} of ${count}`);
  return (count / (end - start)) * 1000;
}

/**
 * Throughput of `cases` on one shape: a warm-up run each, then `rounds` rounds in which every case runs
 * once (interleaved and rotated, so drifting machine load hits all cases alike); the median per case.
 */
export async function throughput(
  pusher: Pusher,
  cases: readonly BenchCase[],
  shape: Shape,
  transport: 'text' | 'zip',
  count: number,
  rounds: number,
  log: (line: string) => void,
): Promise<ThroughputRow[]> {
  const binary = transport === 'zip';
  const bytes = binary ? zipDepthFrame() : undefined;
  const frame = bytes ? Buffer.from(bytes).toString('base64') : frameText(shape);
  const size = bytes ? bytes.length : Buffer.byteLength(frame.split('"@N@"').join('1499405658658'));
  const runs = new Map<BenchCase, number[]>(cases.map((c) => [c, []]));
  for (const c of cases) await runOnce(pusher, c, shape, frame, binary, Math.max(100, count >> 2));
  for (let r = 0; r < rounds; r++) {
    // Each round starts one case later, so no case always runs right after the same neighbour.
    const order = cases.map((_, i) => cases[(i + r) % cases.length]!);
    for (const c of order) {
      const rate = await runOnce(pusher, c, shape, frame, binary, count);
      runs.get(c)!.push(rate);
      log(`  ${transport === 'zip' ? 'depth (zip)' : shape} · ${c.name} · run ${r + 1}: ${Math.round(rate).toLocaleString('en')} msg/s`);
    }
  }
  return cases.map((c) => {
    const rs = runs.get(c)!;
    const m = median(rs);
    return { shape: binary ? 'depth (zip)' : shape, case: c.name, bytes: size, runs: rs.map(Math.round), msgsPerSec: Math.round(m), mbPerSec: (m * size) / 1e6 };
  });
}
