/**
 * The `fetch` of a `restClient` given none on Node (lib/rest/defaultFetch.ts): `node:http` on the client's own
 * keep-alive agent, against a real server on 127.0.0.1. The browser build's variant gives none (the global fetch).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { defaultFetch as browserDefaultFetch } from '../../lib/rest/defaultFetch.browser';
import { OrderOutcomeUnknownError, RateLimitedError, RequestFailedError, RequestTimeoutError } from '../../lib/errors';
import { restClient } from '../../lib/rest/restClient';

const SECRET = 'a-secret-of-the-default-fetch-spec-000000000000';

interface Venue {
  readonly url: string;
  /** Requests seen: method and path. */
  readonly seen: string[];
  /** TCP connections opened by clients. */
  connections(): number;
  close(): Promise<void>;
}

async function venue(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<Venue> {
  const seen: string[] = [];
  let connections = 0;
  const server: Server = createServer({ keepAlive: true }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
      handle(req, res, body);
    });
  });
  server.keepAliveTimeout = 10_000;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void =>
  void res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(value));

const ORDER = { orderId: '1920153487203598336', clientOrderId: 'c1', symbol: 'BTCUSDT', price: '1', origQty: '1', executedQty: '0', status: 'NEW', timeInForce: 'GTC', type: 'LIMIT', side: 'BUY', transactTime: '1' };

const errorOf = (p: Promise<unknown>): Promise<Error> =>
  p.then(
    () => {
      throw new Error('expected an error');
    },
    (e: Error) => e,
  );

describe('defaultFetch (Node)', () => {
  let v: Venue | undefined;
  afterEach(async () => {
    await v?.close();
    v = undefined;
  });

  it('warm() makes one GET /api/v1/time; the orders after it go on that same connection, with no other call', async () => {
    v = await venue((req, res) => (req.url?.startsWith('/api/v1/time') ? json(res, 200, { serverTime: Date.now() }) : json(res, 200, ORDER)));
    const rest = restClient({ baseUrl: v.url, apiKey: 'k', secretKey: SECRET });
    await expect(lastValueFrom(rest.warm().pipe(toArray()))).resolves.toEqual([]);
    expect(v.seen).toEqual(['GET /api/v1/time']);
    for (let i = 0; i < 3; i++) {
      const order = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '1' }));
      expect(order.orderId).toBe('1920153487203598336');
    }
    expect(v.seen).toEqual(['GET /api/v1/time', 'POST /api/v1.1/spot/order', 'POST /api/v1.1/spot/order', 'POST /api/v1.1/spot/order']);
    expect(v.connections()).toBe(1);
  });

  it('reads the status, the text and Retry-After, and sends the headers and the body as given', async () => {
    let headers: IncomingMessage['headers'] = {};
    let sent = '';
    v = await venue((req, res, body) => {
      headers = req.headers;
      sent = body;
      json(res, 429, { code: -1003, msg: 'Too many requests' }, { 'Retry-After': '7' });
    });
    const rest = restClient({ baseUrl: v.url, apiKey: 'the-key', serverTimeOffsetMs: () => 0, secretKey: SECRET });
    const error = await errorOf(firstValueFrom(rest.request({ method: 'POST', path: '/api/v1/x', security: 'TRADE', body: { a: 'b c' } })));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(7000);
    expect(headers['x-ex-apikey']).toBe('the-key');
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(sent).toMatch(/^a=b\+c&recvWindow=5000&timestamp=\d+&signature=[0-9a-f]{64}$/);
    expect(String(error)).not.toContain(SECRET);
  });

  it('aborts a call past its deadline: RequestTimeoutError, and the server sees the connection closed', async () => {
    let closed = false;
    v = await venue((req) => req.socket.on('close', () => (closed = true)));
    const rest = restClient({ baseUrl: v.url, requestTimeoutMs: 100 });
    const error = await errorOf(firstValueFrom(rest.request({ method: 'GET', path: '/api/v1/silent' })));
    expect(error).toBeInstanceOf(RequestTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
  });

  it('a refused connection is a RequestFailedError naming ECONNREFUSED: a placement there is definite, not in doubt', async () => {
    const rest = restClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', secretKey: SECRET, serverTimeOffsetMs: () => 0 });
    const error = await errorOf(firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '1' })));
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error).not.toBeInstanceOf(OrderOutcomeUnknownError);
    expect((error as RequestFailedError).reason).toMatch(/ECONNREFUSED/);
  });

  it('an answer cut off mid-body fails the call (outcome unknown for a placement)', async () => {
    v = await venue((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"orderId":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const rest = restClient({ baseUrl: v.url, apiKey: 'k', secretKey: SECRET, serverTimeOffsetMs: () => 0 });
    const error = await errorOf(firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '1' })));
    expect(error).toBeInstanceOf(OrderOutcomeUnknownError);
  });

  it('the browser build gives none: the global fetch, looked up at call time', () => {
    expect(browserDefaultFetch()).toBeUndefined();
  });
});
