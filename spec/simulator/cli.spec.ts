import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { filter, firstValueFrom, take, toArray, type Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { marketStreams } from '../../lib/market/marketStreams';
import { restClient } from '../../lib/rest/restClient';
import type { SimulatorCliInfo } from '../../lib/simulator';
import { userStream } from '../../lib/user/userStream';

const BIN = path.join(__dirname, '..', '..', 'bin', 'ex-streams-simulator.js');
const WS = WebSocket as unknown as WebSocketCtor;
const GUIDE = readFileSync(path.join(__dirname, '..', '..', 'docs', 'simulator.md'), 'utf8');

/** The ```text block of docs/simulator.md that follows `after`. */
const guideBlock = (after: string): string => {
  const start = GUIDE.indexOf('```text\n', GUIDE.indexOf(after)) + '```text\n'.length;
  return GUIDE.slice(start, GUIDE.indexOf('```\n', start));
};

/** Every option the CLI takes, as `--help` must list them. */
const OPTIONS = [
  '--port',
  '--host',
  '--symbols',
  '--seed',
  '--api-key',
  '--secret-key',
  '--api-key-header',
  '--control-token',
  '--two-factor',
  '--batch-private-events',
  '--recording',
  '--recording-speed',
  '--json',
];

const children: ChildProcessWithoutNullStreams[] = [];

function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  const environment = { ...process.env, ...env };
  if (!('EX_STREAMS_SIM_CONTROL_TOKEN' in env)) delete environment.EX_STREAMS_SIM_CONTROL_TOKEN;
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: environment });
  children.push(child);
  return child;
}

interface Exited {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI to its end (help, bad options, start failures). */
function runToExit(args: readonly string[]): Promise<Exited> {
  const child = spawnCli(args);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  /** stdout so far. */
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** SIGTERM, resolves the exit code. */
  readonly stop: () => Promise<number | null>;
}

/** Starts the CLI and waits until stdout holds `ready` (the end of its start output). */
async function startCli(args: readonly string[], ready: RegExp, env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (ready.test(stdout)) resolve();
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('ex-streams-simulator (CLI)', () => {
  const subs: Subscription[] = [];
  afterEach(() => subs.splice(0).forEach((s) => s.unsubscribe()));

  it('--json prints one object whose urls and credentials work as they are with marketStreams, restClient and userStream (no 4001)', async () => {
    const cli = await startCli(['--json', '--port', '0', '--symbols', 'BTCUSDT', '--seed', '4', '--api-key-header', 'X-SIM-KEY'], /\n/);
    const lines = cli.stdout().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    const info = JSON.parse(lines[0]!) as SimulatorCliInfo;
    const port = info.port;
    expect(port).toBeGreaterThan(0);
    expect(info).toEqual({
      marketStreams: { url: `ws://127.0.0.1:${port}/quote/ws/v1` },
      marketStreamsV2: { url: `ws://127.0.0.1:${port}/quote/ws/v2` },
      userStream: { url: `ws://127.0.0.1:${port}/api/v1/ws` },
      restClient: {
        baseUrl: `http://127.0.0.1:${port}`,
        apiKey: expect.stringMatching(/^sim[A-Za-z0-9]{61}$/),
        secretKey: expect.stringMatching(/^[A-Za-z0-9]{64}$/),
        apiKeyHeader: 'X-SIM-KEY',
      },
      control: { url: `http://127.0.0.1:${port}/__control`, token: null },
      host: '127.0.0.1',
      port,
      symbols: ['BTCUSDT'],
      seed: 4,
      twoFactor: false,
      batchPrivateEvents: false,
      pid: cli.child.pid,
    });

    // Public: the printed url as is.
    const market = marketStreams({ ...info.marketStreams, WebSocketCtor: WS });
    const trades = await firstValueFrom(market.trades('BTCUSDT').pipe(take(2), toArray()));
    expect(trades[0]!.p).toMatch(/^\d+(\.\d+)?$/);
    // The V2 stream: the printed url as is (its own dialect, its bbo topic).
    const top = await firstValueFrom(marketStreams({ ...info.marketStreamsV2, WebSocketCtor: WS }).bbo('BTCUSDT'));
    expect(top).toMatchObject({ s: 'BTCUSDT', b: expect.stringMatching(/^\d+(\.\d+)?$/) });

    // The simulator requires the header name given: the default one is refused.
    const rest = restClient(info.restClient);
    await expect(firstValueFrom(restClient({ ...info.restClient, apiKeyHeader: 'X-EX-APIKEY' }).account())).rejects.toMatchObject({
      name: 'RequestRejectedError',
      status: 401,
      code: -1002,
    });
    expect((await firstValueFrom(rest.account())).balances.length).toBeGreaterThan(0);

    // Private: the printed url as is; one listen key, first socket opens (no 4001 loop) and carries events.
    const user = userStream({ ...info.userStream, rest, WebSocketCtor: WS, reorder: { maxDelayMs: 20 } });
    const statuses: ConnectionStatus[] = [];
    // status$ only observes: events$ runs the stream (and keeps it open after the first report)
    subs.push(user.status$.subscribe((s) => statuses.push(s.connection)), user.events$.subscribe());
    const report = firstValueFrom(user.executionReports$);
    await firstValueFrom(user.status$.pipe(filter((s) => s.connection.type === 'open')));
    await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '1000000' }));
    expect((await report).X).toBe('PENDING_NEW'); // the venue's first report of a placement (before NEW)
    // after the replayed `closed` of the stream not yet started: nothing lost
    expect(statuses.slice(1).filter((s) => s.type === 'reconnecting' || s.type === 'closed')).toEqual([]);
    subs.splice(0).forEach((s) => s.unsubscribe());

    expect(await cli.stop()).toBe(0);
    expect(cli.stdout()).toBe(`${lines[0]}\n`); // nothing else on stdout, also at stop
    expect(cli.stderr()).toBe('');
  });

