import { parseDecimal } from '../../lib/decimal/fixed';
import { accountInfo, accountTradeResponse, executionReport, isOpen, orderResponse, ticketInfo, type Order, type OrderStatus } from '../../lib/simulator/orders/order';

const d = (text: string): bigint => parseDecimal(text) ?? -1n;
const BIG_ID = 1_900_000_000_000_000_123n; // above 2^53

const order = (over: Partial<Order> = {}): Order => ({
  id: BIG_ID,
  clientOrderId: 'abc',
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price: d('30000.5'),
  qty: d('2'),
  reqAmount: 0n,
  locked: 0n,
  executed: d('0.5'),
  cumQuote: d('15000'),
  status: 'PARTIALLY_FILLED',
  createdAt: 1000,
  updatedAt: 2000,
  ...over,
});

describe('isOpen', () => {
  it.each<[OrderStatus, boolean]>([
    ['NEW', true],
    ['PARTIALLY_FILLED', true],
    ['FILLED', false],
    ['PARTIALLY_CANCELED', false],
    ['CANCELED', false],
    ['REJECTED', false],
  ])('%s is open: %s', (status, open) => {
    expect(isOpen(order({ status }))).toBe(open);
  });
});

describe('executionReport', () => {
  it('writes the order id as a bare 64-bit number literal, amounts as decimal text, the average price', () => {
    const out = executionReport(order(), 3000, { lastQty: d('0.5'), lastPrice: d('30000'), executionId: '77' });
    expect(out).toMatchObject({ kind: 'executionReport', E: 3000, id: BIG_ID.toString(), status: 'PARTIALLY_FILLED' });
    expect(out.json).toContain(`"i":${BIG_ID}`);
    const parsed = JSON.parse(out.json) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      e: 'executionReport',
      E: 3000,
      s: 'BTCUSDT',
      c: 'abc',
      S: 'BUY',
      o: 'LIMIT',
      f: 'GTC',
      q: '2',
      p: '30000.5',
      X: 'PARTIALLY_FILLED',
      d: '77',
      l: '0.5',
      r: '1.5',
      z: '0.5',
      L: '30000',
      V: '30000',
      Z: '15000',
      w: true,
      O: 1000,
      U: 2000,
      x: 'NONE',
      N: null,
    });
  });

  it('writes the order type, time in force and requested amount of the order (a market buy by amount has no quantity left)', () => {
    const market = order({ type: 'MARKET', timeInForce: 'IOC', price: 0n, qty: 0n, reqAmount: d('100.5'), status: 'FILLED' });
    expect(JSON.parse(executionReport(market, 1).json)).toMatchObject({ o: 'MARKET', f: 'IOC', q: '0', p: '0', reqAmt: '100.5', r: '0', z: '0.5' });
    expect(JSON.parse(executionReport(order({ timeInForce: 'FOK' }), 1).json)).toMatchObject({ o: 'LIMIT', f: 'FOK', reqAmt: '0' });
    expect(orderResponse(market, 'acc')).toMatchObject({ type: 'MARKET', timeInForce: 'IOC', origQty: '0', price: '0', reqAmount: '100.5' });
  });

  it('writes a numeric client order id as a number literal, other ids as text', () => {
    expect(executionReport(order({ clientOrderId: '12345678901234567890' }), 1).json).toContain('"c":12345678901234567890,');
    expect(executionReport(order({ clientOrderId: '0123' }), 1).json).toContain('"c":"0123"');
    expect(executionReport(order({ clientOrderId: '' }), 1).json).toContain('"c":""');
  });

  it('defaults the fill details (nothing filled now, no execution id, reason NONE) and says a closed order is not working', () => {
    const parsed = JSON.parse(executionReport(order({ status: 'CANCELED', executed: 0n, cumQuote: 0n }), 1, { reason: 'USER_CANCEL' }).json) as Record<string, unknown>;
    expect(parsed).toMatchObject({ d: '', l: '0', L: '0', V: '0', w: false, x: 'USER_CANCEL', X: 'CANCELED' });
  });
});

describe('ticketInfo', () => {
  it('writes ids and times as text, and the fill of the order', () => {
    const out = ticketInfo(order({ side: 'SELL' }), 4000, { ticketId: 5n, matchOrderId: BIG_ID + 1n, price: d('29999'), qty: d('0.25'), maker: true }, 'acc');
    expect(out).toEqual({ kind: 'ticketInfo', E: 4000, id: '5', json: expect.any(String) });
    expect(JSON.parse(out.json)).toEqual({
      e: 'ticketInfo',
      E: '4000',
      s: 'BTCUSDT',
      q: '0.25',
      t: '4000',
      p: '29999',
      T: '5',
      o: BIG_ID.toString(),
      c: 'abc',
      O: (BIG_ID + 1n).toString(),
      a: 'acc',
      A: 0,
      m: true,
      S: 'SELL',
    });
  });
});

describe('accountInfo', () => {
  it('lists the given balances as decimal text', () => {
    const out = accountInfo(7, [
      { asset: 'BTC', free: d('1.5'), locked: 0n },
      { asset: 'USDT', free: 0n, locked: d('10') },
    ]);
    expect(out).toMatchObject({ kind: 'outboundAccountInfo', E: 7, id: '' });
    expect(JSON.parse(out.json)).toEqual({
      e: 'outboundAccountInfo',
      E: 7,
      T: true,
      W: true,
      D: true,
      B: [
        { a: 'BTC', f: '1.5', l: '0' },
        { a: 'USDT', f: '0', l: '10' },
      ],
    });
  });
});

describe('orderResponse', () => {
  it('gives ids, times and amounts as text, and whether the order is working', () => {
    expect(orderResponse(order(), 'acc')).toMatchObject({
      accountId: 'acc',
      exchangeId: '301',
      symbol: 'BTCUSDT',
      clientOrderId: 'abc',
      orderId: BIG_ID.toString(),
      price: '30000.5',
      origQty: '2',
      executedQty: '0.5',
      cumulativeQuoteQty: '15000',
      avgPrice: '30000',
      status: 'PARTIALLY_FILLED',
      side: 'BUY',
      time: '1000',
      updateTime: '2000',
      isWorking: true,
    });
    expect(orderResponse(order({ status: 'FILLED', executed: 0n }), 'acc')).toMatchObject({ isWorking: false, avgPrice: '0' });
  });
});

describe('accountTradeResponse', () => {
  it('gives one fill with ids and time as text, buyer and maker flags', () => {
    const fill = { ticketId: 9n, order: order({ side: 'SELL' }), matchOrderId: 8n, price: d('1.25'), qty: d('3'), maker: false, time: 55 };
    expect(accountTradeResponse(fill, 'acc')).toEqual({
      id: '9',
      ticketId: '9',
      orderId: BIG_ID.toString(),
      matchOrderId: '8',
      clientOrderId: 'abc',
      accountId: 'acc',
      symbol: 'BTCUSDT',
      symbolName: 'BTCUSDT',
      price: '1.25',
      qty: '3',
      commission: '0',
      commissionAsset: '',
      time: '55',
      isBuyer: false,
      isMaker: false,
    });
  });
});
