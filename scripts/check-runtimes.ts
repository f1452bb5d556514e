/**
 * The packed package on the other runtimes users run it on (CI, after `npm run build`): Node 22 and 24, Bun 1 and
 * Deno 2, each fetched as a pinned npm package by `npx` (not in the lockfile), beside the machine's Node.
 *
 * 1. `npm pack` the repository and unpack it as `node_modules/ex-streams` of a scratch project under .tmp/ (its
 *    dependencies resolve from the repository's node_modules, further up), as scripts/check-packed-readme.ts does;
 * 2. on each runtime, in turn:
 *    - scripts/runtimes/smoke.mjs, the real-socket subset: the simulator started on that runtime, an order book,
 *      trades and a reconnect over the public socket, zip frames through both inflaters, a signed REST call, an
 *      order placed and cancelled through the user stream, the codecs and the test kit's frames; it must print
 *      `smoke: ok` and exit 0 by itself (no socket or timer left behind);
 *    - the README's two "A first stream" blocks saved as `market.mjs` / `user.mjs` (the example hosts replaced by a
 *      simulator's, as the README says), which must show data and end on SIGTERM with nothing on stderr.
 * Every runtime is tried; the script fails (exit 1) when any step of any runtime failed, with a summary table.
 * About 30 s once the runtimes are in npx's cache (each fetch takes a few seconds the first time).
 *
 * `--jest` also runs the unit suite (`npm test`'s jest config, on the TypeScript sources) on each Node of the list,
 * `--jest=<spec paths>` a part of it: not in CI (each run takes as long as `npm test`).
 *
 *   node -r ts-node/register/transpile-only scripts/check-runtimes.ts [--only=node22,bun] [--jest[=spec/user,spec/rest]]
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { firstValueFrom } from 'rxjs';
import { restClient } from '../lib/rest/restClient';
import type { SimulatorCliInfo } from '../lib/simulator/cli/cli';
import { firstStreamBlocks, MARKET_SHOWS, RESTING_ORDER, runNode, type Running, substitute, untilUserShows } from '../spec/docs/readmeRun';
import { packInto } from './packedPackage';

/** A runtime as an npm package: its pinned spec, how it prints its own executable, how it runs a file. */
interface Runtime {
  readonly id: string;
  readonly pkg: string;
  readonly locate: readonly string[];
  readonly runFile: readonly string[];
}

/** Pinned: a new release is a reviewed change of this list (and of the README's "Supported runtimes"). */
const RUNTIMES: readonly Runtime[] = [
  { id: 'node22', pkg: 'node@22.23.3', locate: ['-p', 'process.execPath'], runFile: [] },
  { id: 'node24', pkg: 'node@24.21.0', locate: ['-p', 'process.execPath'], runFile: [] },
  { id: 'bun', pkg: 'bun@1.4.5', locate: ['-e', 'console.log(process.execPath)'], runFile: [] },
  { id: 'deno', pkg: 'deno@2.9.6', locate: ['eval', 'console.log(Deno.execPath())'], runFile: ['run', '-A'] },
];

const root = path.resolve(__dirname, '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

const fail = (message: string): never => {
  throw new Error(message);
};

/** The runtime's executable (fetched by npx into its cache) and the version it reports. */
const locate = (runtime: Runtime): { readonly exe: string; readonly version: string } => {
  const run = (args: readonly string[]): string =>
    execFileSync(npx, ['--yes', runtime.pkg, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 }).trim();
  const exe = run(runtime.locate).split('\n').pop() ?? '';
  if (!fs.existsSync(exe)) fail(`${runtime.pkg}: no executable at '${exe}'`);
  const version = execFileSync(exe, ['--version'], { encoding: 'utf8' }).trim().split('\n')[0] ?? '';
  return { exe, version };
};

/** Resolves with the exit (code or signal) of a process, at most `ms` after the call (then SIGKILL, and `'timeout'`). */
const exitOf = (p: Running, ms: number): Promise<number | NodeJS.Signals | null | 'timeout'> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => {
      p.child.kill('SIGKILL');
      resolve('timeout');
    }, ms);
    const done = (code: number | null, signal: NodeJS.Signals | null): void => {
      clearTimeout(timer);
      resolve(signal ?? code);
    };
    if (p.child.exitCode !== null || p.child.signalCode !== null) done(p.child.exitCode, p.child.signalCode);
    else p.child.once('exit', done);
  });

interface Outcome {
  readonly runtime: string;
  readonly step: string;
  readonly ok: boolean;
  readonly ms: number;
  readonly detail: string;
}

