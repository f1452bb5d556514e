import { type ChildProcess, spawn } from 'child_process';
import * as path from 'path';
import { startSimulator } from '../../lib/simulator/index';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join('docs', 'examples', 'demo', 'main.ts');

interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

const children = new Set<ChildProcess>();

/** Runs the demo as `npm start` would (ts-node, transpile only), with stdout a pipe (plain mode). */
function runDemo(args: readonly string[], onStdout?: (text: string, child: ChildProcess) => void): Promise<Outcome> {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('EX_STREAMS_')) delete env[name];
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', MAIN, ...args], { cwd: ROOT, env, stdio: 'pipe' });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    onStdout?.(stdout, child);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts `runDemo` and sends SIGINT once both streams are open. */
function interruptedRun(): Promise<Outcome & { readonly interrupted: boolean }> {
  let interrupted = false;
  return runDemo(['--duration', '0'], (out, child) => {
    if (!interrupted && /private stream: open/.test(out) && /public stream: open/.test(out)) {
      interrupted = true;
      child.kill('SIGINT');
    }
  }).then((outcome) => ({ ...outcome, interrupted }));
}

// The three runs start together (each pays ts-node's start-up once, in parallel): ~10 s in all.
let run: Outcome;
let interrupted: Outcome & { readonly interrupted: boolean };
let help: Outcome;
beforeAll(async () => {
  [run, interrupted, help] = await Promise.all([runDemo(['--duration', '6']), interruptedRun(), runDemo(['--help'])]);
}, 45_000);

