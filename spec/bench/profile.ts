/**
 * One benchmark case on one shape, for profiling:
 *
 *   node --cpu-prof --cpu-prof-dir=.tmp/prof -r ts-node/register/transpile-only spec/bench/profile.ts trade ours 1000000
 *
 * cases: floor, ours, codecs, multiplex, zip-floor, zip-fflate, zip-node, zip-ours, zip-ours-node. Then summarise the profile with
 * `node spec/bench/topFrames.js .tmp/prof/<file>.cpuprofile`.
 */
import { nodeInflateRaw } from '../../lib/node/nodeInflateRaw';
import { type BenchCase, floor, libraryCase, rxjsMultiplex, rxjsCodecs, zipFflate, zipFloor, zipNodeInflate } from './cases';
import type { Shape } from './frames';
import { startPusher } from './pusherClient';
import { throughput } from './throughput';

const [shapeArg = 'trade', caseArg = 'ours', countArg = '500000'] = process.argv.slice(2);
const cases: Record<string, BenchCase> = {
  floor,
  ours: libraryCase('ours'),
  codecs: rxjsCodecs,
  multiplex: rxjsMultiplex,
  'zip-floor': zipFloor,
  'zip-fflate': zipFflate,
  'zip-node': zipNodeInflate,
  'zip-ours': libraryCase('ours (zip)', 'zip'),
  'zip-ours-node': libraryCase('ours (zip, nodeInflateRaw)', 'zip', nodeInflateRaw),
};

async function main(): Promise<void> {
  const c = cases[caseArg];
  if (c === undefined) throw new Error(`unknown case ${caseArg}`);
  const pusher = await startPusher();
  try {
    const rows = await throughput(pusher, [c], shapeArg as Shape, c.transport, Number(countArg), 1, (l) => process.stderr.write(l + '\n'));
    process.stdout.write(JSON.stringify(rows) + '\n');
  } finally {
    await pusher.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(String(e) + '\n');
    process.exit(1);
  },
);