  it('prints the three calls to paste with the exact urls (as docs/simulator.md shows), and stops on SIGTERM with code 0', async () => {
    const cli = await startCli(['--port', '0'], /guide: .*\n/);
    const out = cli.stdout();
    const port = /listening on 127\.0\.0\.1:(\d+)/.exec(out)?.[1];
    expect(port).toMatch(/^\d+$/);
    expect(out).toContain(`const market = marketStreams({ url: 'ws://127.0.0.1:${port}/quote/ws/v1' });`);
    expect(out).toContain(`marketStreams({ url: 'ws://127.0.0.1:${port}/quote/ws/v2' })`);
    expect(out).toContain(`const user = userStream({ url: 'ws://127.0.0.1:${port}/api/v1/ws', rest });`);
    expect(out).toContain(`  baseUrl: 'http://127.0.0.1:${port}',`);
    expect(out).toMatch(/ {2}apiKey: 'sim[A-Za-z0-9]{61}',/);
    expect(out).toMatch(/ {2}secretKey: '[A-Za-z0-9]{64}',/);
    expect(out).toContain(`  apiKeyHeader: 'X-EX-APIKEY',`);
    expect(out).not.toContain('{listenKey}/');
    expect(out).not.toMatch(/api\/v1\/ws\/\{listenKey\}/);
    expect(out).toMatch(/control token: none/);
    const asDocumented = out.split(`:${port}`).join(':8080').replace(/^guide: .*$/m, 'guide: /path/to/node_modules/ex-streams/docs/simulator.md');
    expect(asDocumented).toBe(guideBlock('Real output of `npx ex-streams-simulator --port 8080`'));
    const r = await fetch(`http://127.0.0.1:${port}/api/v1/time`);
    expect(((await r.json()) as { serverTime: number }).serverTime).toEqual(expect.any(Number));
    expect(await cli.stop()).toBe(0);
  });

