import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { filter, firstValueFrom, lastValueFrom, map, toArray, type Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import {
  OrderNotPlacedError,
  OrderOutcomeUnknownError,
  OrderRuleError,
  RequestRejectedError,
} from '../../lib/errors';
import { symbolRules } from '../../lib/orders/symbolRules';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient, RestClientConfig } from '../../lib/rest/types';
import type { Simulator } from '../../lib/simulator';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import type { OrderState } from '../../lib/user/orderState';
import { userStream, type UserStream } from '../../lib/user/userStream';
import { connectionOf } from '../user/fixtures';

/** A BUY far above the market: a taker, filled at once. */
const TAKER = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1000000', quantity: '0.001' } as const;
/** A BUY far below the market: rests on the book. */
const RESTING = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5' } as const;

describe('placeOrder / cancelOrder (simulator, real sockets)', () => {
  let sim: Simulator;
  let rest: RestClient;
  let user: UserStream;
  const subs: Subscription[] = [];

  const start = async (over: Partial<RestClientConfig> = {}): Promise<void> => {
    rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey, ...over });
    user = userStream({
      url: sim.privateStreamUrl,
      rest,
      WebSocketCtor: WebSocket as unknown as WebSocketCtor,
      connection: { reconnect: { minDelayMs: 20, maxDelayMs: 100 } },
    });
    // Keep the private stream open between the calls, and wait for its first open.
    subs.push(user.orders$.subscribe());
    await firstValueFrom(connectionOf(user).pipe(filter((s) => s.type === 'open')));
  };
  const placements = (): number => sim.traffic().requests.filter((r) => r.method === 'POST' && r.url.startsWith('/api/v1.1/spot/order')).length;
  const statuses = (states: OrderState[]): string[] => states.map((s) => s.status);

  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0, seed: 5, recordTraffic: true });
  });
  afterEach(async () => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    await sim.close();
  });

  it('places with a generated client order id and follows the order to FILLED, then completes', async () => {
    await start();
    const states = await lastValueFrom(user.placeOrder(TAKER).pipe(toArray()));
    expect(statuses(states).pop()).toBe('FILLED');
    expect(states[0]!.clientOrderId).toMatch(/^xs[0-9a-z]{20}$/);
    expect(new Set(states.map((s) => s.orderId)).size).toBe(1);
    expect(placements()).toBe(1);
  });

  it('a resting order: PENDING_NEW and NEW (as the venue reports them), then FILLED when a trade crosses it', async () => {
    await start();
    const states: string[] = [];
    const done = new Promise<void>((resolve, reject) =>
      subs.push(user.placeOrder({ ...RESTING, newClientOrderId: 'loop-resting-1' }).subscribe({ next: (s) => states.push(s.status), error: reject, complete: resolve })),
    );
    await firstValueFrom(user.orders$.pipe(filter((o) => [...o.values()].some((s) => s.clientOrderId === 'loop-resting-1'))));
    sim.injectTrade({ symbol: 'BTCUSDT', price: '1', quantity: '1' });
    await done;
    // The stream's PENDING_NEW is pushed before the placement is answered (NEW); should the answer overtake it on the
    // other socket, PENDING_NEW comes after NEW and is not shown (a status never goes back).
    expect([
      ['PENDING_NEW', 'NEW', 'FILLED'],
      ['NEW', 'FILLED'],
    ]).toContainEqual(states);
  });

  it('an answer lost by a reset after the order was placed: resolved from the stream, never sent again', async () => {
    await start();
    sim.loseNextAnswers(1, { mode: 'reset', method: 'POST', path: '/api/v1.1/spot/order' });
    const states = await lastValueFrom(user.placeOrder(TAKER).pipe(toArray()));
    expect(statuses(states).pop()).toBe('FILLED');
    expect(placements()).toBe(1);
  });

  it('an answer lost while the private stream is down: resolved by looking the order up by its client order id', async () => {
    await start();
    sim.stall({ stream: 'private', inbound: 'drop' });
    sim.loseNextAnswers(1, { mode: 'gateway', method: 'POST', path: '/api/v1.1/spot/order' });
    const states = await lastValueFrom(user.placeOrder(TAKER, { lookupDelayMs: 50 }).pipe(toArray()));
    expect(statuses(states)).toEqual(['FILLED']); // from the lookup: the stream is silent
    const lookups = sim.traffic().requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/v1/spot/order?'));
    expect(lookups.length).toBeGreaterThanOrEqual(1);
    expect(lookups[0]!.url).toContain(`origClientOrderId=${states[0]!.clientOrderId}`);
    expect(placements()).toBe(1);
    sim.resume();
  });

  it('an answer past the deadline of a resting order, then cancelOrder resolves to CANCELED', async () => {
    await start({ requestTimeoutMs: 300 });
    sim.loseNextAnswers(1, { mode: 'hang', method: 'POST', path: '/api/v1.1/spot/order' });
    const first = await firstValueFrom(user.placeOrder({ ...RESTING, newClientOrderId: 'loop-hang-1' }, { lookupDelayMs: 50 }));
    expect(first).toMatchObject({ clientOrderId: 'loop-hang-1', status: 'PENDING_NEW' }); // the stream's first report: the answer hangs
    const final = await lastValueFrom(user.cancelOrder({ clientOrderId: 'loop-hang-1' }).pipe(toArray()));
    expect(statuses(final)).toEqual(['CANCELED']); // the final state alone
    expect(placements()).toBe(1);
  });

  it('a placement a gateway refused without passing it on (502): OrderNotPlacedError once its recvWindow has passed', async () => {
    // A gateway of our own in front of the simulator: it answers the first placement 502 itself.
    let refused = 0;
    const gateway = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/api/v1.1/spot/order' && refused++ === 0) {
        req.resume();
        res.writeHead(502, { 'Content-Type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
        return;
      }
      const target = new URL(sim.baseUrl);
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = gateway.address() as AddressInfo;
      await start({ baseUrl: `http://127.0.0.1:${port}`, recvWindow: 300 });
      const t0 = Date.now();
      const error = await lastValueFrom(user.placeOrder(TAKER, { lookupDelayMs: 50 })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OrderNotPlacedError);
      expect((error as OrderNotPlacedError).clientOrderId).toMatch(/^xs/);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(300); // never concluded while the placement could still arrive
      expect(sim.traffic().requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/v1/spot/order?')).length).toBeGreaterThanOrEqual(1);
      expect(placements()).toBe(0);
    } finally {
      subs.splice(0).forEach((s) => s.unsubscribe());
      gateway.closeAllConnections();
      await new Promise((resolve) => gateway.close(resolve));
    }
  });

  it('the service\'s rejection is definite: a RequestRejectedError, no lookup', async () => {
    await start();
    const error = await lastValueFrom(user.placeOrder({ ...RESTING, price: '1.123456789' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestRejectedError);
    expect(error).not.toBeInstanceOf(OrderOutcomeUnknownError);
    expect(sim.traffic().requests.some((r) => r.method === 'GET' && r.url.startsWith('/api/v1/spot/order?'))).toBe(false);
  });

  it('with the symbol\'s rules, an order off the tick is refused locally: nothing is sent', async () => {
    await start();
    const rules = symbolRules(await firstValueFrom(rest.exchangeInfo()));
    const error = await lastValueFrom(user.placeOrder({ ...RESTING, price: '1.123456789' }, { rules })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrderRuleError);
    expect((error as OrderRuleError).rule).toBe('tickSize');
    expect(placements()).toBe(0);
  });

  it('a client order id reused after its order finished: never taken for the old order (the service refuses the duplicate)', async () => {
    await start();
    const first = await lastValueFrom(user.placeOrder({ ...TAKER, newClientOrderId: 'loop-reused-1' }));
    expect(first.status).toBe('FILLED');
    await firstValueFrom(user.orders$.pipe(filter((o) => o.get(first.orderId)?.status === 'FILLED')));
    const error = await lastValueFrom(user.placeOrder({ ...TAKER, newClientOrderId: 'loop-reused-1' }).pipe(toArray())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestRejectedError);
    expect((error as RequestRejectedError).code).toBe(-1141);
  });

  it('cancelOrder of an order that already filled resolves to FILLED', async () => {
    await start();
    const filled = await lastValueFrom(user.placeOrder(TAKER));
    const final = await lastValueFrom(user.cancelOrder({ orderId: filled.orderId }).pipe(map((s) => s.status), toArray()));
    expect(final).toEqual(['FILLED']);
  });

  it('a cancel whose answer is lost: resolved to CANCELED, sent once', async () => {
    await start();
    const placed = await firstValueFrom(user.placeOrder(RESTING));
    sim.loseNextAnswers(1, { mode: 'reset', method: 'DELETE', path: '/api/v1/spot/order' });
    const final = await lastValueFrom(user.cancelOrder({ orderId: placed.orderId }, { lookupDelayMs: 50 }));
    expect(final.status).toBe('CANCELED');
    expect(sim.traffic().requests.filter((r) => r.method === 'DELETE').length).toBe(1);
  });
});
