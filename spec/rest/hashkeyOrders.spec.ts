import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient, RestClientConfig } from '../../lib/rest/types';
import { BatchOutcomeUnknownError, ConfigError, OrderOutcomeUnknownError, RateLimitedError, RequestRejectedError } from '../../lib/errors';
import type { NewOrderRequest } from '../../lib/rest/callTypes';
import { signatureIsValid, startHttpServer, type RecordedRequest, type Reply, type TestHttpServer } from '../helpers/httpServer';

/** What `promise` rejects with (the test fails when it resolves). */
const thrown = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('resolved');
    },
    (e: unknown) => e,
  );

const SECRET = 'hashkey-orders-spec-secret';
const API_KEY = 'hashkey-orders-spec-key';

/** HashKey "Create Order v1.1" (and v1.0), response example (hashkey docs, Order Management). */
const CREATE_ORDER_ANSWER = {
  accountId: '1464567707961719552',
  symbol: 'ETHUSD',
  symbolName: 'ETHUSD',
  clientOrderId: '99999888905',
  orderId: '1563277167764290304',
  transactTime: '1701093160541',
  price: '1900',
  origQty: '0.03',
  executedQty: '0',
  status: 'NEW',
  timeInForce: 'GTC',
  type: 'LIMIT',
  side: 'BUY',
  reqAmount: '0',
  concentration: '',
};

/**
 * HashKey "Create Multiple orders by Symbol v1.1", response example (two orders placed), with a third item as an
 * order refused (shape of the documented `-code` / `-msg` fields).
 */
const batchAnswer = (ids: readonly string[]) => ({
  code: 0,
  result: [
    { code: '0000', order: { accountId: '1464567707961719552', symbol: 'BTCUSD', symbolName: 'BTCUSD', clientOrderId: ids[0], orderId: '1563289422480390912', transactTime: '1701094621417', price: '35000', origQty: '0.01', executedQty: '0', status: 'NEW', timeInForce: 'GTC', type: 'LIMIT', side: 'SELL', reqAmount: '0' } },
    { code: '0000', order: { accountId: '1464567707961719552', symbol: 'BTCUSD', symbolName: 'BTCUSD', clientOrderId: ids[1], orderId: '1563289422622997248', transactTime: '1701094621434', price: '35000', origQty: '0.01', executedQty: '0', status: 'NEW', timeInForce: 'GTC', type: 'LIMIT', side: 'SELL', reqAmount: '0' } },
    { code: '-1141', msg: 'Duplicate clientOrderId' },
  ],
  concentration: '',
});