  it('beyond loopback prints the control token it requires (from EX_STREAMS_SIM_CONTROL_TOKEN when set)', async () => {
    const cli = await startCli(['--json', '--port', '0', '--host', '0.0.0.0', '--symbols', 'BTCUSDT'], /\n/, {
      EX_STREAMS_SIM_CONTROL_TOKEN: 'cli-token-1',
    });
    const info = JSON.parse(cli.stdout()) as SimulatorCliInfo;
    expect(info.control).toEqual({ url: `http://0.0.0.0:${info.port}/__control`, token: 'cli-token-1' });
    const post = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${info.port}/__control/step`, { method: 'POST', body: '{}', headers });
    expect((await post({})).status).toBe(401);
    expect((await post({ Authorization: 'Bearer cli-token-1' })).status).toBe(200);
    expect(await cli.stop()).toBe(0);
  });

  it('--help lists every option with its default, the environment variable and the exit codes', async () => {
    const { code, stdout, stderr } = await runToExit(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const lines = stdout.split('\n');
    for (const option of OPTIONS) {
      const line = lines.find((l) => l.trimStart().startsWith(`${option} `));
      expect({ option, line }).toEqual({ option, line: expect.stringMatching(/\(default: [^)]+\)$/) });
    }
    expect(stdout).toMatch(/^ {2}-h, --help /m);
    expect(stdout).toMatch(/EX_STREAMS_SIM_CONTROL_TOKEN/);
    expect(stdout).toMatch(/Exit codes: 0 .*, 1 .*, 2 bad option/);
    expect((await runToExit(['-h'])).stdout).toBe(stdout);
    expect(guideBlock('`npx ex-streams-simulator --help`')).toBe(stdout);
  });

  // Each rule of the parser is checked in-process by cliArgs.spec.ts; here, what a usage error does to the process.
  it.each([
    [['--port', 'abc'], "--port must be an integer 0-65535, got 'abc'"],
    [['--frobnicate'], "unknown option '--frobnicate'"],
  ])('%j → exit 2 with one clear line on stderr, nothing on stdout', async (args, message) => {
    const { code, stdout, stderr } = await runToExit(args);
    expect({ code, stdout, first: stderr.split('\n')[0] }).toEqual({ code: 2, stdout: '', first: `ex-streams-simulator: ${message}` });
    expect(stderr).toMatch(/\nRun ex-streams-simulator --help for the options and their defaults\.\n$/);
    expect(stderr).not.toMatch(/node:internal|\bat .*\.js:\d+/);
  });

  it('--recording DIR serves the recorded pairs from the recording (the trades as recorded); a missing one → exit 1', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'xs-sim-rec-'));
    try {
      const t0 = Date.UTC(2024, 5, 1, 10, 0, 0);
      const data = (t: number, topic: string, records: object[]): string =>
        JSON.stringify({ t, k: 'f', d: JSON.stringify({ symbol: 'BTCUSDT', topic, params: {}, data: records, f: true, sendTime: t }) });
      const lines = [
        JSON.stringify({ t: t0, k: 'start', v: 1, stream: 'public', symbols: ['BTCUSDT'], topics: ['trade', 'depth'] }),
        JSON.stringify({ t: t0, k: 'open', epoch: 1 }),
        data(t0 + 5, 'depth', [{ e: 301, s: 'BTCUSDT', t: t0 + 4, v: '1_301', o: 0, b: [['29990.25', '1.5']], a: [['30010.5', '0.4']] }]),
        data(t0 + 10, 'trade', [{ v: '7001', t: t0 + 9, p: '30000.125', q: '0.0125', m: true }]),
        JSON.stringify({ t: t0 + 60_000, k: 'close', code: 1000, clean: true }),
      ];
      writeFileSync(path.join(dir, 'market-20240601T100000Z-0001.jsonl.gz'), gzipSync(`${lines.join('\n')}\n`));
      const cli = await startCli(['--json', '--port', '0', '--recording', dir, '--recording-speed', '1'], /\n/);
      const info = JSON.parse(cli.stdout()) as SimulatorCliInfo;
      expect(info.symbols).toEqual(['BTCUSDT']);
      const market = marketStreams({ ...info.marketStreams, WebSocketCtor: WS });
      const trade = await firstValueFrom(market.trades('BTCUSDT'));
      expect({ v: trade.v, p: trade.p, q: trade.q }).toEqual({ v: '7001', p: '30000.125', q: '0.0125' });
      expect(await cli.stop()).toBe(0);
      expect(cli.stderr()).toBe('');

      const missing = await runToExit(['--recording', path.join(dir, 'nowhere')]);
      expect({ code: missing.code, stdout: missing.stdout }).toEqual({ code: 1, stdout: '' });
      expect(missing.stderr).toMatch(/^ex-streams-simulator: cannot read the recording at .*nowhere: /);
      expect(missing.stderr).not.toMatch(/\bat .*\.js:\d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a port in use → exit 1 with what to do, no stack', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const { code, stdout, stderr } = await runToExit(['--port', String(port)]);
      expect({ code, stdout, stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: `ex-streams-simulator: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE); choose another --port, or --port 0 for a free one\n`,
      });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
