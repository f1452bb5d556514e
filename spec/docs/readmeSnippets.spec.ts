/**
 * The README's two "A first stream" blocks RUN as written against the simulator, each in its own Node process
 * (ts-node, transpile only), and show data within seconds. The only changes are the textual ones of
 * spec/docs/readmeRun.ts: the example hosts become the simulator's, the credentials come from the environment
 * the block reads, and `'ex-streams'` points at lib/index.ts (the tests run before the build;
 * scripts/check-packed-readme.ts runs the same blocks as `.mjs` against the packed package in CI).
 * Each process is stopped with SIGTERM once the data was seen, then the simulator is closed.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { firstValueFrom } from 'rxjs';
import { restClient } from '../../lib/rest/restClient';
import { startSimulator, type Simulator } from '../../lib/simulator/index';
import { firstStreamBlocks, MARKET_SHOWS, RESTING_ORDER, runNode, type Running, substitute, untilUserShows } from './readmeRun';

const root = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const LIB = path.join(root, 'lib', 'index');

const dirs: string[] = [];
const running: Running[] = [];

/** Writes the block to a temporary `.ts` file and runs it under ts-node, without the repository's tsconfig. */
const run = (name: string, code: string, env: NodeJS.ProcessEnv = {}): Running => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-'));
  dirs.push(dir);
  const file = path.join(dir, `${name}.ts`);
  fs.writeFileSync(file, code);
  const p = runNode(name, ['-r', 'ts-node/register/transpile-only', file], {
    cwd: root,
    env: {
      ...env,
      TS_NODE_SKIP_PROJECT: 'true',
      TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'CommonJS', moduleResolution: 'node', target: 'ES2022', esModuleInterop: true }),
    },
  });
  running.push(p);
  return p;
};

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ symbols: ['BTCUSDT', 'ETHUSDT'] });
});
afterAll(async () => {
  for (const p of running) if (!p.exited()) p.child.kill('SIGKILL');
  await sim.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the README's first streams run as written against the simulator", () => {
  const [market = '', user = ''] = firstStreamBlocks(README);

  test('the section has the two blocks: the market one and the private one, with the paths the library expects', () => {
    expect(firstStreamBlocks(README)).toHaveLength(2);
    expect(market).toMatch(/marketStreams\(\{ url: 'wss:\/\/stream\.example\.com\/quote\/ws\/v1' \}\)/);
    expect(user).toMatch(/userStream\(\{ url: 'wss:\/\/stream\.example\.com\/api\/v1\/ws', rest \}\)/);
  });

  test('market: books, trades and the open connection within seconds; SIGTERM ends it', async () => {
    const p = run('market', substitute(market, sim, LIB));
    await p.shows(MARKET_SHOWS, 15_000);
    expect(await p.stop()).toBe('SIGTERM');
    expect(p.stderr()).toBe('');
  }, 25_000);

  test('private: with the simulator credentials in the environment, an order shows in orders$ and executionReports$', async () => {
    const p = run('user', substitute(user, sim, LIB), { EX_STREAMS_API_KEY: sim.apiKey, EX_STREAMS_SECRET_KEY: sim.secretKey });
    const rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
    const place = () => firstValueFrom(rest.request({ method: 'POST', path: '/api/v1/spot/order', security: 'TRADE', body: RESTING_ORDER }));
    expect(await untilUserShows(p, place)).toBe(true);
    expect(await p.stop()).toBe('SIGTERM');
    expect(p.stderr()).toBe('');
  }, 30_000);
});

describe('substitute', () => {
  const s = { port: 1234, baseUrl: 'http://127.0.0.1:1234' };

  test('replaces the example hosts (and, when asked, the module name)', () => {
    const code = "import { x } from 'ex-streams';\nx({ url: 'wss://stream.example.com/api/v1/ws', baseUrl: 'https://api.example.com' });";
    const hosts = "x({ url: 'ws://127.0.0.1:1234/api/v1/ws', baseUrl: 'http://127.0.0.1:1234' });";
    expect(substitute(code, s)).toBe(`import { x } from 'ex-streams';\n${hosts}`);
    expect(substitute(code, s, '/lib/index')).toBe(`import { x } from "/lib/index";\n${hosts}`);
  });

  test('refuses a block with nothing to replace or another example host left', () => {
    expect(() => substitute("x({ url: 'wss://other.example.com/quote/ws/v1' });", s)).toThrow(/substitution incomplete/);
    expect(() => substitute("x('wss://stream.example.com', 'https://rest.example.com');", s)).toThrow(/substitution incomplete/);
  });
});
