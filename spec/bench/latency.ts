import { template } from './frames';
import type { BenchCase } from './cases';
import type { Pusher } from './pusherClient';
import { epochMs, percentile, sleep } from './stats';

export interface LatencyRow {
  readonly case: string;
  readonly ratePerSecond: number;
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/**
 * Latency at a steady rate: the pusher writes its send time (`bt`, epoch ms with µs resolution) into
 * each trade frame; the subscriber takes `epochMs() - bt`. The first 10 % of samples are warm-up.
 */
export async function latency(pusher: Pusher, c: BenchCase, ratePerSecond: number, seconds: number): Promise<LatencyRow> {
  const count = Math.round(ratePerSecond * seconds);
  const samples: number[] = [];
  const close = await c.open(pusher.url, 'trade', (record) => {
    samples.push(epochMs() - (record as { bt: number }).bt);
  });
  await sleep(20);
  await pusher.steady(template('trade'), ratePerSecond, count);
  await sleep(50);
  close();
  await sleep(30);
  const kept = samples.slice(Math.floor(samples.length / 10)).sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 1000) / 1000;
  return {
    case: c.name,
    ratePerSecond,
    samples: kept.length,
    p50Ms: round(percentile(kept, 50)),
    p99Ms: round(percentile(kept, 99)),
    maxMs: round(kept[kept.length - 1] ?? NaN),
  };
}
