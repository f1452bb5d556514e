import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { filter, firstValueFrom, lastValueFrom, type Observable, Subscription, timeout } from 'rxjs';
import { WebSocket } from 'ws';
import { ConfigError, ConnectionClosedError } from '../../lib/errors';
import { marketStreams } from '../../lib/market/marketStreams';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { connection } from '../../lib/socket/connection';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';
import type { WebSocketCloseEventLike, WebSocketCtor, WebSocketLike, WebSocketMessageEventLike } from '../../lib/socket/webSocketLike';
import { type Reply, startHttpServer, type TestHttpServer } from '../helpers/httpServer';
import { startTcpProxy } from '../helpers/tcpProxy';

/** A listen key as the service hands them out: 60 letters and digits. */
const LISTEN_KEY = 'Lk7Qz0aB9cD8eF7gH6iJ5kL4mN3oP2qR1sT0uV9wX8yZ7aB6cD5eF4gH3iJ2';

/** A port nothing listens on: bound by a server that is then closed. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const within = <T>(source: Observable<T>, ms = 5000): Promise<T> => firstValueFrom(source.pipe(timeout(ms)));

/** The error `messages$` ends with, with reconnection off (the first failure is the last). */
function failureOf(url: string, Ctor: WebSocketCtor = WebSocket): Promise<unknown> {
  const conn = connection({ url, WebSocketCtor: Ctor, reconnect: false, heartbeatTimeoutMs: 5000 });
  return lastValueFrom(conn.messages$.pipe(timeout(5000))).then(
    () => new Error('messages$ completed'),
    (e: unknown) => e,
  );
}

/** Everything an error shows: its text and each field, for the no-secret checks. */
const everything = (e: unknown): string => `${String(e)} ${JSON.stringify(e)} ${(e as Error).message}`;

function expectNoKey(e: unknown): void {
  const text = everything(e);
  expect(text).not.toContain(LISTEN_KEY);
  // not even in part
  for (let i = 0; i + 12 <= LISTEN_KEY.length; i += 6) expect(text).not.toContain(LISTEN_KEY.slice(i, i + 12));
}

/**
 * A browser-shaped socket: only the `WebSocketLike` members (no `ws` `on`), whose error event carries nothing,
 * as a browser's does. It drives a real `ws` socket underneath.
 */
class BrowserShapedSocket implements WebSocketLike {
  binaryType = 'blob';
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: WebSocketMessageEventLike) => void) | null = null;
  onclose: ((event: WebSocketCloseEventLike) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  private readonly ws: WebSocket;
  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.binaryType = 'arraybuffer';
    this.ws.onopen = () => this.onopen?.({ type: 'open' });
    this.ws.onmessage = (e) => this.onmessage?.({ data: e.data });
    this.ws.onerror = () => this.onerror?.({ type: 'error' });
    this.ws.onclose = (e) => this.onclose?.({ code: e.code, reason: e.reason, wasClean: e.wasClean });
  }
  get readyState(): number {
    return this.ws.readyState;
  }
  send(data: string): void {
    this.ws.send(data);
  }
  close(code?: number, reason?: string): void {
    this.ws.close(code, reason);
  }
}

