import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { BehaviorSubject, config as rxConfig, filter, firstValueFrom, map, type Observable, type Subscription, take, timeout, toArray } from 'rxjs';
import { WebSocket, WebSocketServer } from 'ws';
import { ConnectionClosedError } from '../../lib/errors';
import { marketStreams, type MarketStreams, type MarketStreamsConfig } from '../../lib/market/marketStreams';
import type { MarketStatus } from '../../lib/market/marketStatus';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';

/**
 * Integration: faults a real deployment meets, played by our own `ws` server on 127.0.0.1 (ephemeral port),
 * sometimes behind a TCP proxy that stalls half-open; real sockets, the real clock, default settings unless named.
 */

/** A public-stream server: answers `{ ping }` with `{ pong: now }`, hands `sub` / `cancel` frames to the test. */
interface TestServer {
  readonly port: number;
  readonly url: string;
  readonly sockets: Set<WebSocket>;
  close(): Promise<void>;
}

interface Request {
  readonly event: string;
  readonly symbol: string;
  readonly topic: string;
  readonly id: number;
}

async function startServer(handlers: {
  onConnection?: (ws: WebSocket, index: number) => void;
  onRequest?: (ws: WebSocket, request: Request) => void;
  answerPings?: (ws: WebSocket) => boolean;
}): Promise<TestServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const sockets = new Set<WebSocket>();
  let index = 0;
  wss.on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('error', () => undefined);
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { ping?: number; event?: string };
      if (m.ping !== undefined) {
        if (handlers.answerPings?.(ws) ?? true) ws.send(JSON.stringify({ pong: Date.now() }));
      } else if (m.event !== undefined) handlers.onRequest?.(ws, m as Request);
    });
    handlers.onConnection?.(ws, index++);
  });
  const port = (wss.address() as AddressInfo).port;
  return {
    port,
    url: `ws://127.0.0.1:${port}/quote/ws/v1`,
    sockets,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

const tradeFrame = (symbol: string, n: number, t: number, first = false): string =>
  JSON.stringify({
    symbol,
    symbolName: symbol,
    topic: 'trade',
    params: { realtimeInterval: '24h', binary: 'false' },
    data: [{ v: String(n), t, p: '100', q: '1', m: n % 2 === 0 }],
    f: first,
    sendTime: t,
  });

const depthFrame = (symbol: string, t: number): string =>
  JSON.stringify({
    symbol,
    symbolName: symbol,
    topic: 'depth',
    params: { realtimeInterval: '24h', binary: 'false' },
    data: [{ t, a: [['101', '1']], b: [['99', '1']] }],
    f: false,
    sendTime: t,
  });

const within = <T>(source: Observable<T>, ms = 8000): Promise<T> => firstValueFrom(source.pipe(timeout(ms)));

describe('marketStreams against hostile and broken servers (real sockets)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  const subscriptions: Subscription[] = [];
  let unhandled: unknown[];
  let previousHandler: typeof rxConfig.onUnhandledError;

  beforeEach(() => {
    unhandled = [];
    previousHandler = rxConfig.onUnhandledError;
    // An error nobody handles (an observable erroring into a subscriber without an error callback) would
    // take a real process down: count them.
    rxConfig.onUnhandledError = (e) => unhandled.push(e);
  });
  afterEach(async () => {
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    for (const c of cleanups.splice(0).reverse()) await c();
    rxConfig.onUnhandledError = previousHandler;
  });

  function market(url: string, config: Partial<MarketStreamsConfig> = {}): MarketStreams {
    return marketStreams({ url, WebSocketCtor: WebSocket, ...config });
  }

  it.each([
    ['', 0],
    // the trades written in the last 100 ms before the stall are still on their way, and lost with it: the gap must
    // start when the last trade received was written, not when it arrived (pongs come 100 ms late too: the clock
    // estimate is 50 ms off, and only its bound is safe)
    [', through a link 100 ms slow downstream', 100],
  ])('puts every trade the server wrote and the client never got inside the signalled gap [downSince, since) of a half-open socket%s', async (_, downstreamDelayMs) => {
    let n = 0;
    const written: Array<{ n: number; t: number }> = [];
    const subscribed = new Set<WebSocket>();
    const server = await startServer({
      onRequest: (ws, r) => {
        if (r.event === 'sub' && r.topic === 'trade') subscribed.add(ws);
      },
    });
    cleanups.push(() => server.close());
    // one trade every 20 ms, to every subscribed connection (like the service: a trade happens once)
    const producer = setInterval(() => {
      n += 1;
      const t = Date.now();
      for (const ws of subscribed) {
        if (ws.readyState !== WebSocket.OPEN) continue;
        ws.send(tradeFrame('BTCUSDT', n, t));
        written.push({ n, t });
      }
    }, 20);
    cleanups.push(() => clearInterval(producer));
    const proxy: TcpProxy = await startTcpProxy(server.port, { downstreamDelayMs });
    cleanups.push(() => proxy.close());

    const m = market(`ws://127.0.0.1:${proxy.port}/quote/ws/v1`, {
      connection: { pingIntervalMs: 50, heartbeatTimeoutMs: 300, reconnect: { minDelayMs: 50, random: () => 0.5 } },
    });
    const received = new Set<number>();
    let stalled = false;
    const lastOnEpoch2 = new BehaviorSubject(0);
    subscriptions.push(
      m.tradeMessages('BTCUSDT').subscribe((msg) => {
        for (const r of msg.data) received.add(Number(r.v));
        if (msg.epoch === 2) lastOnEpoch2.next(Number(msg.data[msg.data.length - 1]!.v));
        // the link dies right after the 10th trade reached the client
        if (!stalled && received.size >= 10) {
          stalled = true;
          proxy.stall();
        }
      }),
    );
    subscriptions.push(m.status$.pipe(filter((s) => s.connection.type === 'reconnecting')).subscribe(() => proxy.resume()));
    const reopened = (await within(m.status$.pipe(map((s) => s.connection), filter((c) => c.type === 'open' && c.epoch === 2)))) as Extract<
      ConnectionStatus,
      { type: 'open' }
    >;
    // ten more trades on the new socket, then stop writing and let the last ones arrive
    await within(m.tradeMessages('BTCUSDT').pipe(filter((msg) => msg.epoch === 2), take(10), toArray()));
    clearInterval(producer);
    const lastWritten = written[written.length - 1]!.n;
    await within(lastOnEpoch2.pipe(filter((v) => v >= lastWritten)));

    const { downSince, since } = reopened;
    expect(downSince).toBeDefined();
    const lost = written.filter((w) => !received.has(w.n));
    expect(lost.length).toBeGreaterThan(5); // the stall lasted about heartbeatTimeoutMs: trades were lost
    const outside = lost.filter((w) => !(w.t >= downSince! && w.t < since));
    expect({ outside, downSince, since }).toEqual({ outside: [], downSince, since });
    expect(proxy.droppedDownstreamBytes).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);
  });

  it.each([
    ['4002', 4002],
    ['4999', 4999],
  ])('keeps retrying a service that closes every socket with %s and a quoted reason, without an error callback and without crashing', async (_, code) => {
    const server = await startServer({
      onConnection: (ws) => ws.close(code, `listen key "0123456789abcdef0123" expired; "quoted"`),
    });
    cleanups.push(() => server.close());
    const m = market(server.url, { connection: { reconnect: { minDelayMs: 10, maxDelayMs: 80, random: () => 0.5 } } });
    const statuses: MarketStatus[] = [];
    const errors: Error[] = [];
    subscriptions.push(m.status$.subscribe((s) => statuses.push(s)));
    subscriptions.push(m.errors$.subscribe((e) => errors.push(e)));
    // the README's subscriber: no error callback
    subscriptions.push(m.trades('BTCUSDT').subscribe((t) => t.p));
    subscriptions.push(m.depth('BTCUSDT').subscribe((d) => d.t));
    const reconnecting = await within(
      m.status$.pipe(
        map((s) => s.connection),
        filter((c): c is Extract<ConnectionStatus, { type: 'reconnecting' }> => c.type === 'reconnecting'),
        take(5),
        toArray(),
      ),
    );
    expect(reconnecting.map((c) => [c.attempt, c.delayMs])).toEqual([[1, 5], [2, 10], [3, 20], [4, 40], [5, 40]]);
    for (const c of reconnecting) expect(c.cause).toMatchObject({ name: 'ConnectionClosedError', code });
    expect(errors.length).toBeGreaterThanOrEqual(5);
    for (const e of errors) {
      expect(e).toBeInstanceOf(ConnectionClosedError);
      expect(e).toMatchObject({ code, wasClean: true });
      expect((e as ConnectionClosedError).reason).toContain('expired; "quoted"');
    }
    expect(statuses.some((s) => s.connection.type === 'closed' && s.connection.epoch > 0)).toBe(false);
    expect(unhandled).toEqual([]);
  });

  it('keeps retrying a dead service (connection refused) without an error callback and without crashing', async () => {
    const server = await startServer({});
    const deadUrl = server.url;
    await server.close();
    const m = market(deadUrl, { connection: { reconnect: { minDelayMs: 10, maxDelayMs: 80, random: () => 0.5 } } });
    const errors: Error[] = [];
    subscriptions.push(m.errors$.subscribe((e) => errors.push(e)));
    subscriptions.push(m.klines('BTCUSDT', '1m').subscribe((k) => k.c));
    const reconnecting = await within(
      m.status$.pipe(
        map((s) => s.connection),
        filter((c): c is Extract<ConnectionStatus, { type: 'reconnecting' }> => c.type === 'reconnecting'),
        take(4),
        toArray(),
      ),
    );
    expect(reconnecting.map((c) => [c.attempt, c.delayMs])).toEqual([[1, 5], [2, 10], [3, 20], [4, 40]]);
    expect(errors.length).toBeGreaterThanOrEqual(4);
    for (const e of errors) expect(e).toMatchObject({ name: 'ConnectionClosedError', code: 1006 });
    expect(unhandled).toEqual([]);
  });

  it('resubscribes a topic the server stopped while it still answers pings and serves other topics', async () => {
    const requests: string[] = [];
    const timers = new Set<NodeJS.Timeout>();
    let depthStopped = false;
    const server = await startServer({
      onRequest: (ws, r) => {
        requests.push(`${r.event} ${r.topic}`);
        if (r.event !== 'sub') return;
        const isDepth = r.topic === 'depth';
        if (isDepth && depthStopped) depthStopped = false; // a fresh subscription is served again
        let n = 0;
        const push = setInterval(() => {
          if (ws.readyState !== WebSocket.OPEN) return;
          if (!isDepth) ws.send(tradeFrame('BTCUSDT', ++n, Date.now(), n === 1));
          else if (!depthStopped) ws.send(depthFrame('BTCUSDT', Date.now()));
        }, 20);
        timers.add(push);
      },
    });
    cleanups.push(() => server.close());
    cleanups.push(() => timers.forEach((t) => clearInterval(t)));
    const m = market(server.url, {
      subscribeTimeoutMs: 100,
      staleAfterMs: { depth: 300 },
      connection: { pingIntervalMs: 50, heartbeatTimeoutMs: 1000 },
    });
    const depthTimes: number[] = [];
    subscriptions.push(m.depth('BTCUSDT').subscribe(() => depthTimes.push(Date.now())));
    subscriptions.push(m.trades('BTCUSDT').subscribe());
    await within(m.depth('BTCUSDT').pipe(take(3), toArray()));
    const stoppedAt = Date.now();
    depthStopped = true;
    const status = await within(m.status$.pipe(filter((s) => s.staleResubscribes === 1)));
    const noticedAfter = Date.now() - stoppedAt;
    expect(noticedAfter).toBeGreaterThanOrEqual(300 - 25);
    expect(noticedAfter).toBeLessThan(300 + 250);
    expect(status.connection).toMatchObject({ type: 'open', epoch: 1 }); // the socket itself stayed healthy
    await within(m.depth('BTCUSDT').pipe(take(2), toArray())); // and the depth flows again
    expect(requests.filter((r) => r.endsWith('depth'))).toEqual(['sub depth', 'cancel depth', 'sub depth']);
    expect(requests.filter((r) => r.endsWith('trade'))).toEqual(['sub trade']);
    expect(unhandled).toEqual([]);
  });

  it('shows a slow consumer falling behind a flood on status$.dataAgeMs', async () => {
    // The flooding server runs in its own thread (as a real service would on its own machine): 50 000 trade
    // frames/s while the socket takes them, each stamped with its send time.
    const worker = new Worker(FLOOD_SERVER, { eval: true, workerData: { ws: require.resolve('ws') } });
    cleanups.push(async () => void (await worker.terminate()));
    const port = await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const m = market(`ws://127.0.0.1:${port}/quote/ws/v1`, { connection: { heartbeatTimeoutMs: 20_000 } });
    const ages: number[] = [];
    subscriptions.push(m.status$.subscribe((s) => s.dataAgeMs !== undefined && ages[ages.length - 1] !== s.dataAgeMs && ages.push(s.dataAgeMs)));
    let values = 0;
    // 1 ms of work per trade
    subscriptions.push(
      m.trades('BTCUSDT').subscribe(() => {
        values += 1;
        const until = performance.now() + 1;
        while (performance.now() < until);
      }),
    );
    await new Promise((r) => setTimeout(r, 2500));
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    expect(values).toBeGreaterThan(500);
    // published once a second at most: 1 s, 2 s; growing about 1 s per second
    expect(ages.length).toBeGreaterThanOrEqual(2);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    expect(ages[ages.length - 1]!).toBeGreaterThanOrEqual(1000);
    expect(unhandled).toEqual([]);
  });
});

/** Source of the flooding server's worker thread (CommonJS, `ws` from the path in `workerData`). */
const FLOOD_SERVER = `
const { parentPort, workerData } = require('node:worker_threads');
const { WebSocketServer } = require(workerData.ws);
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 }, () => parentPort.postMessage(wss.address().port));
let n = 0;
wss.on('connection', (ws) => {
  ws.on('error', () => undefined);
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.ping !== undefined) ws.send(JSON.stringify({ pong: Date.now() }));
    if (m.event !== 'sub') return;
    const flood = setInterval(() => {
      for (let i = 0; i < 250 && ws.readyState === 1 && ws.bufferedAmount < 1024 * 1024; i++) {
        const t = Date.now();
        n += 1;
        ws.send('{"symbol":"BTCUSDT","topic":"trade","params":{"binary":"false"},"data":[{"v":"' + n + '","t":' + t +
          ',"p":"100","q":"1","m":true}],"f":false,"sendTime":' + t + '}');
      }
    }, 5);
    ws.on('close', () => clearInterval(flood));
  });
});
`;
