// The recorded market on a damaged or empty recording: a line far ahead waits in steps a Node timer takes (no
// TimeoutOverflowWarning); the CLI's --recording refuses, with exit 1 and one line, what loadRecording refuses.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { realClock, runSimulatorCli, type Simulator, type SimulatorClock } from '../../lib/simulator';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { RecordedEvent } from '../../lib/testing/recording';
import { until } from '../helpers/until';
import { call } from './helpers';

const T0 = Date.UTC(2024, 5, 1, 10, 0, 0);
const frame = (t: number, topic: string, data: object[]): RecordedEvent => ({
  t,
  k: 'f',
  d: JSON.stringify({ symbol: 'BTCUSDT', topic, params: {}, data, f: true, sendTime: t }),
});
const trade = (t: number, v: string): RecordedEvent => frame(t, 'trade', [{ v, t, p: '30000.5', q: '0.01', m: true }]);

describe('recordedMarket on a damaged recording', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'xs-sim-damage-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a line 30 days ahead (in a recording built by hand) is waited for in steps a Node timer takes (at most 2^31 - 1 ms: no TimeoutOverflowWarning), the lines before it played', async () => {
    // the real clock, with the delays the simulator asks of it noted (Node fires a longer one at once, with a warning)
    const real = realClock();
    const asked: number[] = [];
    const clock: SimulatorClock = { ...real, setTimeout: (fn, ms) => (asked.push(ms), real.setTimeout(fn, Math.min(ms, 2 ** 31 - 1))) };
    let sim: Simulator | undefined;
    try {
      const events: RecordedEvent[] = [
        { t: T0, k: 'start', v: 2, stream: 'public', symbols: ['BTCUSDT'], topics: ['trade'] },
        { t: T0, k: 'open', epoch: 1 },
        trade(T0 + 1, '1'),
        trade(T0 + 30 * 86_400_000, '2'),
      ];
      sim = await startSimulator({ recordedMarket: { recording: { events } }, clock });
      await until(() => asked.some((ms) => ms > 86_400_000), 'the wait for the line 30 days ahead'); // the line before it played
      const answer = await call(sim, { path: '/quote/v1/trades', query: 'symbol=BTCUSDT&limit=10', apiKey: null, signatureIn: 'none' });
      expect((answer.body as Array<{ p: string }>).map((t) => t.p)).toEqual(['30000.5']);
      expect(asked.filter((ms) => ms > 2 ** 31 - 1)).toEqual([]);
    } finally {
      await sim?.close();
    }
  });

  it('ex-streams-simulator --recording: an empty directory, a manifest naming missing files, an unknown version, a recording without pair data → exit 1, one clear line', async () => {
    const cases: Array<[string, RegExp]> = [];
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    cases.push([empty, /no recording file \(\*\.jsonl\.gz\) in the directory$/]);

    const partial = join(dir, 'partial');
    mkdirSync(partial);
    const file = (name: string): object => ({ name, first: T0, last: T0 + 10, messages: 1, lines: 2, bytes: 50, symbols: ['BTCUSDT'], topics: ['trade'], complete: true });
    const names = ['market-20240601T100000Z-0001.jsonl.gz', 'market-20240601T100100Z-0002.jsonl.gz', 'market-20240601T100200Z-0003.jsonl.gz'];
    writeFileSync(join(partial, names[0]!), gzipSync(`${JSON.stringify(trade(T0 + 1, '1'))}\n`));
    writeFileSync(join(partial, 'manifest.json'), JSON.stringify({ version: 1, stream: 'public', complete: true, files: names.map(file) }));
    cases.push([partial, /2 of the 3 files its manifest.json names are missing: market-20240601T100100Z-0002.jsonl.gz, market-20240601T100200Z-0003.jsonl.gz$/]);

    const future = join(dir, 'future');
    mkdirSync(future);
    writeFileSync(join(future, names[0]!), gzipSync(`${JSON.stringify({ t: T0, k: 'start', v: 7, stream: 'public', symbols: [], topics: [] })}\n`));
    cases.push([future, /format version 7 is not one this version of ex-streams reads \(1, 2, 3\): upgrade ex-streams$/]);

    const quiet = join(dir, 'quiet');
    mkdirSync(quiet);
    writeFileSync(join(quiet, names[0]!), gzipSync(`${JSON.stringify({ t: T0, k: 'open', epoch: 1 })}\n`));
    cases.push([quiet, /recording holds no market data .* of a pair the simulator can serve$/]);

    for (const [path, message] of cases) {
      const stdout: string[] = [];
      const stderr: string[] = [];
      const run = await runSimulatorCli({ argv: ['--port', '0', '--recording', path], env: {}, stdout: (t) => void stdout.push(t), stderr: (t) => void stderr.push(t) });
      if (typeof run !== 'number') await run.stop();
      expect({ path, run, stdout }).toEqual({ path, run: 1, stdout: [] });
      expect(stderr).toHaveLength(1);
      expect(stderr[0]!.trimEnd()).toMatch(message);
      expect(stderr[0]).not.toContain(`${path}: ${path}`); // the path said once
      expect(stderr[0]!.startsWith(`ex-streams-simulator: cannot read the recording at ${path}`) || stderr[0]!.startsWith('ex-streams-simulator: cannot start: ')).toBe(true);
    }
  });
});
