import { firstValueFrom } from 'rxjs';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { Simulator } from '../../lib/simulator';
import { hashkey } from '../../lib/venue/hashkeyVenues';
import { RateLimitedError, RequestRejectedError } from '../../lib/errors';

/** The simulator behind HashKey's order calls, through the client on real sockets (a HK preset aimed at it). */
describe('startSimulator: HashKey order calls (v1.1 and v1 placement, batch, cancel by ids, history, rate-limit codes)', () => {
  let sim: Simulator;
  let rest: RestClient;
  const start = async (options: Parameters<typeof startSimulator>[0] = {}): Promise<void> => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0, seed: 7, apiKeyHeader: 'X-HK-APIKEY', balances: { USDT: '1000000', BTC: '100' }, recordTraffic: true, ...options });
    rest = restClient({ venue: { ...hashkey.hk.sandbox, restUrl: sim.baseUrl }, rateLimit: {}, apiKey: sim.apiKey, secretKey: sim.secretKey });
  };
  afterEach(() => sim.close());
  const best = async (): Promise<{ ask: number }> => {
    const book = await firstValueFrom(rest.depth({ symbol: 'BTCUSDT', limit: 1 }));
    return { ask: Number(book.a[0]![0]) };
  };

  it('v1.1 (default): a MARKET BUY by quantity buys that base quantity; by amount spends that quote amount', async () => {
    await start();
    const byQuantity = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' }));
    expect(byQuantity).toMatchObject({ status: 'FILLED', executedQty: '0.01' });
    const byAmount = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: '100' }));
    expect(byAmount).toMatchObject({ status: 'FILLED', reqAmount: '100' });
    expect(Number(byAmount.cumulativeQuoteQty)).toBeLessThanOrEqual(100);
    expect(sim.traffic().requests.filter((r) => r.method === 'POST').map((r) => r.url.split('?')[0])).toEqual(['/api/v1.1/spot/order', '/api/v1.1/spot/order']);
  });

  it('v1.1 answers a resting order with the fields and status of HashKey\'s documented answer (NEW), the stream PENDING_NEW then NEW', async () => {
    // HashKey Exchange, "Create Order v1.1" (https://hashkeypro-apidoc.readme.io/reference/create-order-v1-1),
    // "Response Content": the rows and their "Example values" as far as they were read (the rows after status were not).
    const documented = {
      accountId: '1467298646903017216',
      symbol: 'BTCUSD',
      symbolName: 'BTCUSD',
      clientOrderId: '1690084460710352',
      orderId: '1470929500342690304',
      transactTime: '1690084460716',
      price: '28000',
      origQty: '0.01',
      executedQty: '0',
      status: 'NEW',
    };
    await start();
    const answer = await firstValueFrom(
      rest.request<Record<string, unknown>>({
        method: 'POST',
        path: '/api/v1.1/spot/order',
        security: 'TRADE',
        body: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.01', newClientOrderId: 'doc-1' },
      }),
    );
    // transactTime is not in the simulator's answer (it gives time / updateTime, as the order query does)
    const { transactTime: _, ...rows } = documented;
    expect(Object.keys(answer)).toEqual(expect.arrayContaining(Object.keys(rows)));
    expect(answer).toMatchObject({ status: documented.status, symbol: 'BTCUSDT', symbolName: 'BTCUSDT', clientOrderId: 'doc-1', price: '1', origQty: '0.01', executedQty: '0' });
    expect(typeof answer.orderId).toBe('string');
    expect(typeof answer.accountId).toBe('string');
    // the stream reports the placement as the venue does, PENDING_NEW first (the answer says NEW, as documented)
    expect(sim.sent().privateEvents.filter((e) => e.id === answer.orderId).map((e) => e.status)).toEqual(['PENDING_NEW', 'NEW']);
  });

  it("v1: the client sends a MARKET BUY by amount as v1's quantity, and the simulator reads it as the quote amount", async () => {
    await start();
    const v1 = restClient({ venue: { ...hashkey.hk.sandbox, restUrl: sim.baseUrl }, rateLimit: {}, apiKey: sim.apiKey, secretKey: sim.secretKey, placementPath: 'v1' });
    const { ask } = await best();
    const order = await firstValueFrom(v1.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: '100' }));
    expect(order).toMatchObject({ status: 'FILLED', reqAmount: '100' });
    expect(Number(order.executedQty)).toBeLessThan(100 / ask + 1e-9); // about 100 quote worth, not 100 BTC
    const raw = await firstValueFrom(
      rest.request<{ code: number }>({ method: 'POST', path: '/api/v1/spot/order', security: 'TRADE', body: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: '100' } }).pipe(),
    ).catch((e: unknown) => e);
    expect(raw).toMatchObject({ name: 'RequestRejectedError', code: -1130 }); // no amount on v1
  });

  it('batchOrders: a verdict per order (placed, rejected), one request; the orders rest in the book', async () => {
    await start();
    const results = await firstValueFrom(
      rest.batchOrders([
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5', newClientOrderId: 'bat-1' },
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1.001', quantity: '0.5', newClientOrderId: 'bat-2' },
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '2', quantity: '0.5', newClientOrderId: 'bat-3' },
      ]),
    );
    expect(results.map((r) => r.outcome)).toEqual(['placed', 'rejected', 'placed']);
    expect(results[1]).toMatchObject({ code: '-1134' }); // a price beyond the tick
    const open = await firstValueFrom(rest.openOrders({ symbol: 'BTCUSDT' }));
    expect(open.map((o) => o.clientOrderId).sort()).toEqual(['bat-1', 'bat-3']);
    expect(sim.traffic().requests.filter((r) => r.method === 'POST').length).toBe(1);
  });

  it('a batch whose answer is lost: every order in doubt, sent once; each found by its client order id', async () => {
    await start();
    sim.loseNextAnswers(1, { mode: 'reset', method: 'POST', path: '/api/v1.1/spot/batchOrders' });
    const e = await firstValueFrom(
      rest.batchOrders([
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5', newClientOrderId: 'lost-1' },
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '2', quantity: '0.5', newClientOrderId: 'lost-2' },
      ]),
    ).catch((error: unknown) => error);
    expect(e).toMatchObject({ name: 'BatchOutcomeUnknownError', orders: [{ clientOrderId: 'lost-1' }, { clientOrderId: 'lost-2' }] });
    expect(sim.traffic().requests.filter((r) => r.method === 'POST').length).toBe(1);
    await expect(firstValueFrom(rest.getOrder({ clientOrderId: 'lost-2' }))).resolves.toMatchObject({ status: 'NEW' });
  });

  it('cancelOrdersByIds: a result per id; cancel-all needs a symbol (-100012 from the venue without one)', async () => {
    await start();
    const a = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5' }));
    const b = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5' }));
    const results = await firstValueFrom(rest.cancelOrdersByIds([a.orderId, '123456789', b.orderId]));
    expect(results).toEqual([
      { orderId: a.orderId, outcome: 'accepted' },
      { orderId: '123456789', outcome: 'failed', code: '-2013', msg: undefined },
      { orderId: b.orderId, outcome: 'accepted' },
    ]);
    await expect(firstValueFrom(rest.openOrders())).resolves.toEqual([]);
    const e = await firstValueFrom(rest.request({ method: 'DELETE', path: '/api/v1/spot/openOrders', security: 'TRADE' })).catch((error: unknown) => error);
    expect(e).toBeInstanceOf(RequestRejectedError);
    expect(e).toMatchObject({ status: 400, code: -100012 });
  });

  it('orderHistory: the orders no longer open, newest first, by side; myTradesByClientOrderId: the fills of one order', async () => {
    await start();
    const resting = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5' }));
    const { ask } = await best();
    const filled = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: `${Math.ceil(ask * 2)}`, quantity: '0.01', newClientOrderId: 'taker-1' }));
    const cancelled = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '1000000', quantity: '0.01' }));
    await firstValueFrom(rest.cancelOrder({ orderId: cancelled.orderId }));
    const history = await firstValueFrom(rest.orderHistory({ symbol: 'BTCUSDT' }));
    expect(history.map((o) => [o.orderId, o.status])).toEqual([
      [cancelled.orderId, 'CANCELED'],
      [filled.orderId, 'FILLED'],
    ]);
    expect(history.some((o) => o.orderId === resting.orderId)).toBe(false);
    await expect(firstValueFrom(rest.orderHistory({ side: 'SELL' }))).resolves.toEqual([expect.objectContaining({ orderId: cancelled.orderId })]);
    const trades = await firstValueFrom(rest.myTradesByClientOrderId({ clientOrderId: 'taker-1' }));
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((t) => t.orderId === filled.orderId && t.clientOrderId === 'taker-1')).toBe(true);
    await expect(firstValueFrom(rest.myTradesByClientOrderId({ clientOrderId: 'nobody' }))).resolves.toEqual([]);
  });

  it('a rate limit answered with a body code (rateLimit.bodyCode): RateLimitedError waiting one minute, nothing placed', async () => {
    await start({ rateLimit: { maxRequests: 1, windowMs: 60_000, bodyCode: '0003' } });
    await firstValueFrom(rest.openOrders());
    const e = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5', newClientOrderId: 'limited-1' })).catch((error: unknown) => error);
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e).toMatchObject({ status: 400, code: '0003', msg: 'Rate limit exceeded', retryAfterMs: 60_000 });
    expect(sim.traffic().requests.filter((r) => r.method === 'POST').length).toBe(1);
  });

  it('rejectNextRequests with a text code and status 400 (a fault): the placement is a definite RateLimitedError, not placed', async () => {
    await start();
    await firstValueFrom(rest.account()); // the clock call first: the fault is for the placement
    sim.rejectNextRequests(1, { status: 400, code: '-1015', msg: 'Reach the rate limit .Please slow down your request speed.' });
    const e = await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1', quantity: '0.5', newClientOrderId: 'fault-1' })).catch((error: unknown) => error);
    expect(e).toMatchObject({ name: 'RateLimitedError', status: 400, code: '-1015', retryAfterMs: 60_000 });
    await expect(firstValueFrom(rest.getOrder({ clientOrderId: 'fault-1' }))).rejects.toMatchObject({ code: -2013 });
  });
});
