import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { filter, firstValueFrom, type Observable, Subscription, take, timeout, toArray } from 'rxjs';
import { WebSocket } from 'ws';
import { HeartbeatTimeoutError } from '../../lib/errors';
import { type Connection, connection } from '../../lib/socket/connection';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';

/**
 * A `ws` server in a child process (so that blocking this process's event loop does not block it): it answers
 * every `{ ping }` with a public pong `{ pong: serverTime }`, sends `{ n }` every `dataEveryMs` (argument; 0: none),
 * and goes silent for good (the socket stays open) on `mute` on its stdin. It prints `{ port }`, then `{ muted }`.
 */
const SERVER = `
const { WebSocketServer } = require('ws');
const dataEveryMs = Number(process.argv[1]) || 0;
let muted = false;
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
wss.on('listening', () => process.stdout.write(JSON.stringify({ port: wss.address().port }) + '\\n'));
wss.on('connection', (ws) => {
  ws.on('error', () => undefined);
  ws.on('message', (data) => {
    if (muted) return;
    try { if (JSON.parse(String(data)).ping !== undefined) ws.send(JSON.stringify({ pong: Date.now() })); } catch {}
  });
  let n = 0;
  const data = dataEveryMs > 0 ? setInterval(() => { if (!muted) ws.send(JSON.stringify({ n: ++n })); }, dataEveryMs) : undefined;
  ws.on('close', () => clearInterval(data));
});
process.stdin.on('data', (d) => { if (String(d).includes('mute')) { muted = true; process.stdout.write('{"muted":true}\\n'); } });
process.stdin.on('end', () => process.exit(0));
`;

interface ChildServer {
  readonly url: string;
  /** Makes the server silent; resolves once it is. */
  mute(): Promise<void>;
  close(): Promise<void>;
}

async function startChildServer(dataEveryMs: number): Promise<ChildServer> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['-e', SERVER, String(dataEveryMs)], { cwd: process.cwd() });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines: string[] = [];
  let waiters: Array<() => void> = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  });
  const line = async (key: string): Promise<Record<string, unknown>> => {
    for (;;) {
      const found = lines.find((l) => l.includes(`"${key}"`));
      if (found !== undefined) return JSON.parse(found) as Record<string, unknown>;
      await new Promise<void>((resolve, reject) => {
        waiters.push(resolve);
        void exited.then(() => reject(new Error(`child exited before printing ${key}`)));
      });
    }
  };
  const { port } = (await line('port')) as { port: number };
  return {
    url: `ws://127.0.0.1:${port}/quote/ws/v1`,
    mute: async () => {
      child.stdin.write('mute\n');
      await line('muted');
    },
    close: async () => {
      child.stdin.end();
      child.kill();
      await exited;
    },
  };
}

/** Blocks this process's event loop (a long GC, a heavy computation) for `ms`. */
function stall(ms: number): number {
  const end = performance.now() + ms;
  let spins = 0;
  while (performance.now() < end) spins++;
  return spins;
}

const within = <T>(source: Observable<T>, ms = 5000): Promise<T> => firstValueFrom(source.pipe(timeout(ms)));

const PING_MS = 200;
const TIMEOUT_MS = 500;

/** Integration: a live or silent peer in a child process while this process stalls; real sockets, real clock. */
describe('connection: dead-peer detection across a stall of the process (server in a child process)', () => {
  let server: ChildServer | undefined;
  let subs: Subscription;
  beforeEach(() => {
    subs = new Subscription();
  });
  afterEach(async () => {
    subs.unsubscribe();
    await server?.close();
    server = undefined;
  });

  async function openConnection(dataEveryMs: number): Promise<{ conn: Connection; statuses: ConnectionStatus[]; errors: Error[] }> {
    server = await startChildServer(dataEveryMs);
    const conn = connection({
      url: server.url,
      WebSocketCtor: WebSocket,
      pingIntervalMs: PING_MS,
      heartbeatTimeoutMs: TIMEOUT_MS,
      reconnect: { minDelayMs: 10, maxDelayMs: 20 },
    });
    const statuses: ConnectionStatus[] = [];
    const errors: Error[] = [];
    subs.add(conn.status$.subscribe((s) => statuses.push(s)));
    subs.add(conn.errors$.subscribe((e) => errors.push(e)));
    subs.add(conn.messages$.subscribe({ error: () => undefined }));
    await within(conn.messages$.pipe(filter((m) => (m as { pong?: unknown }).pong !== undefined)));
    return { conn, statuses, errors };
  }

  const pongs = (conn: Connection, count: number): Promise<unknown[]> =>
    within(conn.messages$.pipe(filter((m) => (m as { pong?: unknown }).pong !== undefined), take(count), toArray()), 5000);

  it.each([
    ['that only answers pings', 0],
    ['that also sends a frame every 20 ms (frames wait on the socket during the stall)', 20],
  ])('keeps the socket of a live peer %s through a stall of 3x heartbeatTimeoutMs', async (_, dataEveryMs) => {
    const { conn, statuses, errors } = await openConnection(dataEveryMs);
    stall(3 * TIMEOUT_MS);
    // after the stall: a heartbeat window and a grace go by, with pongs
    await pongs(conn, Math.ceil((TIMEOUT_MS + 2 * PING_MS) / PING_MS));
    expect(errors).toEqual([]);
    expect(statuses.map((s) => s.type)).toEqual(['closed', 'connecting', 'open']);
  });

  it('keeps the socket of a live peer through a stall just longer than heartbeatTimeoutMs', async () => {
    const { conn, statuses, errors } = await openConnection(0);
    await pongs(conn, 1);
    stall(TIMEOUT_MS + 5);
    await pongs(conn, Math.ceil((TIMEOUT_MS + 2 * PING_MS) / PING_MS));
    expect(errors).toEqual([]);
    expect(statuses.map((s) => s.type)).toEqual(['closed', 'connecting', 'open']);
  });

  it('finds a silent peer within heartbeatTimeoutMs + one ping interval of its silence', async () => {
    const { conn, statuses } = await openConnection(0);
    await server!.mute();
    const mutedAt = performance.now();
    const error = await within(conn.errors$.pipe(filter((e) => e instanceof HeartbeatTimeoutError)));
    const foundAfter = performance.now() - mutedAt;
    expect(error).toBeInstanceOf(HeartbeatTimeoutError);
    // the last pong came at most one ping interval before the silence; timers may run a little late
    expect(foundAfter).toBeGreaterThanOrEqual(TIMEOUT_MS - PING_MS - 5);
    expect(foundAfter).toBeLessThan(TIMEOUT_MS + PING_MS + 150);
    expect(statuses.some((s) => s.type === 'reconnecting')).toBe(true);
  });

  it('finds a peer that went silent before a stall within one ping interval of the stall end', async () => {
    const { conn } = await openConnection(0);
    await server!.mute();
    stall(3 * TIMEOUT_MS);
    const stallEnd = performance.now();
    await within(conn.errors$.pipe(filter((e) => e instanceof HeartbeatTimeoutError)));
    expect(performance.now() - stallEnd).toBeLessThan(PING_MS + 150);
  });
});