describe('demo (npm start)', () => {
  it('exits by itself with code 0 after closing everything', () => {
    expect(run.stderr).toBe('');
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/stopping \(time is up\): every stream unsubscribed/);
    expect(run.stdout).toMatch(/listen key \S{4}… closed \(DELETE\)/);
    expect(run.stdout.trimEnd()).toMatch(/simulator closed; bye$/);
  });

  it('prints plain timestamped lines (no ANSI) when stdout is not a terminal', () => {
    expect(run.stdout).not.toContain('\x1b[');
    for (const line of run.stdout.trimEnd().split('\n')) expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} {2}\S/);
  });

  it('shows the books (best bid / ask, spread, mid), trades, 1m candle and 24h ticker of both symbols', () => {
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      expect(run.stdout).toMatch(new RegExp(`${symbol} book bid \\d+\\.\\d+ × [\\d.]+ {2}ask \\d+\\.\\d+ × [\\d.]+ {2}spread [\\d.]+ {2}mid [\\d.]+`));
      expect(run.stdout).toMatch(new RegExp(`${symbol} book .*last trades \\(\\d+ seen\\): (buy|sell) \\d+\\.\\d+ × [\\d.]+`));
      expect(run.stdout).toMatch(new RegExp(`${symbol} candle 1m \\d\\d:\\d\\d {2}O [\\d.]+ {2}H [\\d.]+ {2}L [\\d.]+ {2}C [\\d.]+ {2}V [\\d.]+`));
      expect(run.stdout).toMatch(new RegExp(`${symbol} .*ticker 24h {2}last [\\d.]+ {2}high [\\d.]+ {2}low [\\d.]+`));
    }
    expect(run.stdout).toMatch(/status: public open e1 · \d+ msg\/s · topics 8 · trade gaps 0 · errors 0/);
  });

  it('shows the private side: listen key (redacted), orders resting, filling and cancelled, live balances', () => {
    expect(run.stdout).toMatch(/listen key \S{4}… obtained/);
    expect(run.stdout).toMatch(/private stream: open \(epoch 1\)/);
    // The simulator reports as the venue: PENDING_NEW before NEW, PENDING_CANCEL before CANCELED. orders$ folds the
    // REST answers too, so a PENDING_ status the answer overtook is not shown (a status never goes back).
    expect(run.stdout).toMatch(/final order \S+ \(rests\) BUY [\d.]+ BTCUSDT @ [\d.]+: (PENDING_NEW → )?NEW, filled 0\//);
    expect(run.stdout).toMatch(/final order \S+ \(fills\) BUY [\d.]+ ETHUSDT @ [\d.]+: (PENDING_NEW → )?NEW (→ PARTIALLY_FILLED )?→ FILLED, filled 2\.5\/2\.5 avg/);
    expect(run.stdout).toMatch(/final order \S+ \(cancelled\) BUY [\d.]+ BTCUSDT @ [\d.]+: (PENDING_NEW → )?NEW (→ PENDING_CANCEL )?→ CANCELED/);
    expect(run.stdout).toMatch(/balances \(live\): USDT free [\d.]+ locked [\d.]+/);
    expect(run.stdout).toMatch(/balances \(live\): .*ETH free 102\.5 locked 0/);
  });

  it('waits for the self-healing state: orders and balances seeded from REST (authoritative) before any order', () => {
    const seeded = run.stdout.indexOf('orders: seeded (epoch 1) from REST, authoritative');
    expect(seeded).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/balances: seeded \(epoch 1\) from REST, authoritative/);
    expect(run.stdout).toMatch(/balances \(REST snapshot, epoch 1\): BTC free 10 locked 0, ETH free 100 locked 0, USDT free 100000 locked 0/);
    expect(run.stdout.indexOf('placeOrder: ')).toBeGreaterThan(seeded);
  });

  it('places through the order loop (user.placeOrder / user.cancelOrder) and shows how long after its event time each fill reached orders$', () => {
    const out = run.stdout;
    // the first state: the stream's PENDING_NEW, or the answer's NEW when it came first
    for (const role of ['rests', 'cancelled', 'fills']) expect(out).toMatch(new RegExp(`placeOrder: order \\S+ \\(${role}\\) answered: (PENDING_NEW|NEW) 0/`));
    expect(out).toMatch(/placeOrder: order \S+ \(fills\) final: FILLED 2\.5\/2\.5, completed/);
    expect(out).toMatch(/cancelOrder: order \S+ \(cancelled\) final: CANCELED 0\//);
    expect(out).toMatch(/placeOrder: order \S+ \(cancelled\) final: CANCELED 0\/[\d.]+, completed/);
    // every fill of the filling order: the service clock (local + REST offset, within its error) minus the report's E
    const fills = [...out.matchAll(/\(fills\) BUY [\d.]+ ETHUSDT @ [\d.]+: .*filled ([\d.]+)\/2\.5 avg [\d.]+; fill on orders\$ (\d+)(?:-(\d+))? ms after its event time \(service clock ±[\d.]+ ms\)/g)];
    expect(fills.length).toBeGreaterThan(0);
    expect(fills.at(-1)?.[1]).toBe('2.5');
    for (const [, , low] of fills) expect(Number(low)).toBeLessThan(250); // on arrival: never the reorder hold
    // the demo's prices are fitted to the tick by fitPrice (canonical text), no float's toFixed
    expect(out).toMatch(/placeOrder: BUY [\d.]+ BTCUSDT @ \d+(\.\d?[1-9])? \(1% under the best bid/);
  });

  it('shows the forced disconnect: reconnects on epoch 2, resubscription, trade and user-stream gaps, the resync', () => {
    const out = run.stdout;
    const drop = out.indexOf('simulator: dropping every socket now');
    expect(drop).toBeGreaterThan(0);
    const after = out.slice(drop);
    expect(after).toMatch(/public stream: lost \(ConnectionClosedError: connection closed \(code 1006\)\); reconnecting in \d+ ms/);
    // how long each socket was down: from its status leaving open (the "lost" line) to its next open (the
    // "reconnected" line), as their timestamps tell, not from the last message it received
    const clock = (hms: string): number => {
      const [h, m, sec] = hms.split(':').map(Number) as [number, number, number];
      return (h * 3600 + m * 60 + sec) * 1000;
    };
    for (const stream of ['public', 'private']) {
      const lost = new RegExp(`(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) {2}${stream} stream: lost \\(`).exec(after);
      const back = new RegExp(`(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) {2}${stream} stream: reconnected: open \\(epoch 2\\) after (\\d+\\.\\d\\d) s down`).exec(after);
      expect([stream, lost?.[1] !== undefined, back?.[1] !== undefined]).toEqual([stream, true, true]);
      const shownMs = Number(back![2]) * 1000;
      expect(Math.abs(shownMs - (clock(back![1]!) - clock(lost![1]!)))).toBeLessThanOrEqual(10); // rounding to 0.01 s
    }
    expect(after).toMatch(/public stream: resubscribed all 8 topics on epoch 2/);
    expect(after).toMatch(/TRADE GAP (BTCUSDT|ETHUSDT) \(epoch 2\): trades after #\d+ up to #\d+ may be missing/);
    expect(after).toMatch(/USER STREAM GAP \(epoch 2\): events between \d\d:\d\d:\d\d\.\d{3} and \d\d:\d\d:\d\d\.\d{3} \(\d+\.\d\d s\) may be lost/);
    // the state is not authoritative from the loss to the resync after the reconnection
    const lost = after.indexOf('orders: not authoritative (private socket lost');
    const resynced = after.indexOf('orders: resynced after epoch 2 from REST, authoritative');
    expect(lost).toBeGreaterThan(0);
    expect(resynced).toBeGreaterThan(lost);
    expect(after).toMatch(/balances: resynced after epoch 2 from REST, authoritative/);
    expect(after).toMatch(/status: public open e2 .* errors 1 {2}\| {2}private open e2 .* orders\/balances: resynced after epoch 2 · errors 1/);
    // the cancel sent while the sockets were down shows (by its push, or by the resync when the push was lost)
    expect(after).toMatch(/order \S+ \(cancelled\) BUY [\d.]+ BTCUSDT @ [\d.]+: (PENDING_NEW → )?NEW (→ PENDING_CANCEL )?→ CANCELED/);
  });

  it('never prints the secret key, the whole listen key or a signature', async () => {
    // The demo's simulator uses the default seed; an identical one tells which secret and listen key it had.
    const twin = await startSimulator({ symbols: ['BTCUSDT', 'ETHUSDT'] });
    try {
      expect(run.stdout).not.toContain(twin.secretKey);
      const prefix = /listen key (\S{4})…/.exec(run.stdout)?.[1] ?? '';
      expect(prefix).not.toBe('');
      expect(run.stdout).not.toMatch(new RegExp(`${prefix}[A-Za-z0-9]`));
      expect(run.stdout).not.toMatch(/signature/i);
    } finally {
      await twin.close();
    }
  });
});

describe('demo (npm start) on Ctrl-C', () => {
  it('tears everything down and exits 0 on SIGINT', () => {
    expect(interrupted.interrupted).toBe(true);
    expect(interrupted.stderr).toBe('');
    expect(interrupted.code).toBe(0);
    expect(interrupted.stdout).toMatch(/stopping \(Ctrl-C\): every stream unsubscribed/);
    expect(interrupted.stdout).toMatch(/listen key \S{4}… closed \(DELETE\)/);
    expect(interrupted.stdout.trimEnd()).toMatch(/simulator closed; bye$/);
  });
});

describe('demo --help', () => {
  it('prints the usage and exits 0', () => {
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm start -- \[options\]/);
    expect(help.stdout).toContain('EX_STREAMS_SECRET_KEY');
  });
});