describe('socket failures (real sockets on 127.0.0.1)', () => {
  describe('with ws (Node)', () => {
    it('tells a closed port: refused, with the address and the runtime code', async () => {
      const port = await freePort();
      const url = `ws://127.0.0.1:${port}/quote/ws/v1`;
      const e = await failureOf(url);
      expect(e).toBeInstanceOf(ConnectionClosedError);
      expect(e).toMatchObject({ code: 1006, failure: 'refused', errorCode: 'ECONNREFUSED', address: url });
      expect((e as Error).message).toBe(`connection to ${url} refused (ECONNREFUSED)`);
      expect((e as ConnectionClosedError).detail).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    });

    it('never shows the listen key of a private address, not even in part', async () => {
      const port = await freePort();
      const e = await failureOf(`ws://user:pa55word@127.0.0.1:${port}/api/v1/ws/${LISTEN_KEY}`);
      expect(e).toMatchObject({ failure: 'refused', address: `ws://127.0.0.1:${port}/api/v1/ws/***` });
      expect((e as Error).message).toBe(`connection to ws://127.0.0.1:${port}/api/v1/ws/*** refused (ECONNREFUSED)`);
      expectNoKey(e);
      expect(everything(e)).not.toContain('pa55word');
    });

    describe('an HTTP server answering the upgrade', () => {
      let http: TestHttpServer;
      afterEach(() => http.close());

      it('with 404: http-status 404, "wrong path?"', async () => {
        http = await startHttpServer(() => ({ status: 404, body: { msg: 'no such route' } }));
        const url = `${http.baseUrl.replace('http:', 'ws:')}/api/v1/ws/${LISTEN_KEY}`;
        const e = await failureOf(url);
        expect(e).toBeInstanceOf(ConnectionClosedError);
        expect(e).toMatchObject({ code: 1006, failure: 'http-status', httpStatus: 404 });
        expect((e as Error).message).toBe(
          `connection to ${http.baseUrl.replace('http:', 'ws:')}/api/v1/ws/*** answered HTTP 404 to the websocket upgrade (wrong path?)`,
        );
        expectNoKey(e);
      });

      it('with 200 (not a websocket endpoint): http-status 200', async () => {
        http = await startHttpServer(() => ({ status: 200, body: {} }));
        const e = await failureOf(`${http.baseUrl.replace('http:', 'ws:')}/quote/ws/v1`);
        expect(e).toMatchObject({ failure: 'http-status', httpStatus: 200 });
        expect((e as Error).message).toMatch(/answered HTTP 200 to the websocket upgrade \(not a websocket endpoint\?\)$/);
      });
    });

    it('waits at least what Retry-After asks (429 in seconds, 503 as an HTTP date) before the next upgrade', async () => {
      // Each answer is timed when the server sends it; the next upgrade request must arrive no earlier than asked.
      const sentAt: number[] = [];
      const arrivedAt: number[] = [];
      const answers = [
        (): Reply => ({ status: 429, headers: { 'Retry-After': '1' }, body: { code: -1003, msg: 'Too many requests' } }),
        (): Reply => ({ status: 503, headers: { 'Retry-After': new Date(Date.now() + 2000).toUTCString() } }),
      ];
      const http = await startHttpServer(() => {
        arrivedAt.push(performance.now());
        const answer = (answers[arrivedAt.length - 1] ?? ((): Reply => ({ status: 404 })))();
        sentAt.push(performance.now());
        return answer;
      });
      const url = `${http.baseUrl.replace('http:', 'ws:')}/quote/ws/v1`;
      const conn = connection({ url, WebSocketCtor: WebSocket, reconnect: { minDelayMs: 10, maxDelayMs: 5000, random: () => 0.01 } });
      const statuses: ConnectionStatus[] = [];
      const subs = new Subscription();
      subs.add(conn.status$.subscribe((st) => statuses.push(st)));
      subs.add(conn.messages$.subscribe({ error: () => undefined }));
      try {
        await within(conn.status$.pipe(filter((st) => st.type === 'connecting' && st.attempt === 3)), 10_000);
        const waits = statuses.flatMap((st) => (st.type === 'reconnecting' ? [{ delayMs: st.delayMs, cause: st.cause }] : []));
        expect(waits[0]!.cause).toMatchObject({ failure: 'http-status', httpStatus: 429, retryAfterMs: 1000 });
        expect(waits[0]!.cause.message).toBe(`connection to ${url} answered HTTP 429 to the websocket upgrade (rate limited), retry after 1000 ms`);
        expect(waits[0]!.delayMs).toBe(1000);
        const asked = (waits[1]!.cause as ConnectionClosedError).retryAfterMs!;
        expect(waits[1]!.cause).toMatchObject({ failure: 'http-status', httpStatus: 503 });
        expect(asked).toBeGreaterThan(900); // the date says a second and more (it has whole seconds)
        expect(asked).toBeLessThanOrEqual(2000);
        expect(waits[1]!.delayMs).toBe(asked);
        // measured on the server: from the answer sent to the next upgrade request (timers fire at 1 ms granularity)
        expect(arrivedAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(1000 - 1);
        expect(arrivedAt[2]! - sentAt[1]!).toBeGreaterThanOrEqual(asked - 1);
        // without Retry-After (the 404): the backoff alone
        expect(waits[2]!.cause).toMatchObject({ failure: 'http-status', httpStatus: 404 });
        expect((waits[2]!.cause as ConnectionClosedError).retryAfterMs).toBeUndefined();
        expect(waits[2]!.delayMs).toBeLessThan(10);
      } finally {
        subs.unsubscribe();
        await http.close();
      }
    });

    it('tells a connection reset before the upgrade was answered', async () => {
      const port = await freePort();
      const proxy = await startTcpProxy(port);
      proxy.refuse(true); // accepted, then destroyed at once
      try {
        const e = await failureOf(`ws://127.0.0.1:${proxy.port}/quote/ws/v1`);
        expect(e).toMatchObject({ failure: 'reset', errorCode: 'ECONNRESET' });
        expect((e as Error).message).toMatch(/^connection to ws:\/\/127\.0\.0\.1:\d+\/quote\/ws\/v1 was reset before the websocket opened/);
      } finally {
        await proxy.close();
      }
    });

    it('tells a peer that breaks the websocket protocol after the open: protocol, with the ws error code', async () => {
      // A raw server: a correct handshake, then a frame with a reserved opcode (3).
      const sockets = new Set<Socket>();
      const server: Server = createServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.once('data', (head: Buffer) => {
          const key = /sec-websocket-key: *(\S+)/i.exec(head.toString('latin1'))?.[1] ?? '';
          const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
          const answer = `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`;
          socket.write(Buffer.concat([Buffer.from(answer, 'latin1'), Buffer.from([0x83, 0x00])]));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/quote/ws/v1`;
        const e = await failureOf(url);
        expect(e).toMatchObject({ failure: 'protocol', errorCode: 'WS_ERR_INVALID_OPCODE', address: url });
        expect((e as Error).message).toBe(`connection to ${url} closed (code 1006): protocol error: Invalid WebSocket frame: invalid opcode 3`);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('ends with a ConfigError (not retried) on an address the runtime cannot use, without the key', async () => {
      const conn = connection({ url: `ftp://127.0.0.1:1/api/v1/ws/${LISTEN_KEY}`, WebSocketCtor: WebSocket });
      const e = await lastValueFrom(conn.messages$.pipe(timeout(5000))).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ConfigError);
      expect(e).toMatchObject({ option: 'url' });
      expect((e as Error).message).toMatch(/^url ftp:\/\/127\.0\.0\.1:1\/api\/v1\/ws\/\*\*\* cannot be opened as a websocket \(SyntaxError: /);
      expectNoKey(e);
      const status = await within(conn.status$);
      expect(status).toMatchObject({ type: 'closed', cause: { name: 'ConfigError' } });
    });
  });

  describe('against the simulator', () => {
    let sim: Simulator;
    let subs: Subscription;
    beforeEach(async () => {
      sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0 });
      subs = new Subscription();
    });
    afterEach(async () => {
      subs.unsubscribe();
      await sim.close();
    });

    it('tells a ws server on another path (404) on status$ while it keeps retrying', async () => {
      const url = `ws://127.0.0.1:${sim.port}/ws/v1`;
      const conn = connection({ url, WebSocketCtor: WebSocket, reconnect: { minDelayMs: 10, maxDelayMs: 20 } });
      subs.add(conn.messages$.subscribe({ error: () => undefined }));
      const reconnecting = (await within(
        conn.status$.pipe(filter((s) => s.type === 'reconnecting' && s.attempt >= 2)),
      )) as Extract<ConnectionStatus, { type: 'reconnecting' }>;
      expect(reconnecting.cause).toBeInstanceOf(ConnectionClosedError);
      expect(reconnecting.cause).toMatchObject({ failure: 'http-status', httpStatus: 404, address: url });
      expect(reconnecting.cause.message).toBe(`connection to ${url} answered HTTP 404 to the websocket upgrade (wrong path?)`);
    });

    it("tells the private URL given to marketStreams: the simulator's /api/v1/ws answers 404", async () => {
      const market = marketStreams({ url: sim.privateStreamUrl, WebSocketCtor: WebSocket, connection: { reconnect: { minDelayMs: 10, maxDelayMs: 20 } } });
      subs.add(market.trades('BTCUSDT').subscribe({ error: () => undefined }));
      const e = await within(market.errors$.pipe(filter((x) => x instanceof ConnectionClosedError)));
      expect(e).toMatchObject({ failure: 'http-status', httpStatus: 404, address: sim.privateStreamUrl });
      expect(e.message).toBe(`connection to ${sim.privateStreamUrl} answered HTTP 404 to the websocket upgrade (wrong path?)`);
    });

    it('keeps the plain error when an open socket is closed by the peer (its code and reason are the word)', async () => {
      const conn = connection({ url: `${sim.privateStreamUrl}/${LISTEN_KEY}`, WebSocketCtor: WebSocket, reconnect: false });
      const e = await lastValueFrom(conn.messages$.pipe(timeout(5000))).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ConnectionClosedError);
      expect(e).toMatchObject({ code: 4001 });
      expect((e as ConnectionClosedError).failure).toBeUndefined();
      expect((e as Error).message).toMatch(/^connection closed \(code 4001, [^)]*\)$/);
      expectNoKey(e);
    });

    it('browser-shaped socket: the empty error event adds nothing, the close event is used (before open: closed, with the address)', async () => {
      const port = await freePort();
      const url = `ws://127.0.0.1:${port}/api/v1/ws/${LISTEN_KEY}`;
      const e = await failureOf(url, BrowserShapedSocket);
      expect(e).toBeInstanceOf(ConnectionClosedError);
      expect(e).toMatchObject({ code: 1006, failure: 'closed', address: `ws://127.0.0.1:${port}/api/v1/ws/***` });
      expect((e as ConnectionClosedError).errorCode).toBeUndefined();
      expect((e as Error).message).toBe(
        `connection to ws://127.0.0.1:${port}/api/v1/ws/*** closed before the websocket opened ` +
          '(code 1006; no reason given: refused, unreachable or not a websocket endpoint)',
      );
      expectNoKey(e);
    });

    it('browser-shaped socket: a close after open keeps the plain error with the close code and reason', async () => {
      const e = await failureOf(`${sim.privateStreamUrl}/${LISTEN_KEY}`, BrowserShapedSocket);
      expect(e).toMatchObject({ code: 4001 });
      expect((e as ConnectionClosedError).failure).toBeUndefined();
      expectNoKey(e);
    });
  });
});