async function main(): Promise<void> {
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
  const runtimes = RUNTIMES.filter((r) => only === undefined || only.includes(r.id));
  const jestArg = process.argv.find((a) => a === '--jest' || a.startsWith('--jest='));
  const jestPaths = jestArg === undefined ? undefined : jestArg.slice('--jest='.length).split(',').filter((p) => p !== '');
  if (runtimes.length === 0) fail(`--only: none of ${RUNTIMES.map((r) => r.id).join(', ')}`);

  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  const work = fs.mkdtempSync(path.join(root, '.tmp', 'runtimes-'));
  // Deno's caches of its own, for this run: its code caches, kept by file path, ran an earlier build's dist/cjs (an
  // index.js requiring a chunk gone since) from a clone at the same path.
  process.env['DENO_DIR'] = path.join(work, 'deno-dir');
  const running: Running[] = [];
  const outcomes: Outcome[] = [];
  try {
    const packed = packInto(root, work);
    console.log(`packed: ${packed.filename} (${packed.unpackedSize} bytes unpacked)`);
    fs.copyFileSync(path.join(__dirname, 'runtimes', 'smoke.mjs'), path.join(work, 'smoke.mjs'));

    // One simulator (the installed command, on this Node) for the README's blocks of every runtime.
    const sim = runNode('ex-streams-simulator --json', [path.join(packed.dir, 'bin', 'ex-streams-simulator.js'), '--json'], { cwd: work });
    running.push(sim);
    await sim.shows([/^\{.*\}\n/], 15_000);
    const info = JSON.parse(sim.stdout()) as SimulatorCliInfo;
    const [market = '', user = ''] = firstStreamBlocks(fs.readFileSync(path.join(packed.dir, 'README.md'), 'utf8'));
    const at = { port: info.port, baseUrl: info.restClient.baseUrl };
    fs.writeFileSync(path.join(work, 'market.mjs'), substitute(market, at));
    fs.writeFileSync(path.join(work, 'user.mjs'), substitute(user, at));
    const rest = restClient(info.restClient);
    const place = () => firstValueFrom(rest.request({ method: 'POST', path: '/api/v1/spot/order', security: 'TRADE', body: RESTING_ORDER }));
    const credentials = { EX_STREAMS_API_KEY: info.restClient.apiKey, EX_STREAMS_SECRET_KEY: info.restClient.secretKey };

    for (const runtime of runtimes) {
      let name = runtime.pkg;
      const step = async (what: string, body: () => Promise<string>): Promise<void> => {
        const t0 = Date.now();
        const outcome = await body().then(
          (detail) => ({ ok: true, detail }),
          (e: unknown) => ({ ok: false, detail: e instanceof Error ? e.message : String(e) }),
        );
        outcomes.push({ runtime: name, step: what, ms: Date.now() - t0, ...outcome });
        const lines = outcome.detail.split('\n');
        console.log(`${outcome.ok ? 'ok' : 'FAILED'} ${name} ${what} (${Date.now() - t0} ms)${outcome.ok ? '' : `:\n  ${lines.join('\n  ')}`}`);
      };
      let command: [string, ...string[]] | undefined;
      await step('located', async () => {
        const { exe, version } = locate(runtime);
        command = [exe, ...runtime.runFile];
        name = `${runtime.id} ${version.replace(/^\D+/, '').split(' ')[0] ?? ''}`;
        return exe;
      });
      if (command === undefined) continue;
      const runtimeCommand = command;
      await step('smoke.mjs', async () => {
        const p = runNode(`${name} smoke.mjs`, ['smoke.mjs'], { cwd: work, runtime: runtimeCommand });
        running.push(p);
        const end = await exitOf(p, 60_000);
        const out = p.stdout().trimEnd();
        if (end !== 0 || !/^smoke: ok$/m.test(out)) fail(`exit ${String(end)}\n${out}\n${p.stderr()}`);
        return out;
      });
      await step('README market.mjs', async () => {
        const p = runNode(`${name} market.mjs`, ['market.mjs'], { cwd: work, runtime: runtimeCommand });
        running.push(p);
        await p.shows(MARKET_SHOWS, 15_000);
        const end = await p.stop();
        if (end !== 'SIGTERM' || p.stderr() !== '') fail(`ended ${String(end)}\n${p.stderr()}`);
        return '';
      });
      await step('README user.mjs', async () => {
        const p = runNode(`${name} user.mjs`, ['user.mjs'], { cwd: work, env: credentials, runtime: runtimeCommand });
        running.push(p);
        if (!(await untilUserShows(p, place))) fail(`no order event shown\n${p.stdout()}\n${p.stderr()}`);
        const end = await p.stop();
        if (end !== 'SIGTERM' || p.stderr() !== '') fail(`ended ${String(end)}\n${p.stderr()}`);
        return '';
      });
      if (jestPaths !== undefined && runtime.id.startsWith('node')) {
        await step(`jest ${jestPaths.join(' ') || '(npm test)'}`, async () => {
          const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
          const p = runNode(`${name} jest`, ['--max-old-space-size=384', jest, '--maxWorkers=2', ...jestPaths], { cwd: root, runtime: runtimeCommand });
          running.push(p);
          const end = await exitOf(p, 600_000);
          const summary = p.stderr().split('\n').filter((l) => /^(Tests|Test Suites):/.test(l)).join('\n');
          if (end !== 0) fail(`exit ${String(end)}\n${p.stderr().split('\n').filter((l) => /^(FAIL|  ●)/.test(l)).join('\n')}\n${summary}`);
          return summary;
        });
      }
    }
    await sim.stop();
  } finally {
    for (const p of running) if (!p.exited()) p.child.kill('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  }

  console.log('\nruntime          step                 result   ms');
  for (const o of outcomes) console.log(`${o.runtime.padEnd(16)} ${o.step.padEnd(20)} ${(o.ok ? 'ok' : 'FAILED').padEnd(8)} ${o.ms}`);
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length > 0) fail(`${failed.length} failed: ${failed.map((o) => `${o.runtime} ${o.step}`).join(', ')}`);
}

main().then(
  () => console.log('check-runtimes: ok'),
  (e: unknown) => {
    console.error(`check-runtimes: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
