import { manualClock, startSimulator, type Simulator } from '../../lib/simulator';
import { call, signedCall } from './helpers';

const T0 = 1_700_000_000_000;
const ORDER = '/api/v1/spot/order';
const ORDER_V1_1 = '/api/v1.1/spot/order';
const TEST = '/api/v1/spot/orderTest';
const RULES = { minPrice: '100', maxPrice: '100000', minQty: '0.001', maxQty: '5', minNotional: '10', minAmount: '20', maxAmount: '50000' };

describe('startSimulator: symbol rules on order placement', () => {
  let sim: Simulator;

  const post = (path: string, params: string) => signedCall(sim, { method: 'POST', path, body: params, signatureIn: 'body' });
  const limit = (price: string, quantity: string, extra = '') => `symbol=BTCUSDT&side=BUY&type=LIMIT&price=${price}&quantity=${quantity}${extra}`;

  beforeEach(async () => {
    sim = await startSimulator({ clock: manualClock(T0), marketStepMs: 0, symbols: ['BTCUSDT', 'ETHBTC'], symbolRules: { BTCUSDT: RULES } });
  });
  afterEach(() => sim.close());

  it('publishes the rules it enforces in exchangeInfo, per symbol, as decimal text', async () => {
    const info = await call(sim, { path: '/api/v1/exchangeInfo', signatureIn: 'none', apiKey: null });
    const filters = Object.fromEntries(info.body.symbols.map((s: { symbol: string; filters: unknown }) => [s.symbol, s.filters]));
    expect(filters.BTCUSDT).toEqual([
      { filterType: 'PRICE_FILTER', minPrice: '100', maxPrice: '100000', tickSize: '0.01' },
      { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '5', stepSize: '0.0001' },
      { filterType: 'MIN_NOTIONAL', minNotional: '10' },
      { filterType: 'TRADE_AMOUNT', minAmount: '20', maxAmount: '50000' },
    ]);
    expect(filters.ETHBTC).toEqual([
      { filterType: 'PRICE_FILTER', minPrice: '0.000001', maxPrice: '100000000', tickSize: '0.000001' },
      { filterType: 'LOT_SIZE', minQty: '0.0001', maxQty: '100000000', stepSize: '0.0001' },
      { filterType: 'MIN_NOTIONAL', minNotional: '0' },
      { filterType: 'TRADE_AMOUNT', minAmount: '0', maxAmount: '100000000' },
    ]);
  });

  // HashKey's "Create Order v1.0": v1 has no `amount`, and a MARKET BUY's `quantity` is its quote amount; the test
  // order takes v1's parameters ("Test New Order": `quantity` required, no `amount`).
  describe.each([ORDER, TEST])('POST %s (v1: a MARKET BUY by quote quantity, no amount)', (path) => {
    it('reads a MARKET BUY quantity as the amount (TRADE_AMOUNT), refuses amount', async () => {
      expect((await post(path, 'symbol=BTCUSDT&side=BUY&type=MARKET&quantity=20')).status).toBe(200);
      expect((await post(path, 'symbol=BTCUSDT&side=BUY&type=MARKET&quantity=19.99')).body).toEqual({ code: -1140, msg: 'Transaction amount lower than the minimum.' });
      expect((await post(path, 'symbol=BTCUSDT&side=BUY&type=MARKET&amount=20')).body).toEqual({ code: -1130, msg: "Invalid data sent for parameter 'amount'." });
      expect((await post(path, 'symbol=BTCUSDT&side=SELL&type=MARKET&quantity=0.0009')).body.code).toBe(-1136);
      expect((await post(path, limit('30000.001', '0.01'))).body.code).toBe(-1134);
    });
  });

  describe.each([ORDER_V1_1])('POST %s', (path) => {
    it.each<[string, string, number, string]>([
      ['price one digit beyond the tick', limit('30000.001', '0.01'), -1134, 'Order price decimal too long,please check general broker info.'],
      ['price one tick below the minimum', limit('99.99', '0.2'), -1133, 'Order price lower than the minimum,please check general broker info.'],
      ['price one tick above the maximum', limit('100000.01', '0.001'), -1132, 'Order price too high.'],
      ['quantity half a step off', limit('30000', '0.00105'), -1137, 'Order quantity decimal too long.'],
      ['quantity one step below the minimum', limit('30000', '0.0009'), -1136, 'Order quantity lower than the minimum.'],
      ['quantity one step above the maximum', limit('30000', '5.0001'), -1135, 'Order quantity too large.'],
      ['notional one step below the minimum', limit('100', '0.0999'), -1140, 'Transaction amount lower than the minimum.'],
      ['market amount one tick below the minimum', 'symbol=BTCUSDT&side=BUY&type=MARKET&amount=19.99', -1140, 'Transaction amount lower than the minimum.'],
      ['market amount above the maximum', 'symbol=BTCUSDT&side=BUY&type=MARKET&amount=50000.01', -1206, 'Orders over the maximum transaction amount'],
      ['market amount beyond the tick', 'symbol=BTCUSDT&side=BUY&type=MARKET&amount=20.001', -1148, 'Market order amount decimal too long'],
      ['market quantity one step below the minimum', 'symbol=BTCUSDT&side=SELL&type=MARKET&quantity=0.0009', -1136, 'Order quantity lower than the minimum.'],
      ['market quantity and amount', 'symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.01&amount=300', -1128, 'Combination of optional parameters invalid.'],
    ])('refuses a %s with 400', async (_, params, code, msg) => {
      const r = await post(path, params);
      expect([r.status, r.body]).toEqual([400, { code, msg }]);
    });

    it.each<[string, string]>([
      ['price on the tick', limit('30000.01', '0.01')],
      ['exactly the minimum price', limit('100', '0.1')],
      ['exactly the maximum price', limit('100000', '0.001')],
      ['exactly the minimum quantity', limit('30000', '0.001')],
      ['exactly the maximum quantity', limit('100', '5')],
      ['exactly the minimum notional', limit('100', '0.1')],
      ['exactly the minimum amount', 'symbol=BTCUSDT&side=BUY&type=MARKET&amount=20'],
    ])('accepts %s', async (_, params) => {
      expect((await post(path, params)).status).toBe(200);
    });
  });

  it('refuses what it used to accept: 20000.123456 on a tick of 0.01, 0.0000001 on a step of 0.0001', async () => {
    await sim.close();
    sim = await startSimulator({ clock: manualClock(T0), marketStepMs: 0, symbols: ['BTCUSDT'] });
    expect((await post(ORDER, limit('20000.123456', '0.01'))).body.code).toBe(-1134);
    expect((await post(ORDER, limit('20000.12', '0.0000001'))).body.code).toBe(-1137);
    expect((await post(ORDER, limit('20000.12', '1.00000000000000000001'))).body.code).toBe(-1137);
    expect((await post(ORDER, limit('20000.12', '0.0001'))).body.status).toBe('NEW');
  });

  it('refuses a newClientOrderId the account already used (-1141), placing nothing; a new one is fine', async () => {
    const first = await post(ORDER, limit('1000', '0.01', '&newClientOrderId=dup-1'));
    expect(first.body).toMatchObject({ status: 'NEW', clientOrderId: 'dup-1' });
    await signedCall(sim, { method: 'DELETE', path: ORDER, query: 'clientOrderId=dup-1' });
    for (const path of [ORDER, TEST]) {
      expect(await post(path, limit('1000', '0.01', '&newClientOrderId=dup-1'))).toMatchObject({ status: 400, body: { code: -1141, msg: 'Duplicate clientOrderId' } });
    }
    expect((await post(ORDER, limit('1000', '0.01', '&newClientOrderId=dup-2'))).body.orderId).toBe('1900000000000000002');
    const open = await signedCall(sim, { path: '/api/v1/spot/openOrders' });
    expect(open.body.map((o: { clientOrderId: string }) => o.clientOrderId)).toEqual(['dup-2']);
  });

  it('refuses before anything happens: no order id used, no event, no balance moved', async () => {
    expect((await post(ORDER, limit('99.99', '1'))).status).toBe(400);
    expect(sim.sent().privateEvents).toEqual([]);
    const placed = await post(ORDER, limit('1000', '0.01'));
    expect(placed.body.orderId).toBe('1900000000000000001');
  });
});
