/**
 * One public-API case (`publicApi.ts`) alone, library side only, for `node --cpu-prof`:
 *
 *   node --cpu-prof --cpu-prof-dir=.tmp/prof -r ts-node/register/transpile-only spec/bench/profileApi.ts trades 400000
 *   node spec/bench/topFrames.js .tmp/prof/*.cpuprofile 30
 */
import { API_CASES } from './publicApi';

async function main(): Promise<void> {
  const name = process.argv[2] ?? 'trades';
  const total = Number(process.argv[3] ?? 200_000);
  const c = API_CASES.find((k) => k.name.includes(name));
  if (c === undefined) throw new Error(`no case matches ${name}`);
  const run = await c.open();
  const batch = Math.min(total, c.frames);
  let next = 0;
  const t0 = process.cpuUsage();
  while (next < total) {
    const frames = run.frames(next, batch);
    next += batch;
    for (let i = 0; i < batch; i++) run.deliver(frames[i]!, i);
    run.drain();
  }
  const { user, system } = process.cpuUsage(t0);
  run.close();
  process.stderr.write(`${c.name}: ${run.delivered()} values, ${(((user + system) * 1000) / total).toFixed(0)} ns/frame (frame building included)\n`);
}

void main();
