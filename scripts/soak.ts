/**
 * The chaos soak, bounded: `npm run soak -- [--duration <s>] [--seed <n>] [--interval <ms>]`.
 * Runs the simulator and a consumer of market and user streams while faults are injected at seeded random
 * times, prints the summary table, exits 1 when a check fails. Run with `node --expose-gc` for heap numbers
 * after garbage collection (the npm script does).
 */
import { runSoak } from '../spec/soak/runSoak';
import { formatSummary } from '../spec/soak/summary';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`--${name} needs a positive number\n`);
    process.exit(2);
  }
  return value;
};

const HELP = `Usage: npm run soak -- [--duration <s>] [--seed <n>] [--interval <ms>]
  --duration  seconds of chaos (default 180); a quiet recovery of 8 s follows
  --seed      seed of the simulator and of the fault schedule (default 1)
  --interval  mean time between two faults in ms (default 3000)
Faults: drop, close, stall, halfOpen (sockets black-holed both ways past the client's heartbeat timeout),
malformed, wrongShape, duplicate, reorder, listenKeyExpiry, rejectRequests, clockSkew. Exits 1 when a check fails.
`;

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  const durationS = arg('duration', 180);
  const seed = arg('seed', 1);
  const meanFaultIntervalMs = arg('interval', 3000);
  const started = Date.now();
  const report = await runSoak({
    chaosMs: durationS * 1000,
    seed,
    meanFaultIntervalMs,
    recoveryMs: 8000,
    log: (line) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`),
  });
  process.stdout.write(`\n${formatSummary(report)}\n`);
  await new Promise((resolve) => setTimeout(resolve, 500)); // let closed sockets finish closing
  const handles = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap' && r !== 'PipeWrap' && r !== 'FSReqCallback');
  process.stdout.write(`\nopen handles after teardown: ${handles.length === 0 ? 'none' : handles.join(', ')}\n`);
  const failed = report.checks.filter((c) => !c.ok).length;
  process.stdout.write(failed === 0 ? 'soak: every check passed\n' : `soak: ${failed} check(s) FAILED\n`);
  process.exitCode = failed === 0 && handles.length === 0 ? 0 : 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`soak crashed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exitCode = 1;
});
