import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { firstValueFrom } from 'rxjs';
import {
  ConfigError,
  DecodeError,
  OrderOutcomeUnknownError,
  RequestFailedError,
  RequestRejectedError,
  RequestTimeoutError,
} from '../../lib/errors';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import { startHttpServer, type Reply, type TestHttpServer } from '../helpers/httpServer';

const SECRET = 'order-outcome-secret-0123456789';
const LIMIT = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' } as const;
const ORDER_ANSWER = {
  symbol: 'BTCUSDT', clientOrderId: 'x', orderId: '1551062936784000512', price: '30000', origQty: '0.01', executedQty: '0',
  cumulativeQuoteQty: '0', status: 'NEW', timeInForce: 'GTC', type: 'LIMIT', side: 'BUY', time: 1, updateTime: 1,
};

/** The parameters of a recorded form body. */
const formOf = (raw: string): URLSearchParams => new URLSearchParams(raw);

describe('newOrder / cancelOrder: client order ids and unknown outcomes (real HTTP on 127.0.0.1)', () => {
  let server: TestHttpServer;
  let reply: (body: URLSearchParams) => Reply;
  let rest: RestClient;
  beforeEach(async () => {
    reply = () => ({ status: 200, body: ORDER_ANSWER });
    server = await startHttpServer((r) => reply(formOf(r.rawBody || r.rawQuery)));
    rest = restClient({ baseUrl: server.baseUrl, apiKey: 'key', secretKey: SECRET, serverTimeOffsetMs: () => 0, requestTimeoutMs: 300 });
  });
  afterEach(() => server.close());

  it('sends a generated client order id when the caller gives none: 22 characters of [0-9a-z], a new one each time', async () => {
    await firstValueFrom(rest.newOrder(LIMIT));
    await firstValueFrom(rest.newOrder(LIMIT));
    const ids = server.requests.map((r) => formOf(r.rawBody).get('newClientOrderId'));
    for (const id of ids) expect(id).toMatch(/^xs[0-9a-z]{20}$/);
    expect(new Set(ids).size).toBe(2);
  });

  it("sends the caller's own id as given, and a generator of the config instead of the default", async () => {
    await firstValueFrom(rest.newOrder({ ...LIMIT, newClientOrderId: 'my-strategy-7' }));
    let n = 0;
    const tagged = restClient({ baseUrl: server.baseUrl, apiKey: 'key', secretKey: SECRET, serverTimeOffsetMs: () => 0, newClientOrderId: () => `grid${++n}` });
    await firstValueFrom(tagged.newOrder(LIMIT));
    expect(server.requests.map((r) => formOf(r.rawBody).get('newClientOrderId'))).toEqual(['my-strategy-7', 'grid1']);
  });

  it('refuses a price, quantity or amount that is not plain decimal text before sending anything', async () => {
    for (const bad of ['1e-7', '-0.01', '0x10', ' 1', 'NaN', '']) {
      await expect(firstValueFrom(rest.newOrder({ ...LIMIT, price: bad as '1' }))).rejects.toThrow(ConfigError);
    }
    await expect(firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: '1e3' as '1' }))).rejects.toThrow(/amount must be plain decimal text/);
    expect(server.requests).toEqual([]);
  });

  const unknownOf = async (call: Promise<unknown>): Promise<OrderOutcomeUnknownError> => {
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OrderOutcomeUnknownError);
    expect(error).toBeInstanceOf(RequestFailedError); // handled as "no answer" by code that knows only that
    return error as OrderOutcomeUnknownError;
  };

  it('an answer past the deadline: OrderOutcomeUnknownError with the client order id and the order, sent once', async () => {
    reply = () => 'hang';
    const error = await unknownOf(firstValueFrom(rest.newOrder(LIMIT)));
    const sentId = formOf(server.requests[0]!.rawBody).get('newClientOrderId')!;
    expect(error.order).toEqual({ action: 'place', clientOrderId: sentId, symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' });
    expect(error.underlying).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toBe(
      `POST /api/v1.1/spot/order failed: no answer within 300 ms (timed out); the order may have been placed: look it up by clientOrderId ${sentId} (BTCUSDT BUY LIMIT 0.01 @ 30000)`,
    );
    expect(error.message).not.toContain(SECRET);
    expect(server.requests).toHaveLength(1); // never resent
  });

  it('a gateway 502 page, a service 503, and the service\'s "execution status unknown" codes: unknown', async () => {
    const cases: Reply[] = [
      { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', headers: { 'Content-Type': 'text/html' } },
      { status: 503, body: { code: -1001, msg: 'Internal error.' } },
      { status: 400, body: { code: -1007, msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.' } },
      { status: 400, body: { code: '-1006', msg: 'An unexpected response was received from the message bus. Execution status unknown.' } },
    ];
    for (const c of cases) {
      reply = () => c;
      const error = await unknownOf(firstValueFrom(rest.newOrder(LIMIT)));
      expect(error.underlying).toBeInstanceOf(RequestRejectedError);
    }
    expect(server.requests).toHaveLength(cases.length);
  });

  it('a success answer that cannot be read: unknown (the order was taken)', async () => {
    reply = () => ({ status: 200, body: 'OK' });
    const error = await unknownOf(firstValueFrom(rest.newOrder(LIMIT)));
    expect(error.underlying).toBeInstanceOf(DecodeError);
  });

  it("the service's rejection with its error body is definite: a RequestRejectedError, not unknown", async () => {
    reply = () => ({ status: 400, body: { code: -1134, msg: 'Order price decimal too long,please check general broker info.' } });
    const error = await firstValueFrom(rest.newOrder(LIMIT)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestRejectedError);
    expect(error).not.toBeInstanceOf(OrderOutcomeUnknownError);
    reply = () => ({ status: 429, body: { code: -1003, msg: 'Too many requests.' }, headers: { 'Retry-After': '1' } });
    expect(await firstValueFrom(rest.newOrder(LIMIT)).catch((e: unknown) => e)).not.toBeInstanceOf(OrderOutcomeUnknownError);
  });

  it('a cancel whose answer is lost: unknown, naming the order it cancels', async () => {
    reply = () => 'hang';
    const error = await unknownOf(firstValueFrom(rest.cancelOrder({ orderId: '1551062936784000512' })));
    expect(error.order).toEqual({ action: 'cancel', orderId: '1551062936784000512' });
    expect(error.message).toMatch(/the order may have been cancelled: look up orderId 1551062936784000512$/);
  });

  it('getOrder by client order id sends origClientOrderId (the service\'s name for it)', async () => {
    await firstValueFrom(rest.getOrder({ clientOrderId: 'my-1' }));
    expect(server.requests[0]!.rawQuery).toMatch(/^origClientOrderId=my-1&recvWindow=5000&timestamp=\d+&signature=[0-9a-f]{64}$/);
  });
});

describe('newOrder: a connection reset after the request arrived (real TCP on 127.0.0.1)', () => {
  let server: Server;
  const sockets = new Set<Socket>();
  const bodies: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      // The request is read whole (the order "placed"), then the connection is destroyed: no answer at all.
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.socket?.destroy();
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is an OrderOutcomeUnknownError (not a plain RequestFailedError) and is not resent', async () => {
    const { port } = server.address() as AddressInfo;
    const rest = restClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'key', secretKey: SECRET, serverTimeOffsetMs: () => 0 });
    const error = await firstValueFrom(rest.newOrder(LIMIT)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrderOutcomeUnknownError);
    expect((error as OrderOutcomeUnknownError).order.clientOrderId).toBe(new URLSearchParams(bodies[0]).get('newClientOrderId'));
    expect(bodies).toHaveLength(1);
  });

  it('a refused connection sent nothing: a plain RequestFailedError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const rest = restClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'key', secretKey: SECRET, serverTimeOffsetMs: () => 0 });
    const error = await firstValueFrom(rest.newOrder(LIMIT)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error).not.toBeInstanceOf(OrderOutcomeUnknownError);
  });
});
