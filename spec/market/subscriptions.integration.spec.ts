import type { AddressInfo } from 'node:net';
import { filter, firstValueFrom, map, merge, type Observable, type Subscription, take, timeout, toArray } from 'rxjs';
import { WebSocket, WebSocketServer } from 'ws';
import { SubscriptionRejectedError, SubscriptionRetriedError, TopicQuarantinedError } from '../../lib/errors';
import type { MarketMessage } from '../../lib/market/marketMessage';
import { marketStreams, type MarketStreams, type MarketStreamsConfig } from '../../lib/market/marketStreams';
import { startSimulator } from '../../lib/simulator';

/**
 * Integration (issue 27): subscriptions that cannot hurt each other, against our own `ws` servers on 127.0.0.1
 * (ephemeral ports) that rate-limit subscriptions or close on one symbol's sub, and against the simulator, whose
 * public stream refuses a batch naming an unknown pair with the bare rejection. Real sockets, the real clock.
 */

interface SubRequest {
  readonly event: string;
  readonly symbol: string;
  readonly topic: string;
  readonly id: number;
}

/** A public-stream server: answers pings, hands each request to `onRequest`; `stream` timers stop with the socket. */
interface TestServer {
  readonly url: string;
  /** Connections accepted so far. */
  connections: number;
  readonly requests: SubRequest[];
  /** Closes every open socket with `code` (the clients reconnect). */
  drop(code: number): void;
  close(): Promise<void>;
}

interface Session {
  readonly ws: WebSocket;
  /** Pushes a trade message of `symbol` every `periodMs` until the socket closes or `cancel(symbol)`. */
  stream(symbol: string, topic: string, id: number, periodMs: number): void;
  cancel(symbol: string): void;
}

