import type { AddressInfo } from 'node:net';
import { filter, firstValueFrom, of, skip, type Subscription } from 'rxjs';
import { WebSocket, WebSocketServer } from 'ws';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { restClient } from '../../lib/rest/restClient';
import { userStream, type UserStream } from '../../lib/user/userStream';
import type { UserStreamGap } from '../../lib/user/userStreamGap';
import { startHttpServer, type Reply, type TestHttpServer } from '../helpers/httpServer';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';
import { account, connectionOf } from './fixtures';

/**
 * The user stream against hostile services, on real sockets: a key endpoint that rejects, a stream that
 * closes every socket with 4001, a half-open link.
 */
describe('userStream (hostile services, real sockets)', () => {
  const subs: Subscription[] = [];
  const closers: Array<() => Promise<void>> = [];
  const Ctor = WebSocket as unknown as WebSocketCtor;

  afterEach(async () => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    for (const close of closers.splice(0).reverse()) await close();
  });

  const http = async (handle: (n: number) => Reply): Promise<TestHttpServer> => {
    let n = 0;
    const server = await startHttpServer((r) => (r.method === 'POST' ? handle(n++) : { status: 200, body: {} }));
    closers.push(() => server.close());
    return server;
  };

  const wsServer = async (onConnection: (socket: WebSocket) => void): Promise<number> => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    wss.on('connection', onConnection);
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          for (const client of wss.clients) client.terminate();
          wss.close(() => resolve());
        }),
    );
    return (wss.address() as AddressInfo).port;
  };

  const posts = (server: TestHttpServer) => server.requests.filter((r) => r.method === 'POST').length;

  it('a README-style subscriber (no error callback) survives a key endpoint that only rejects: errors$ and status$ tell', async () => {
    const answers: Reply[] = [
      { status: 401, body: { code: -1002, msg: 'You are not authorized to execute this request.' } },
      { status: 200, body: {} },
      { status: 200, body: { listenKey: '' } },
      { status: 503, body: '<html>busy</html>' },
      { status: 200, body: { nothing: true } },
    ];
    const server = await http((n) => answers[n % answers.length]!);
    const rest = restClient({ baseUrl: server.baseUrl, apiKey: 'api-key', secretKey: 'secret-key' });
    const user = userStream({
      url: 'ws://127.0.0.1:9/api/v1/ws',
      rest,
      WebSocketCtor: Ctor,
      listenKeyOptions: { retryDelayMs: 5, maxRetryDelayMs: 10 },
    });
    // as the README writes it: no error callback anywhere
    subs.push(user.orders$.subscribe(() => undefined), user.events$.subscribe(() => undefined));
    const errors: Error[] = [];
    const statuses: ConnectionStatus[] = [];
    subs.push(user.errors$.subscribe((e) => errors.push(e)), connectionOf(user).subscribe((s) => statuses.push(s)));
    await firstValueFrom(user.errors$.pipe(skip(2 * answers.length)));
    expect(posts(server)).toBeGreaterThan(2 * answers.length);
    expect(new Set(errors.map((e) => e.name))).toEqual(new Set(['RequestRejectedError']));
    expect(errors.map((e) => (e as { status?: number }).status).slice(0, 5)).toEqual([401, 200, 200, 503, 200]);
    expect(statuses.length).toBeGreaterThan(answers.length);
    // the start shows at once (the key is being created), then every refused creation
    expect(statuses[0]).toEqual({ type: 'connecting', epoch: 0, attempt: 0 });
    expect(statuses.slice(1).every((s) => s.type === 'reconnecting' && s.cause?.name === 'RequestRejectedError')).toBe(true);
  });

  it('survives a key endpoint nobody listens on (network errors), retrying', async () => {
    const server = await http(() => ({ status: 200, body: {} }));
    await server.close(); // the port is now closed: every POST fails on the network
    const rest = restClient({ baseUrl: server.baseUrl, apiKey: 'api-key', secretKey: 'secret-key' });
    const user = userStream({ url: 'ws://127.0.0.1:9/api/v1/ws', rest, WebSocketCtor: Ctor, listenKeyOptions: { retryDelayMs: 5, maxRetryDelayMs: 10 } });
    subs.push(user.balances$.subscribe(() => undefined));
    const errors = await firstValueFrom(user.errors$.pipe(skip(3)));
    expect(errors.name).toBe('RequestFailedError');
    const status = await firstValueFrom(user.status$);
    expect(status).toMatchObject({ connection: { type: 'reconnecting', cause: { name: 'RequestFailedError' } } });
    expect(status.keyErrors).toBeGreaterThanOrEqual(4); // each failed creation counted (4 seen on errors$)
  });

  it('backs off key creation when every socket is closed with 4001 and every POST mints a new key', async () => {
    let minted = 0;
    const server = await http(() => ({ status: 200, body: { listenKey: `key${++minted}x${'0123456789'.repeat(6)}` } }));
    let closed = 0;
    const port = await wsServer((socket) => {
      closed += 1;
      socket.close(4001, 'listen key expired');
    });
    const rest = restClient({ baseUrl: server.baseUrl, apiKey: 'api-key', secretKey: 'secret-key' });
    const user = userStream({
      url: `ws://127.0.0.1:${port}/api/v1/ws`,
      rest,
      WebSocketCtor: Ctor,
      listenKeyOptions: { random: () => 0.5 }, // the default 1 s … 60 s backoff, a fixed jitter
    });
    subs.push(user.events$.subscribe());
    const started = Date.now();
    // Before: 2 592 POSTs in 8 s. Now: at once, at once, then after 0.5 s, 1 s, 2 s, …: 4 POSTs in the first 2.5 s.
    await firstValueFrom(user.errors$.pipe(filter(() => Date.now() - started >= 2500)));
    expect(posts(server)).toBeGreaterThanOrEqual(3);
    expect(posts(server)).toBeLessThanOrEqual(5);
    expect(closed).toBeLessThanOrEqual(posts(server));
  }, 10_000);

  it('never shows the listen key, whole or in part: a frame echoing it in a failing field, a 4002 close quoting it', async () => {
    const key = 'Qw3eRt5yUi7oPa9sDf1gHj3kLz5xCv7bNm9qWe1rTy3uIo5pAs7dFg9hJk1lZx3c';
    const port = await wsServer((socket) => {
      socket.send(JSON.stringify([{ e: 'executionReport', E: Date.now(), i: key, X: key.slice(3, 45), c: { listenKey: key } }]));
      // closed once the last frame is written: TCP delivers the frames before the close
      socket.send(JSON.stringify({ e: key, E: Date.now() }), () => socket.close(4002, `key ${key} ${key.slice(0, 50)}`));
    });
    const server = await http(() => ({ status: 200, body: { listenKey: key } }));
    const rest = restClient({ baseUrl: server.baseUrl, apiKey: 'api-key', secretKey: 'secret-key' });
    const user = userStream({
      url: `ws://127.0.0.1:${port}/api/v1/ws`,
      rest,
      WebSocketCtor: Ctor,
      connection: { reconnect: { minDelayMs: 50, maxDelayMs: 50 } },
    });
    const seen: unknown[] = [];
    subs.push(
      user.events$.subscribe({ error: (e: unknown) => seen.push(e) }),
      user.errors$.subscribe((e) => seen.push(e)),
      connectionOf(user).subscribe((s) => seen.push(s)),
    );
    await firstValueFrom(user.errors$.pipe(filter((e) => e.name === 'ConnectionClosedError')));
    await firstValueFrom(connectionOf(user).pipe(filter((s) => s.type === 'open' && s.epoch === 2)));
    const text = seen
      .map((v) => {
        const e = (v as { cause?: Error }).cause ?? v;
        const { message, stack, paths, raw } = e as Error & { paths?: string[]; raw?: string };
        return [JSON.stringify(v), JSON.stringify(e), String(message), String(stack), ...(paths ?? []), String(raw)].join('\n');
      })
      .join('\n');
    expect(text).toContain('DecodeError');
    expect(text).toContain('4002');
    for (let i = 0; i + 8 <= key.length; i++) expect(text).not.toContain(key.slice(i, i + 8));
  });

  it('half-open link: every event the server wrote during the stall and the client never got lies inside a signalled gap', async () => {
    const sent: number[] = [];
    const port = await wsServer((socket) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { ping?: number };
        if (message.ping !== undefined) socket.send(JSON.stringify({ pong: message.ping }));
      });
      const pushing = setInterval(() => {
        const E = Date.now();
        sent.push(E);
        socket.send(JSON.stringify([account(E, [['BTC', String(E), '0']])]));
      }, 20);
      socket.on('close', () => clearInterval(pushing));
    });
    const proxy: TcpProxy = await startTcpProxy(port);
    closers.push(() => proxy.close());
    const user: UserStream = userStream({
      url: `ws://127.0.0.1:${proxy.port}/api/v1/ws`,
      listenKey$: of('half-open-key'),
      WebSocketCtor: Ctor,
      reorder: { maxDelayMs: 5 },
      // Pings only at each open (the events keep the watchdog fed): the last frame before the stall is an event.
      connection: { pingIntervalMs: 60_000, heartbeatTimeoutMs: 400, reconnect: { minDelayMs: 10, maxDelayMs: 20 } },
    });
    const received = new Set<number>();
    const gaps: UserStreamGap[] = [];
    const opens: ConnectionStatus[] = [];
    subs.push(
      user.events$.subscribe((e) => received.add(e.E!)),
      user.gaps$.subscribe((g) => gaps.push(g)),
      connectionOf(user).pipe(filter((s) => s.type === 'open')).subscribe((s) => opens.push(s)),
    );
    await firstValueFrom(user.events$.pipe(skip(4)));
    proxy.stall(); // ~5 ms after an event arrived, ~15 ms before the next one is written
    const stalledAt = Date.now();
    await firstValueFrom(connectionOf(user).pipe(filter((s) => s.type === 'reconnecting')));
    proxy.resume();
    await firstValueFrom(user.gaps$);
    await firstValueFrom(user.events$.pipe(skip(3)));
    subs.splice(0).forEach((s) => s.unsubscribe());

    const lost = sent.filter((E) => E >= stalledAt && !received.has(E));
    expect(lost.length).toBeGreaterThanOrEqual(5); // 400 ms of silence before the watchdog: ~20 events
    expect(gaps).toHaveLength(1);
    const [gap] = gaps;
    for (const E of lost) {
      expect(E).toBeGreaterThanOrEqual(gap!.downSince);
      expect(E).toBeLessThanOrEqual(gap!.reconnectedAt);
    }
    expect(gap!.downSince).toBeLessThanOrEqual(stalledAt);
    expect(opens[1]).toMatchObject({ type: 'open', epoch: 2, downSince: gap!.downSince, since: gap!.reconnectedAt });
  }, 10_000);
});