describe('HashKey orders on the wire (own HTTP server, payloads from HashKey documentation)', () => {
  let server: TestHttpServer;
  let reply: (r: RecordedRequest) => Reply;
  const client = (config: Partial<RestClientConfig> = {}): RestClient =>
    restClient({ baseUrl: server.baseUrl, apiKey: API_KEY, secretKey: SECRET, serverTimeOffsetMs: () => 0, ...config });
  beforeEach(async () => {
    reply = () => ({ status: 200, body: CREATE_ORDER_ANSWER });
    server = await startHttpServer((r) => reply(r));
  });
  afterEach(() => server.close());
  const form = (r: RecordedRequest): Record<string, string> => Object.fromEntries(new URLSearchParams(r.rawBody));

  describe('placement paths', () => {
    it('places through /api/v1.1/spot/order by default: quantity (base) and amount (quote) as given, stpMode sent', async () => {
      const rest = client();
      await firstValueFrom(rest.newOrder({ symbol: 'ETHUSD', side: 'BUY', type: 'LIMIT', price: '1900', quantity: '0.03', stpMode: 'EXPIRE_MAKER', newClientOrderId: 'a1' }));
      await firstValueFrom(rest.newOrder({ symbol: 'ETHUSD', side: 'BUY', type: 'MARKET', amount: '1000', newClientOrderId: 'a2' }));
      await firstValueFrom(rest.newOrder({ symbol: 'ETHUSD', side: 'BUY', type: 'MARKET', quantity: '0.5', newClientOrderId: 'a3' }));
      expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill('POST /api/v1.1/spot/order'));
      const [limit, byAmount, byQuantity] = server.requests.map(form);
      expect(limit).toMatchObject({ type: 'LIMIT', price: '1900', quantity: '0.03', stpMode: 'EXPIRE_MAKER' });
      expect(byAmount).toMatchObject({ type: 'MARKET', side: 'BUY', amount: '1000' });
      expect(byAmount).not.toHaveProperty('quantity');
      expect(byQuantity).toMatchObject({ type: 'MARKET', side: 'BUY', quantity: '0.5' });
      expect(byQuantity).not.toHaveProperty('amount');
      expect(server.requests.every((r) => signatureIsValid(SECRET, r) && r.rawQuery === '')).toBe(true);
    });

    it("v1: a MARKET BUY by amount goes as v1's quantity (the quote amount); amount is never sent there", async () => {
      const rest = client({ placementPath: 'v1' });
      await firstValueFrom(rest.newOrder({ symbol: 'ETHUSD', side: 'BUY', type: 'MARKET', amount: '1000', newClientOrderId: 'b1' }));
      await firstValueFrom(rest.newOrder({ symbol: 'ETHUSD', side: 'SELL', type: 'MARKET', quantity: '0.5', newClientOrderId: 'b2' }));
      await firstValueFrom(rest.newOrder({ symbol: 'ETHUSD', side: 'BUY', type: 'LIMIT', price: '1900', quantity: '0.03', newClientOrderId: 'b3' }));
      expect(server.requests.map((r) => r.path)).toEqual(Array(3).fill('/api/v1/spot/order'));
      const [buy, sell, limit] = server.requests.map(form);
      expect(buy).toMatchObject({ type: 'MARKET', side: 'BUY', quantity: '1000' });
      expect(server.requests.some((r) => r.rawBody.includes('amount='))).toBe(false);
      expect(sell).toMatchObject({ side: 'SELL', quantity: '0.5' });
      expect(limit).toMatchObject({ quantity: '0.03', price: '1900' });
    });

    it('v1: a MARKET BUY by base quantity and a MARKET SELL by amount are refused before anything is sent (never guessed)', async () => {
      const rest = client({ placementPath: 'v1' });
      const buy = await thrown(firstValueFrom(rest.newOrder({ symbol: 'ETHUSD', side: 'BUY', type: 'MARKET', quantity: '0.5' })));
      expect(buy).toBeInstanceOf(ConfigError);
      expect(buy).toMatchObject({ option: 'quantity' });
      const sell = await thrown(firstValueFrom(rest.newOrder({ symbol: 'ETHUSD', side: 'SELL', type: 'MARKET', amount: '100' })));
      expect(sell).toMatchObject({ name: 'ConfigError', option: 'amount' });
      expect(server.requests).toHaveLength(0);
    });

    it('a MARKET order with both or neither of quantity and amount, or an unknown stpMode, is a ConfigError; nothing sent', async () => {
      const rest = client();
      const both = { symbol: 'ETHUSD', side: 'BUY', type: 'MARKET', quantity: '1', amount: '1' } as NewOrderRequest;
      await expect(firstValueFrom(rest.newOrder(both))).rejects.toMatchObject({ name: 'ConfigError', option: 'amount' });
      await expect(firstValueFrom(rest.newOrder({ symbol: 'ETHUSD', side: 'BUY', type: 'MARKET' }))).rejects.toMatchObject({ name: 'ConfigError', option: 'quantity' });
      const stp = { symbol: 'ETHUSD', side: 'BUY', type: 'LIMIT', price: '1', quantity: '1', stpMode: 'CANCEL_BOTH' } as unknown as NewOrderRequest;
      await expect(firstValueFrom(rest.newOrder(stp))).rejects.toMatchObject({ name: 'ConfigError', option: 'stpMode' });
      expect(() => client({ placementPath: 'v2' as 'v1' })).toThrow(ConfigError);
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('batchOrders', () => {
    const order = (id: string, over: Partial<NewOrderRequest> = {}): NewOrderRequest =>
      ({ symbol: 'BTCUSD', side: 'SELL', type: 'LIMIT', price: '35000', quantity: '0.01', newClientOrderId: id, ...over }) as NewOrderRequest;

    it('one JSON body, signed as query + body text; a verdict per order: placed, placed, rejected', async () => {
      reply = () => ({ status: 200, body: batchAnswer(['122455', '122433']) });
      const rest = client();
      const results = await firstValueFrom(rest.batchOrders([order('122455'), order('122433'), order('122455x')]));
      expect(results.map((r) => r.outcome)).toEqual(['placed', 'placed', 'rejected']);
      expect(results[0]).toMatchObject({ outcome: 'placed', order: { orderId: '1563289422480390912', clientOrderId: '122455', status: 'NEW' } });
      expect(results[2]).toMatchObject({ outcome: 'rejected', code: '-1141', msg: 'Duplicate clientOrderId', request: { newClientOrderId: '122455x' } });
      const r = server.requests[0]!;
      expect(server.requests).toHaveLength(1);
      expect(r).toMatchObject({ method: 'POST', path: '/api/v1.1/spot/batchOrders' });
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.rawQuery).toMatch(/^recvWindow=5000&timestamp=\d+&signature=[0-9a-f]{64}$/);
      expect(JSON.parse(r.rawBody)).toEqual([
        { symbol: 'BTCUSD', side: 'SELL', type: 'LIMIT', price: '35000', quantity: '0.01', newClientOrderId: '122455' },
        { symbol: 'BTCUSD', side: 'SELL', type: 'LIMIT', price: '35000', quantity: '0.01', newClientOrderId: '122433' },
        { symbol: 'BTCUSD', side: 'SELL', type: 'LIMIT', price: '35000', quantity: '0.01', newClientOrderId: '122455x' },
      ]);
      expect(signatureIsValid(SECRET, r)).toBe(true);
    });

    it('an item that names another order, a missing item, or an unreadable one is unknown for that order only', async () => {
      const answer = batchAnswer(['other-order', 'c2']);
      reply = () => ({ status: 200, body: { ...answer, result: [answer.result[0], { code: '0000', order: { orderId: 7 } }] } });
      const results = await firstValueFrom(client().batchOrders([order('c1'), order('c2'), order('c3')]));
      expect(results.map((r) => r.outcome)).toEqual(['unknown', 'unknown', 'unknown']);
      expect(results[0]).toMatchObject({ reason: 'its item names another order', inDoubt: { action: 'place', clientOrderId: 'c1', symbol: 'BTCUSD' } });
      expect(results[1]).toMatchObject({ reason: 'its item in the answer could not be read' });
      expect(results[2]).toMatchObject({ reason: 'the answer has no item for this order' });
    });

    it('a lost answer: every order of the batch in doubt (BatchOutcomeUnknownError), the batch sent once', async () => {
      reply = () => 'hang';
      const rest = client({ requestTimeoutMs: 200 });
      const e = await thrown(firstValueFrom(rest.batchOrders([order('d1'), order('d2')])));
      expect(e).toBeInstanceOf(BatchOutcomeUnknownError);
      const lost = e as BatchOutcomeUnknownError;
      expect(lost.orders.map((o) => o.clientOrderId)).toEqual(['d1', 'd2']);
      expect(lost.orders[0]).toMatchObject({ action: 'place', symbol: 'BTCUSD', side: 'SELL', price: '35000', quantity: '0.01' });
      expect(lost.message).toContain('2 order(s) in doubt: d1, d2');
      expect(lost.message).not.toContain(SECRET);
      expect(server.requests).toHaveLength(1);
    });

    it('a 5xx page is in doubt too; a rejection of the whole batch (4xx with a body) is definite', async () => {
      reply = () => ({ status: 502, body: '<html>Bad gateway</html>' });
      await expect(firstValueFrom(client().batchOrders([order('e1')]))).rejects.toBeInstanceOf(BatchOutcomeUnknownError);
      reply = () => ({ status: 400, body: { code: -1130, msg: 'Invalid data' } });
      const e = await thrown(firstValueFrom(client().batchOrders([order('e2')])));
      expect(e).toBeInstanceOf(RequestRejectedError);
      expect(e).not.toBeInstanceOf(BatchOutcomeUnknownError);
    });

    it('refuses locally: no order, more than 20, two symbols, a client order id twice; nothing sent', async () => {
      const rest = client();
      await expect(firstValueFrom(rest.batchOrders([]))).rejects.toMatchObject({ name: 'ConfigError', option: 'orders' });
      const many = Array.from({ length: 21 }, (_, i) => order(`m${i}`));
      await expect(firstValueFrom(rest.batchOrders(many))).rejects.toMatchObject({ name: 'ConfigError', message: expect.stringContaining('1 to 20') });
      await expect(firstValueFrom(rest.batchOrders([order('s1'), order('s2', { symbol: 'ETHUSD' })]))).rejects.toMatchObject({ option: 'orders' });
      await expect(firstValueFrom(rest.batchOrders([order('x'), order('x')]))).rejects.toMatchObject({ option: 'newClientOrderId' });
      expect(server.requests).toHaveLength(0);
      reply = () => ({ status: 200, body: { code: 0, result: many.slice(0, 20).map(() => ({ code: '-1130', msg: 'x' })) } });
      await expect(firstValueFrom(rest.batchOrders(many.slice(0, 20)))).resolves.toHaveLength(20);
    });

    it('gives each order without one a client order id of its own', async () => {
      reply = () => ({ status: 200, body: { code: 0, result: [] } });
      let n = 0;
      const rest = client({ newClientOrderId: () => `gen-${++n}` });
      const results = await firstValueFrom(rest.batchOrders([{ symbol: 'BTCUSD', side: 'BUY', type: 'MARKET', amount: '100' }, { symbol: 'BTCUSD', side: 'BUY', type: 'MARKET', amount: '200' }]));
      expect(results.map((r) => r.request.newClientOrderId)).toEqual(['gen-1', 'gen-2']);
      expect(JSON.parse(server.requests[0]!.rawBody)).toEqual([
        { symbol: 'BTCUSD', side: 'BUY', type: 'MARKET', amount: '100', newClientOrderId: 'gen-1' },
        { symbol: 'BTCUSD', side: 'BUY', type: 'MARKET', amount: '200', newClientOrderId: 'gen-2' },
      ]);
    });
  });

  describe('cancelOrdersByIds, cancelOpenOrders, orderHistory, myTradesByClientOrderId, openOrders by side', () => {
    it('cancel by ids: a result per id from the documented "certain error happened" answer', async () => {
      // HashKey "Cancel Multiple Orders By OrderId": the result lists the orders NOT cancelled.
      reply = () => ({ status: 200, body: { code: '0000', result: [{ orderId: '1507155386372816640', code: '0211' }, { orderId: '1507155487740667904', code: '0211' }] } });
      const ids = ['1507155386372816640', '1507155386372816641', '1507155487740667904'];
      const results = await firstValueFrom(client().cancelOrdersByIds(ids));
      expect(results).toEqual([
        { orderId: '1507155386372816640', outcome: 'failed', code: '0211', msg: undefined },
        { orderId: '1507155386372816641', outcome: 'accepted' },
        { orderId: '1507155487740667904', outcome: 'failed', code: '0211', msg: undefined },
      ]);
      const r = server.requests[0]!;
      expect(r).toMatchObject({ method: 'DELETE', path: '/api/v1/spot/cancelOrderByIds' });
      expect(new URLSearchParams(r.rawQuery).get('ids')).toBe(ids.join(','));
      expect(signatureIsValid(SECRET, r)).toBe(true);
    });

    it('cancel by ids: the success answer (empty result) accepts all; 0 or 101 ids and a non-id are ConfigErrors; a lost answer is in doubt', async () => {
      reply = () => ({ status: 200, body: { code: '0000', result: [] } });
      await expect(firstValueFrom(client().cancelOrdersByIds(['1', '2']))).resolves.toEqual([{ orderId: '1', outcome: 'accepted' }, { orderId: '2', outcome: 'accepted' }]);
      await expect(firstValueFrom(client().cancelOrdersByIds([]))).rejects.toMatchObject({ name: 'ConfigError', option: 'orderIds' });
      await expect(firstValueFrom(client().cancelOrdersByIds(Array.from({ length: 101 }, (_, i) => String(i + 1))))).rejects.toMatchObject({ option: 'orderIds' });
      await expect(firstValueFrom(client().cancelOrdersByIds(['1,2']))).rejects.toMatchObject({ option: 'orderIds' });
      expect(server.requests).toHaveLength(1);
      reply = () => 'hang';
      const e = await thrown(firstValueFrom(client({ requestTimeoutMs: 150 }).cancelOrdersByIds(['5', '6'])));
      expect(e).toBeInstanceOf(BatchOutcomeUnknownError);
      expect((e as BatchOutcomeUnknownError).orders).toEqual([{ action: 'cancel', orderId: '5' }, { action: 'cancel', orderId: '6' }]);
    });

    it('cancelOpenOrders needs a symbol (refused locally without one); side optional', async () => {
      // HashKey "Cancel All Open Orders by Symbol": { success: true }.
      reply = () => ({ status: 200, body: { success: true } });
      await expect(lastValueFrom(client().cancelOpenOrders({ symbol: 'BTCUSDT' }).pipe(toArray()))).resolves.toEqual([undefined]);
      await expect(firstValueFrom(client().cancelOpenOrders({ symbol: 'BTCUSDT', side: 'SELL' }))).resolves.toBeUndefined();
      const none = {} as { symbol: string };
      await expect(firstValueFrom(client().cancelOpenOrders(none))).rejects.toMatchObject({ name: 'ConfigError', option: 'symbol' });
      expect(server.requests.map((r) => r.rawQuery.replace(/&recvWindow.*/, ''))).toEqual(['symbol=BTCUSDT', 'symbol=BTCUSDT&side=SELL']);
    });

    it('orderHistory: GET /api/v1/spot/tradeOrders with its filters; the documented answer decodes', async () => {
      // HashKey "Get All Traded Orders", response example.
      reply = () => ({
        status: 200,
        body: [
          { accountId: '1464567707961719552', exchangeId: '301', symbol: 'ETHUSD', symbolName: 'ETHUSD', clientOrderId: '99999888912', orderId: '1563291927536863744', price: '1900', origQty: '1', executedQty: '0', cummulativeQuoteQty: '0', cumulativeQuoteQty: '0', avgPrice: '0', status: 'CANCELED', timeInForce: 'GTC', type: 'LIMIT', side: 'BUY', stopPrice: '0.0', icebergQty: '0.0', time: '1701094920045', updateTime: '1701094949567', isWorking: true, reqAmount: '0' },
          { accountId: '1464567707961719552', exchangeId: '301', symbol: 'ETHUSD', symbolName: 'ETHUSD', clientOrderId: '99999888911', orderId: '1563291785660336640', price: '0', origQty: '0', executedQty: '0', cummulativeQuoteQty: '0', cumulativeQuoteQty: '0', avgPrice: '0', status: 'CANCELED', timeInForce: 'IOC', type: 'MARKET', side: 'BUY', stopPrice: '0.0', icebergQty: '0.0', time: '1701094903129', updateTime: '1701094903140', isWorking: true, reqAmount: '10' },
        ],
      });
      const history = await firstValueFrom(client().orderHistory({ symbol: 'ETHUSD', side: 'BUY', startTime: 1701000000000, limit: 1000 }));
      expect(history.map((o) => [o.orderId, o.status, o.reqAmount, o.time])).toEqual([
        ['1563291927536863744', 'CANCELED', '0', 1701094920045],
        ['1563291785660336640', 'CANCELED', '10', 1701094903129],
      ]);
      const r = server.requests[0]!;
      expect(r).toMatchObject({ method: 'GET', path: '/api/v1/spot/tradeOrders' });
      expect(r.rawQuery).toMatch(/^symbol=ETHUSD&side=BUY&startTime=1701000000000&limit=1000&recvWindow=5000&timestamp=\d+&signature=/);
      await expect(firstValueFrom(client().orderHistory({ limit: 1001 }))).rejects.toMatchObject({ name: 'ConfigError', option: 'limit' });
    });

    it('myTradesByClientOrderId: GET /api/v1/account/tradesByClOrderId; the documented answer decodes (nested fee)', async () => {
      // HashKey "Get Account Trade List By CLientOrderId", response example.
      reply = () => ({
        status: 200,
        body: [{ id: '2000868574042843648', clientOrderId: '1753258121083398', ticketId: '4625196823998763008', symbol: 'BTCUSDT', symbolName: 'BTCUSDT', orderId: '2000868573824739840', matchOrderId: '0', price: '120001.01', qty: '0.001', time: '1753258121180', isBuyer: true, isMaker: false, fee: { feeCoinId: 'BTC', feeCoinName: 'BTC', fee: '0.000002' }, feeSupplementaryAmount: '0.00000634', makerRebate: '0', accountId: '1816094214250944000' }],
      });
      const trades = await firstValueFrom(client().myTradesByClientOrderId({ clientOrderId: '1753258121083398', limit: 10 }));
      expect(trades[0]).toMatchObject({ id: '2000868574042843648', clientOrderId: '1753258121083398', orderId: '2000868573824739840', price: '120001.01', qty: '0.001', time: 1753258121180, fee: { feeCoinId: 'BTC', fee: '0.000002' } });
      expect(server.requests[0]!.rawQuery).toMatch(/^clientOrderId=1753258121083398&limit=10&recvWindow/);
      await expect(firstValueFrom(client().myTradesByClientOrderId({ clientOrderId: '' }))).rejects.toMatchObject({ name: 'ConfigError', option: 'clientOrderId' });
    });

    it('openOrders takes side', async () => {
      reply = () => ({ status: 200, body: [] });
      await firstValueFrom(client().openOrders({ symbol: 'BTCUSDT', side: 'BUY' }));
      expect(server.requests[0]!.rawQuery).toMatch(/^symbol=BTCUSDT&side=BUY&recvWindow/);
    });
  });

  describe('rate limits the venue way', () => {
    // HashKey Exchange "Error Codes": 0003, HTTP 400, "Rate limit exceeded"; -1015 TOO_MANY_ORDERS of the family.
    it.each([['0003'], [-1015], ['-1015'], [-3145], ['-1193']])('HTTP 400 with code %p is a RateLimitedError waiting one minute', async (code) => {
      reply = () => ({ status: 400, body: { code, msg: 'Rate limit exceeded' } });
      const e = await thrown(firstValueFrom(client().account()));
      expect(e).toBeInstanceOf(RateLimitedError);
      expect(e).toMatchObject({ status: 400, code, retryAfterMs: 60_000, msg: 'Rate limit exceeded' });
    });

    it('a Retry-After on such an answer wins; another 400 code stays a plain rejection', async () => {
      reply = () => ({ status: 400, body: { code: '0003', msg: 'Rate limit exceeded' }, headers: { 'Retry-After': '3' } });
      await expect(firstValueFrom(client().account())).rejects.toMatchObject({ name: 'RateLimitedError', retryAfterMs: 3000 });
      reply = () => ({ status: 400, body: { code: '0001', msg: 'Required field symbol missing or invalid' } });
      const e = await thrown(firstValueFrom(client().account()));
      expect(e).toBeInstanceOf(RequestRejectedError);
      expect(e).not.toBeInstanceOf(RateLimitedError);
    });

    it('a placement refused by a rate limit is definite (no OrderOutcomeUnknownError) and is not sent again', async () => {
      reply = () => ({ status: 400, body: { code: '0003', msg: 'Rate limit exceeded' } });
      const e = await thrown(firstValueFrom(client().newOrder({ symbol: 'ETHUSD', side: 'BUY', type: 'LIMIT', price: '1900', quantity: '0.03' })));
      expect(e).toBeInstanceOf(RateLimitedError);
      expect(e).not.toBeInstanceOf(OrderOutcomeUnknownError);
      reply = () => ({ status: 429, body: { code: -1003, msg: 'Too many requests' } });
      const e429 = await thrown(firstValueFrom(client().batchOrders([{ symbol: 'ETHUSD', side: 'BUY', type: 'LIMIT', price: '1900', quantity: '0.03' }])));
      expect(e429).toMatchObject({ name: 'RateLimitedError', status: 429, retryAfterMs: 60_000 });
      expect(server.requests).toHaveLength(2);
      expect(JSON.stringify([e, e429, String(e), String(e429)])).not.toMatch(new RegExp(`${SECRET}|${API_KEY}|signature=`));
    });
  });
});