async function startServer(onRequest: (session: Session, request: SubRequest) => void): Promise<TestServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const sockets = new Set<WebSocket>();
  const server: TestServer = {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/quote/ws/v1`,
    connections: 0,
    requests: [],
    drop: (code) => {
      for (const ws of sockets) ws.close(code, 'dropped by the test');
    },
    close: async () => {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
  wss.on('connection', (ws) => {
    server.connections += 1;
    sockets.add(ws);
    const timers = new Map<string, NodeJS.Timeout>();
    const stop = (): void => {
      for (const t of timers.values()) clearInterval(t);
      timers.clear();
    };
    ws.on('close', () => {
      stop();
      sockets.delete(ws);
    });
    ws.on('error', () => undefined);
    let n = 0;
    const session: Session = {
      ws,
      stream: (symbol, topic, id, periodMs) => {
        const push = (first: boolean): void => {
          if (ws.readyState !== WebSocket.OPEN) return;
          const t = Date.now();
          n += 1;
          ws.send(JSON.stringify({ symbol, symbolName: symbol, topic, params: { binary: 'false' }, data: [{ v: String(n), t, p: '1', q: '1', m: true }], f: first, sendTime: t, id: String(id) }));
        };
        clearInterval(timers.get(symbol));
        push(true);
        timers.set(symbol, setInterval(() => push(false), periodMs));
      },
      cancel: (symbol) => {
        clearInterval(timers.get(symbol));
        timers.delete(symbol);
      },
    };
    ws.on('message', (data) => {
      let m: { ping?: number; event?: string };
      try {
        m = JSON.parse(String(data)) as typeof m;
      } catch {
        return;
      }
      if (m.ping !== undefined) ws.send(JSON.stringify({ pong: Date.now() }));
      else if (m.event !== undefined) {
        server.requests.push(m as SubRequest);
        onRequest(session, m as SubRequest);
      }
    });
  });
  return server;
}

const symbolsOf = (request: SubRequest): string[] => request.symbol.split(',');

describe('subscriptions that cannot hurt each other (issue 27, real sockets)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  const subscriptions: Subscription[] = [];
  afterEach(async () => {
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const market = (url: string, config: Partial<MarketStreamsConfig> = {}): MarketStreams =>
    marketStreams({ url, WebSocketCtor: WebSocket, connection: { reconnect: { minDelayMs: 50, random: () => 0.5 } }, ...config });

  /** Resolves once every observable emitted a message of an epoch >= `epoch`; errors if one errors. */
  const allLive = (topics: readonly Observable<MarketMessage<unknown>>[], epoch: number, withinMs: number): Promise<unknown> =>
    firstValueFrom(
      merge(...topics.map((t$, i) => t$.pipe(filter((m) => m.epoch >= epoch), take(1), map(() => i)))).pipe(take(topics.length), toArray(), timeout(withinMs)),
    );

  /** A service that answers at most `perSecond` sub frames a second (per socket) and refuses the others with -1003. */
  const rateLimited = (perSecond: number): Promise<TestServer> => {
    const seen = new WeakMap<WebSocket, number[]>();
    return startServer((session, request) => {
      if (request.event === 'cancel') return symbolsOf(request).forEach((s) => session.cancel(s));
      const now = Date.now();
      const recent = (seen.get(session.ws) ?? []).filter((t) => now - t < 1000);
      seen.set(session.ws, recent);
      if (recent.length >= perSecond) {
        session.ws.send(JSON.stringify({ id: request.id, code: '-1003', desc: 'Too many requests', symbol: request.symbol, topic: request.topic }));
        return;
      }
      recent.push(now);
      for (const symbol of symbolsOf(request)) session.stream(symbol, request.topic, request.id, 200);
    });
  };

  it('a rate limit (-1003 beyond 5 subs a second) ends no topic: each refused one is sent again after a backoff, before and after a reconnect', async () => {
    const server = await rateLimited(5);
    cleanups.push(() => server.close());
    // one frame per topic (maxSymbolsPerFrame 1): 30 frames, 10 at once, then 10 a second, as before issue 27
    const m = market(server.url, { maxSymbolsPerFrame: 1 });
    const errors: Error[] = [];
    subscriptions.push(m.errors$.subscribe((e) => errors.push(e)));
    const ended: unknown[] = [];
    const symbols = Array.from({ length: 30 }, (_, i) => `S${i}USDT`);
    const topics = symbols.map((s) => m.tradeMessages(s));
    for (const t$ of topics) subscriptions.push(t$.subscribe({ error: (e: unknown) => ended.push(e) }));
    await allLive(topics, 1, 15_000);
    const refused = errors.filter((e): e is SubscriptionRetriedError => e instanceof SubscriptionRetriedError);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((e) => e.kind === 'rate-limit' && e.code === '-1003' && e.symbols.length === 1)).toBe(true);
    // after a reconnect: 20 topics resubscribed into the same limit
    for (const sub of subscriptions.splice(-10)) sub.unsubscribe();
    const reconnected = allLive(topics.slice(0, 20), 2, 15_000);
    server.drop(1012);
    await reconnected;
    expect(ended).toEqual([]);
    expect(errors.some((e) => e instanceof SubscriptionRejectedError)).toBe(false);
  }, 40_000);

  it('with batching (the default), the same 30 topics go out in 2 frames and meet no limit at all', async () => {
    const server = await rateLimited(5);
    cleanups.push(() => server.close());
    const m = market(server.url);
    const errors: Error[] = [];
    subscriptions.push(m.errors$.subscribe((e) => errors.push(e)));
    const topics = Array.from({ length: 30 }, (_, i) => m.tradeMessages(`S${i}USDT`));
    for (const t$ of topics) subscriptions.push(t$.subscribe());
    await allLive(topics, 1, 5_000);
    expect(server.requests.map((r) => `${r.event} ${symbolsOf(r).length}`)).toEqual(['sub 20', 'sub 10']);
    expect(errors).toEqual([]);
  });

  it('quarantines a symbol whose sub makes the service close the socket (1008); the other topics keep 60 % of their messages meanwhile', async () => {
    const periodMs = 50;
    const server = await startServer((session, request) => {
      if (request.event === 'cancel') return symbolsOf(request).forEach((s) => session.cancel(s));
      if (symbolsOf(request).includes('BADUSDT')) return session.ws.close(1008, 'policy violation');
      for (const symbol of symbolsOf(request)) session.stream(symbol, request.topic, request.id, periodMs);
    });
    cleanups.push(() => server.close());
    const m = market(server.url, { connection: { reconnect: { minDelayMs: 200, random: () => 0.5 } } });
    const counts = { GOODUSDT: 0, GOOD2USDT: 0 };
    const started = Date.now();
    subscriptions.push(m.tradeMessages('GOODUSDT').subscribe(() => (counts.GOODUSDT += 1)));
    subscriptions.push(m.depthMessages('GOOD2USDT').subscribe(() => (counts.GOOD2USDT += 1)));
    const bad = firstValueFrom(m.tradeMessages('BADUSDT').pipe(timeout(10_000))).then(
      () => 'emitted',
      (e: unknown) => e,
    );
    const verdict = await bad;
    const foundAfterMs = Date.now() - started;
    expect(verdict).toEqual(new TopicQuarantinedError('BADUSDT', 'trade', 1008, 3));
    expect(verdict).toBeInstanceOf(TopicQuarantinedError);
    // one batch with GOOD, then 3 subs alone: 4 sockets closed, the 5th lives
    expect(server.requests.filter((r) => r.event === 'sub' && symbolsOf(r).includes('BADUSDT')).map((r) => r.symbol)).toEqual([
      'GOODUSDT,BADUSDT',
      'BADUSDT',
      'BADUSDT',
      'BADUSDT',
    ]);
    // measured over 10 s from the start: the messages the server would have pushed at a steady rate
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - foundAfterMs)));
    const elapsed = Date.now() - started;
    const expected = elapsed / periodMs;
    for (const got of Object.values(counts)) expect(got / expected).toBeGreaterThanOrEqual(0.6);
    expect(server.connections).toBe(5);
  }, 30_000);

  it('against the simulator: a batch naming an unknown pair is refused bare; the culprit alone ends, the other pairs flow', async () => {
    const sim = await startSimulator({ symbols: ['BTCUSDT', 'ETHUSDT', 'ETHBTC'], seed: 4, periodsMs: { trade: 50, depth: 50 }, marketStepMs: 20, depthLevels: 5 });
    cleanups.push(() => sim.close());
    const m = market(sim.publicStreamUrl);
    const errors: Error[] = [];
    subscriptions.push(m.errors$.subscribe((e) => errors.push(e)));
    const good = ['BTCUSDT', 'ETHUSDT', 'ETHBTC'].map((s) => m.depthMessages(s));
    for (const t$ of good) subscriptions.push(t$.subscribe());
    const nope = firstValueFrom(m.depthMessages('SOLUSDT').pipe(timeout(5_000))).then(
      () => 'emitted',
      (e: unknown) => e,
    );
    const live = allLive(good, 1, 5_000);
    expect(await nope).toEqual(new SubscriptionRejectedError('SOLUSDT', 'depth', '-100010', 'Invalid Symbols!'));
    await live;
    expect(errors).toEqual([]);
    // the batch of 4 (refused), its halves (the second refused), then ETHBTC and SOL alone (SOL refused: it alone ends)
    const subs = (): string[] => sim.observed().subscriptions.map((x) => `${x.symbol} ${x.id}`);
    expect(subs()).toEqual([
      'BTCUSDT 1', 'ETHUSDT 1', 'ETHBTC 1', 'SOLUSDT 1',
      'BTCUSDT 2', 'ETHUSDT 2',
      'ETHBTC 3', 'SOLUSDT 3',
      'ETHBTC 4',
      'SOLUSDT 5',
    ]);
    // and the good ones keep flowing
    await allLive(good, 1, 2_000);
  });

  it('500 topics are live within 5 s of the socket opening, and again within 5 s of a reconnect (simulator, defaults)', async () => {
    const symbols = Array.from({ length: 125 }, (_, i) => `P${i}USDT`);
    const sim = await startSimulator({ symbols, seed: 9, depthLevels: 5 });
    cleanups.push(() => sim.close());
    const m = market(sim.publicStreamUrl);
    const topics: Observable<MarketMessage<unknown>>[] = symbols.flatMap((s) => [m.tradeMessages(s), m.depthMessages(s), m.realtimesMessages(s), m.klineMessages(s, '1m')]);
    const opened = firstValueFrom(m.status$.pipe(filter((st) => st.connection.type === 'open'), map(() => Date.now())));
    const firstLive = allLive(topics, 1, 10_000);
    for (const t$ of topics) subscriptions.push(t$.subscribe());
    await firstLive;
    const firstMs = Date.now() - (await opened);
    const reopened = firstValueFrom(m.status$.pipe(filter((st) => st.connection.type === 'open' && st.connection.epoch === 2), map(() => Date.now())));
    const againLive = allLive(topics, 2, 10_000);
    sim.drop({ stream: 'public', code: 1012 });
    await againLive;
    const againMs = Date.now() - (await reopened);
    expect(firstMs).toBeLessThan(5_000);
    expect(againMs).toBeLessThan(5_000);
    // 4 topics, 125 symbols: 7 frames each (20 a frame)
    expect(new Set(sim.observed().subscriptions.filter((x) => x.connection === 1).map((x) => x.id)).size).toBe(28);
  }, 30_000);
});
