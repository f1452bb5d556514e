/**
 * The README's two "A first stream" blocks RUN as written against the simulator, each in its own Node process,
 * and show data within seconds.
 *
 * The only changes made to a block, all textual, are the ones the README tells its reader to make:
 * - the example hosts become the simulator's: `wss://stream.example.com` → `ws://127.0.0.1:PORT`,
 *   `https://api.example.com` → `http://127.0.0.1:PORT` (the paths stay as the README wrote them);
 * - the credentials come from the environment the block reads (`EX_STREAMS_API_KEY`, `EX_STREAMS_SECRET_KEY`);
 * - the module name `'ex-streams'` becomes the path of lib/index.ts (the tests run before the build; the
 *   packed build is what CI's own checks load).
 * The process runs under ts-node (transpile only). It is stopped with SIGTERM once the data was seen, then the
 * simulator is closed: nothing outlives the test.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { firstValueFrom } from 'rxjs';
import { restClient } from '../../lib/rest/restClient';
import { startSimulator, type Simulator } from '../../lib/simulator/index';
import { tsBlocks } from './markdownBlocks';

const root = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

/** The ts blocks of the README section `### A first stream` (up to the next `##` heading). */
const firstStreamBlocks = (): string[] => {
  const start = README.search(/^#{2,3} A first stream\s*$/m);
  if (start < 0) throw new Error("README.md has no 'A first stream' section");
  const body = README.indexOf('\n', start) + 1;
  const next = README.slice(body).search(/^## /m);
  const section = README.slice(start, next < 0 ? undefined : body + next);
  return tsBlocks('README.md', section).map((b) => b.code);
};

/** The substitution described above; it must actually replace something and leave no example host behind. */
export const substitute = (code: string, sim: Pick<Simulator, 'baseUrl' | 'port'>): string => {
  const out = code
    .split('wss://stream.example.com')
    .join(`ws://127.0.0.1:${sim.port}`)
    .split('https://api.example.com')
    .join(sim.baseUrl)
    .replace(/(from\s+)(['"])ex-streams\2/g, (_m, from: string) => `${from}${JSON.stringify(path.join(root, 'lib', 'index'))}`);
  if (out === code || /example\.com|['"]ex-streams['"]/.test(out)) throw new Error(`substitution incomplete:\n${out}`);
  return out;
};

interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches every pattern; rejects if the process exits first or after `ms`. */
  shows(patterns: readonly RegExp[], ms: number): Promise<void>;
  /** SIGTERM, then the exit. */
  stop(): Promise<NodeJS.Signals | number | null>;
}

const dirs: string[] = [];
const children = new Set<ChildProcessWithoutNullStreams>();

const run = (name: string, code: string, env: NodeJS.ProcessEnv): Running => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-'));
  dirs.push(dir);
  const file = path.join(dir, `${name}.ts`);
  fs.writeFileSync(file, code);
  const base = { ...process.env };
  for (const key of Object.keys(base)) if (key.startsWith('EX_STREAMS_') || key.startsWith('TS_NODE_')) delete base[key];
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', file], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...base,
      ...env,
      TS_NODE_SKIP_PROJECT: 'true',
      TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'CommonJS', moduleResolution: 'node', target: 'ES2022', esModuleInterop: true }),
    },
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  let exited: NodeJS.Signals | number | null | undefined;
  const exit = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (c, signal) => {
      children.delete(child);
      exited = signal ?? c;
      resolve(exited);
    }),
  );
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    for (const w of [...waiters]) w();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    shows: (patterns, ms) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (patterns.every((p) => p.test(stdout))) done(() => resolve());
        };
        const timer = setTimeout(() => done(() => reject(new Error(`${name}: no ${patterns.join(' ')} within ${ms} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`))), ms);
        const onExit = (): void => done(() => reject(new Error(`${name} exited (${String(exited)})\nstdout:\n${stdout}\nstderr:\n${stderr}`)));
        const done = (then: () => void): void => {
          clearTimeout(timer);
          waiters.delete(check);
          child.off('exit', onExit);
          then();
        };
        waiters.add(check);
        child.on('exit', onExit);
        check();
      }),
    stop: () => {
      if (exited === undefined) child.kill('SIGTERM');
      return exit;
    },
  };
};

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ symbols: ['BTCUSDT', 'ETHUSDT'] });
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await sim.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the README's first streams run as written against the simulator", () => {
  const [market = '', user = ''] = firstStreamBlocks();

  test('the section has the two blocks: the market one and the private one', () => {
    expect(firstStreamBlocks()).toHaveLength(2);
    expect(market).toMatch(/marketStreams\(\{ url: 'wss:\/\/stream\.example\.com\/quote\/ws\/v1' \}\)/);
    expect(user).toMatch(/userStream\(\{ url: 'wss:\/\/stream\.example\.com\/api\/v1\/ws', rest \}\)/);
  });

  test('market: books, trades and the open connection within seconds; SIGTERM ends it', async () => {
    const p = run('market', substitute(market, sim), {});
    await p.shows([/^bid \d[\d.]* ask \d[\d.]* spread \d[\d.]*$/m, /^trade \d+ \d[\d.]* \d[\d.]*$/m, /^connection open epoch 1$/m], 15_000);
    expect(await p.stop()).toBe('SIGTERM');
    expect(p.stderr()).toBe('');
  }, 25_000);

  test('private: with the simulator credentials in the environment, an order shows in orders$ and executionReports$', async () => {
    const p = run('user', substitute(user, sim), { EX_STREAMS_API_KEY: sim.apiKey, EX_STREAMS_SECRET_KEY: sim.secretKey });
    const rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
    const events = [/^\d+ orders known$/m, /^\d+ (NEW|PARTIALLY_FILLED|FILLED) \d[\d.]* \/ \d[\d.]*$/m];
    // An order placed before the process has its listen key and socket is not streamed to it: place one each
    // half second (each awaited) until the process shows one, at most for 15 s.
    let shown = false;
    for (let attempt = 0; attempt < 30 && !shown; attempt += 1) {
      await firstValueFrom(
        rest.request({
          method: 'POST',
          path: '/api/v1/spot/order',
          security: 'TRADE',
          body: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '1000' },
        }),
      );
      shown = await p.shows(events, 500).then(
        () => true,
        (e: unknown) => {
          if (p.child.exitCode !== null || p.child.signalCode !== null) throw e;
          return false;
        },
      );
    }
    expect(shown).toBe(true);
    expect(await p.stop()).toBe('SIGTERM');
    expect(p.stderr()).toBe('');
  }, 30_000);
});

describe('substitute', () => {
  test('replaces the example hosts and the module name, and refuses a block with nothing to replace', () => {
    const s = { port: 1234, baseUrl: 'http://127.0.0.1:1234' };
    expect(substitute("import { x } from 'ex-streams';\nx({ url: 'wss://stream.example.com/api/v1/ws', baseUrl: 'https://api.example.com' });", s)).toBe(
      `import { x } from ${JSON.stringify(path.join(root, 'lib', 'index'))};\nx({ url: 'ws://127.0.0.1:1234/api/v1/ws', baseUrl: 'http://127.0.0.1:1234' });`,
    );
    expect(() => substitute("x({ url: 'wss://other.example.com/quote/ws/v1' });", s)).toThrow(/substitution incomplete/);
  });
});
