/**
 * One venue connection shared by two processes through Redis (docs/scaling.md, "Run the example"): starts the
 * simulator, a redis-server from PATH (or uses REDIS_URL), the gateway and two consumer processes that print a
 * book's spread and a VWAP, for `--seconds` (default 10), then stops everything.
 *
 *   npm run example:scaling [-- --seconds 10]
 *   npx ts-node --transpile-only docs/examples/scaling/main.ts [--seconds 10]
 *
 * Exit code 0 when both consumers printed, 1 when they did not or something failed, 3 when redis-server is not
 * installed and REDIS_URL is not set.
 */
import { NoRedisServer, runScalingExample } from './scalingExample';

const args = process.argv.slice(2);
const at = args.indexOf('--seconds');
const seconds = at < 0 ? 10 : Number(args[at + 1]);
if (!(seconds > 0)) {
  process.stderr.write('usage: main.ts [--seconds N]\n');
  process.exit(2);
}
runScalingExample({
  seconds,
  print: (line) => process.stdout.write(`${line}\n`),
  redisUrl: process.env['REDIS_URL'] || undefined,
  // Ctrl-C: stop everything cleanly (the consumers and redis-server get the SIGINT too and stop themselves)
  until: new Promise((resolve) => process.once('SIGINT', resolve)),
}).then(
  (r) => process.exit(r.lines.book.length > 0 && r.lines.vwap.length > 0 ? 0 : 1),
  (e: unknown) => {
    if (e instanceof NoRedisServer) {
      process.stderr.write(`${e.message}\n`);
      process.exit(3);
    }
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
