// Orders that finish while the private stream is dead, silent or refused: placeOrder, cancelOrder and orders$ end
// with the service's final state (real sockets against the simulator).
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { filter, firstValueFrom, lastValueFrom, takeWhile, toArray, type Subscription } from 'rxjs';
import { OrderMismatchError } from '../../lib/errors';
import { WebSocket } from 'ws';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import type { Simulator } from '../../lib/simulator';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import type { OrderState } from '../../lib/user/orderState';
import type { OrdersState } from '../../lib/user/ordersState';
import type { StateSync } from '../../lib/user/stateSync';
import { userStream, type UserStream } from '../../lib/user/userStream';
import { until } from '../helpers/until';
import { connectionOf } from '../user/fixtures';

/** A BUY far below the market: rests on the book until a trade at 1 crosses it. */
const RESTING = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5' } as const;

describe('orders across gaps of the private stream (simulator, real sockets)', () => {
  let sim: Simulator;
  let rest: RestClient;
  let user: UserStream;
  let latest: (OrdersState & StateSync) | undefined;
  const subs: Subscription[] = [];

  const start = async (url = sim.privateStreamUrl, waitOpen = true, baseUrl = sim.baseUrl): Promise<void> => {
    rest = restClient({ baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
    user = userStream({
      url,
      rest,
      WebSocketCtor: WebSocket as unknown as WebSocketCtor,
      connection: { reconnect: { minDelayMs: 20, maxDelayMs: 200 }, pingIntervalMs: 200, heartbeatTimeoutMs: 600 },
      listenKeyOptions: { retryDelayMs: 20, maxRetryDelayMs: 200 },
    });
    subs.push(user.orders$.subscribe((o) => (latest = o)));
    if (process.env.GAP_DEBUG) {
      subs.push(user.status$.subscribe((st) => console.log(Date.now() % 100000, 'status', st.connection.type, st.authoritative)));
      subs.push(user.errors$.subscribe((e) => console.log(Date.now() % 100000, 'error', e.name, e.message)));
      subs.push(user.orders$.subscribe((o) => console.log(Date.now() % 100000, 'orders', o.authoritative, o.reconciling, JSON.stringify(o.inDoubt), [...o.values()].map((x) => `${x.clientOrderId}:${x.status}`).join(','))));
    }
    if (waitOpen) await firstValueFrom(connectionOf(user).pipe(filter((s) => s.type === 'open')));
  };
  const follow = (states: OrderState[], done: { ended?: boolean; error?: unknown }) => ({
    next: (s: OrderState) => states.push(s),
    error: (e: unknown) => {
      done.error = e;
      done.ended = true;
    },
    complete: () => (done.ended = true),
  });
  const authoritativeWith = (clientOrderId: string, status: string) =>
    firstValueFrom(user.orders$.pipe(filter((o) => o.authoritative && [...o.values()].some((s) => s.clientOrderId === clientOrderId && s.status === status))));

  beforeEach(async () => {
    latest = undefined;
    sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0, seed: 7, recordTraffic: true });
  });
  afterEach(async () => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    sim.resume();
    await sim.close();
  });

  it('an order filled while the socket is half-open: placeOrder ends FILLED, orders$ holds it FILLED when authoritative', async () => {
    await start();
    const states: OrderState[] = [];
    const done: { ended?: boolean; error?: unknown } = {};
    // Half-open before the placement: its NEW push is lost too, the REST answer alone says NEW.
    expect(sim.halfOpen({ stream: 'private', durationMs: 1500 })).toBeGreaterThan(0);
    subs.push(user.placeOrder({ ...RESTING, newClientOrderId: 'gap-half-1' }, { lookupDelayMs: 50 }).subscribe(follow(states, done)));
    await until(() => states.length > 0, 'the first state');
    expect(states[0]!.status).toBe('NEW');
    sim.injectTrade({ symbol: 'BTCUSDT', price: '1', quantity: '1' });
    await until(() => done.ended === true, 'placeOrder to end', 15_000);
    expect(done.error).toBeUndefined();
    expect(states.at(-1)?.status).toBe('FILLED');
    const orders = await authoritativeWith('gap-half-1', 'FILLED');
    expect([...orders.values()].find((o) => o.clientOrderId === 'gap-half-1')?.filledQuantity).toBe('0.5');
  }, 20_000);

  it('an order cancelled (by another client) while the stream stalls and is dropped: placeOrder ends CANCELED', async () => {
    await start();
    const states: OrderState[] = [];
    const done: { ended?: boolean; error?: unknown } = {};
    sim.stall({ stream: 'private' });
    subs.push(user.placeOrder({ ...RESTING, newClientOrderId: 'gap-stall-1' }, { lookupDelayMs: 50 }).subscribe(follow(states, done)));
    await until(() => states.length > 0, 'the first state');
    const other = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
    await firstValueFrom(other.cancelOrder({ clientOrderId: 'gap-stall-1' }));
    sim.drop({ stream: 'private' });
    sim.resume();
    await until(() => done.ended === true, 'placeOrder to end', 15_000);
    expect(done.error).toBeUndefined();
    expect(states.at(-1)?.status).toBe('CANCELED');
    await authoritativeWith('gap-stall-1', 'CANCELED');
  }, 20_000);

  it('cancelOrder answered CANCELED before a gap: orders$ keeps the order CANCELED after it', async () => {
    await start();
    const rested = await firstValueFrom(user.placeOrder({ ...RESTING, newClientOrderId: 'gap-cancel-1' }).pipe(takeWhile((s) => s.status !== 'NEW', true), toArray()));
    // PENDING_NEW (the stream's first report) then NEW; the answer (NEW) may overtake PENDING_NEW, which then is not shown
    expect([['PENDING_NEW', 'NEW'], ['NEW']]).toContainEqual(rested.map((s) => s.status));
    const placed = rested.at(-1)!;
    sim.stall({ stream: 'private' }); // the cancel's report is never pushed
    const final = await lastValueFrom(user.cancelOrder({ clientOrderId: 'gap-cancel-1' }).pipe(toArray()));
    expect(final.map((s) => s.status)).toEqual(['CANCELED']);
    expect(latest?.get(placed.orderId)?.status).toBe('CANCELED'); // the REST answer is folded at once
    sim.drop({ stream: 'private' });
    sim.resume();
    const orders = await authoritativeWith('gap-cancel-1', 'CANCELED');
    expect(orders.get(placed.orderId)?.status).toBe('CANCELED');
  }, 20_000);

  it('the private stream refused for the whole placement: placeOrder looks the order up and ends FILLED', async () => {
    // A stream address where nothing listens: every connection is refused.
    await start('ws://127.0.0.1:9/api/v1/ws', false);
    const states: OrderState[] = [];
    const done: { ended?: boolean; error?: unknown } = {};
    subs.push(user.placeOrder({ ...RESTING, newClientOrderId: 'gap-refused-1' }, { lookupDelayMs: 50 }).subscribe(follow(states, done)));
    await until(() => states.length > 0, 'the REST answer');
    expect(states[0]!.status).toBe('NEW');
    sim.injectTrade({ symbol: 'BTCUSDT', price: '1', quantity: '1' });
    await until(() => done.ended === true, 'placeOrder to end', 15_000);
    expect(done.error).toBeUndefined();
    expect(states.at(-1)?.status).toBe('FILLED');
    expect(latest?.authoritative).not.toBe(true);
    expect([...latest!.values()].find((o) => o.clientOrderId === 'gap-refused-1')?.status).toBe('FILLED');
  }, 20_000);

  /**
   * A gateway of our own in front of the simulator's REST: `rewrite` may replace an answer's body (the method, the
   * path and the body the simulator sent; `undefined` keeps it).
   */
  async function gateway(rewrite: (method: string, path: string, body: string) => string | undefined): Promise<{ url: string; server: Server }> {
    const target = new URL(sim.baseUrl);
    const server = createServer((req, res) => {
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const replaced = rewrite(req.method ?? '', (req.url ?? '').split('?')[0]!, body) ?? body;
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(replaced)) };
          res.writeHead(answer.statusCode ?? 502, headers).end(replaced);
        });
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  }

  it('a lookup answered with another order (other ids, FILLED) is never taken for ours: OrderMismatchError on errors$', async () => {
    let lies = 2;
    const gw = await gateway((method, path, body) => {
      if (method !== 'GET' || path !== '/api/v1/spot/order' || lies === 0) return undefined;
      lies--;
      const real = JSON.parse(body) as Record<string, unknown>;
      return JSON.stringify({ ...real, orderId: '999999999999999999', clientOrderId: 'someone-else', status: 'FILLED', executedQty: real.origQty });
    });
    try {
      // The stream is refused: the placement's answer is lost, so the order is found by lookups alone.
      await start('ws://127.0.0.1:9/api/v1/ws', false, gw.url);
      const errors: unknown[] = [];
      subs.push(user.errors$.subscribe((e) => errors.push(e)));
      sim.loseNextAnswers(1, { mode: 'reset', method: 'POST', path: '/api/v1.1/spot/order' });
      const states: OrderState[] = [];
      const done: { ended?: boolean; error?: unknown } = {};
      subs.push(user.placeOrder({ ...RESTING, newClientOrderId: 'gap-lie-1' }, { lookupDelayMs: 30 }).subscribe(follow(states, done)));
      await until(() => states.length > 0, 'the order found', 10_000);
      expect(states.every((s) => s.clientOrderId === 'gap-lie-1' && s.orderId !== '999999999999999999')).toBe(true);
      expect(states[0]!.status).toBe('NEW');
      const mismatches = errors.filter((e): e is OrderMismatchError => e instanceof OrderMismatchError);
      expect(mismatches.length).toBe(2);
      expect(mismatches[0]).toMatchObject({ source: 'lookup', expected: { clientOrderId: 'gap-lie-1' }, got: { clientOrderId: 'someone-else', orderId: '999999999999999999' } });
      expect(done.ended).not.toBe(true); // still resting: never completed on another order's FILLED
      expect(latest?.has('999999999999999999')).toBe(false);
    } finally {
      subs.splice(0).forEach((s) => s.unsubscribe());
      gw.server.closeAllConnections();
      await new Promise((resolve) => gw.server.close(resolve));
    }
  }, 20_000);

  it('a placement answered REJECTED: orders$ shows the order REJECTED too, never NEW after it', async () => {
    const gw = await gateway((method, path, body) => {
      if (method !== 'POST' || !path.endsWith('/spot/order')) return undefined;
      return JSON.stringify({ ...(JSON.parse(body) as object), status: 'REJECTED' });
    });
    try {
      await start(sim.privateStreamUrl, true, gw.url);
      const states = await lastValueFrom(user.placeOrder({ ...RESTING, newClientOrderId: 'gap-rej-1' }).pipe(toArray()));
      expect(states.at(-1)?.status).toBe('REJECTED'); // (the stream's NEW may come first)
      const seen: string[] = [];
      subs.push(user.orders$.subscribe((o) => seen.push(o.get(states[0]!.orderId)?.status ?? '-')));
      sim.drop({ stream: 'private' }); // a gap: the reconciliation finds it open at the service
      await firstValueFrom(user.orders$.pipe(filter((o) => o.authoritative && o.syncedEpoch !== undefined && o.syncedEpoch > 1)));
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((s) => s === 'REJECTED')).toBe(true);
    } finally {
      subs.splice(0).forEach((s) => s.unsubscribe());
      gw.server.closeAllConnections();
      await new Promise((resolve) => gw.server.close(resolve));
    }
  }, 20_000);
});
