/**
 * Record the simulator, replay the recording at full speed, same VWAP: see README.md here.
 *
 *   npx ts-node docs/examples/replay/main.ts [--seconds 30] [--out DIR]
 */
import { runReplayExample } from './replayExample';

const args = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const seconds = Number(value('--seconds') ?? '30');
if (!(seconds > 0)) {
  process.stderr.write('usage: main.ts [--seconds N] [--out DIR]\n');
  process.exit(2);
}
const out = value('--out');
runReplayExample({ seconds, print: (line) => process.stdout.write(`${line}\n`), ...(out === undefined ? {} : { out }) }).then(
  (r) => process.exit(r.live.vwap === r.replayed.vwap && r.live.trades === r.replayed.trades ? 0 : 1),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
