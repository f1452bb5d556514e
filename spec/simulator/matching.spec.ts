import { Account } from '../../lib/simulator/orders/account';
import { formatDecimal, mul, parseDecimal, unit } from '../../lib/decimal/fixed';
import { rejections } from '../../lib/simulator/http/httpErrors';
import { idSource, SymbolMarket } from '../../lib/simulator/market/market';
import { Matching } from '../../lib/simulator/orders/matching';
import type { PrivateEventOut } from '../../lib/simulator/streams/privateStream';
import { symbolInfo, type SymbolInfo } from '../../lib/simulator/market/symbols';

const d = (text: string): bigint => parseDecimal(text) ?? -1n;
const T0 = 1_700_000_000_000;
const TICK = unit(2);

function setup(pending: { readonly pendingNew?: boolean; readonly pendingCancel?: boolean } = {}) {
  const markets = new Map([['BTCUSDT', new SymbolMarket(symbolInfo('BTCUSDT') as SymbolInfo, 1, idSource(1n), T0)]]);
  const market = markets.get('BTCUSDT') as SymbolMarket;
  const account = new Account({ USDT: '100000', BTC: '10' });
  const published: PrivateEventOut[][] = [];
  let now = T0;
  const matching = new Matching({
    markets,
    account,
    now: () => now,
    publish: (events) => published.push([...events]),
    orderIds: idSource(100n),
    ticketIds: idSource(500n),
    matchIds: idSource(900n),
    accountId: 'acc',
    ...pending,
  });
  const json = (batch: number): Array<Record<string, unknown>> => (published[batch] ?? []).map((e) => JSON.parse(e.json) as Record<string, unknown>);
  const advance = (ms: number): void => {
    now += ms;
  };
  return { market, account, matching, published, json, advance };
}

const order = (p: Record<string, string>): ReadonlyMap<string, string> =>
  new Map(Object.entries({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '29000', ...p }).filter(([, v]) => v !== undefined));
const without = (name: string): ReadonlyMap<string, string> => {
  const m = new Map(order({}));
  m.delete(name);
  return m;
};
const body = (r: { ok: boolean; body?: object }): Record<string, unknown> => {
  if (!r.ok) throw new Error(`rejected: ${JSON.stringify(r)}`);
  return r.body as Record<string, unknown>;
};

describe('Matching.check', () => {
  it.each([
    ['symbol', without('symbol'), rejections.missingParameter('symbol')],
    ['unknown symbol', order({ symbol: 'DOGEUSDT' }), rejections.invalidSymbol],
    ['side', without('side'), rejections.missingParameter('side')],
    ['bad side', order({ side: 'HOLD' }), rejections.invalidSide],
    ['type', without('type'), rejections.missingParameter('type')],
    ['STOP type', order({ type: 'STOP' }), rejections.invalidOrderType],
    ['GTD', order({ timeInForce: 'GTD' }), rejections.invalidTimeInForce],
    ['quantity', without('quantity'), rejections.missingParameter('quantity')],
    ['zero quantity', order({ quantity: '0' }), rejections.invalidParameter('quantity')],
    ['10 decimals of quantity', order({ quantity: '0.0000000001' }), rejections.quantityTooPrecise],
    ['20 decimals of quantity', order({ quantity: '1.00000000000000000001' }), rejections.quantityTooPrecise],
    ['price', without('price'), rejections.missingParameter('price')],
    ['negative price', order({ price: '-1' }), rejections.invalidParameter('price')],
    ['price in exponent form', order({ price: '1e3' }), rejections.invalidParameter('price')],
    ['price off the tick', order({ price: '29000.001' }), rejections.priceTooPrecise],
    ['market order without quantity', order({ type: 'MARKET', quantity: undefined as unknown as string }), rejections.missingParameter('quantity')],
    ['market order with quantity and amount', order({ type: 'MARKET', amount: '100' }), rejections.parameterCombination],
  ])('rejects: %s', (_, params, rejection) => {
    expect(setup().matching.check(params)).toEqual({ ok: false, rejection });
  });

  it('accepts a LIMIT GTC order, with its client id ("" when not given)', () => {
    const { matching, market } = setup();
    expect(matching.check(order({ timeInForce: 'GTC', newClientOrderId: 'x1' }))).toEqual({
      ok: true,
      order: { market, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', qty: d('1'), price: d('29000'), amount: 0n, clientOrderId: 'x1' },
    });
    const plain = matching.check(order({}));
    expect(plain.ok && plain.order.clientOrderId).toBe('');
  });
});

describe('Matching.place', () => {
  it('rests an order that does not cross: NEW, the quote locked, a report and the balance published', () => {
    const { matching, account, published, json } = setup();
    const placed = body(matching.place(order({})));
    expect(placed).toMatchObject({ orderId: '100', status: 'NEW', clientOrderId: `${T0}100`, price: '29000', executedQty: '0' });
    expect(account.of('USDT')).toEqual({ free: d('71000'), locked: d('29000') });
    expect(published).toHaveLength(1);
    expect(json(0)).toEqual([
      expect.objectContaining({ e: 'executionReport', X: 'NEW', q: '1', p: '29000' }),
      expect.objectContaining({ e: 'outboundAccountInfo', B: [{ a: 'USDT', f: '71000', l: '29000' }] }),
    ]);
  });

  it('a SELL locks the base', () => {
    const { matching, account } = setup();
    body(matching.place(order({ side: 'SELL', price: '31000', quantity: '2.5' })));
    expect(account.of('BTC')).toEqual({ free: d('7.5'), locked: d('2.5') });
  });

  it('fills a crossing order as taker at the book prices, settles balances and records the market trade', () => {
    const { matching, account, market, json } = setup();
    const best = market.book().asks[0];
    if (best === undefined) throw new Error('empty book');
    const level = { ...best }; // the book's own level is consumed by the order
    const limit = level.price + 5n * TICK;
    const tradesBefore = market.trades.length;
    const placed = body(matching.place(order({ price: formatDecimal(limit), quantity: formatDecimal(level.qty) })));
    expect(placed).toMatchObject({ status: 'FILLED', executedQty: formatDecimal(level.qty), avgPrice: formatDecimal(level.price) });
    expect(account.of('USDT')).toEqual({ free: d('100000') - mul(level.price, level.qty), locked: 0n });
    expect(account.of('BTC')).toEqual({ free: d('10') + level.qty, locked: 0n });
    const events = json(0);
    expect(events.map((e) => e['e'])).toEqual(['executionReport', 'outboundAccountInfo', 'executionReport', 'ticketInfo', 'outboundAccountInfo']);
    expect(events[2]).toMatchObject({ X: 'FILLED', l: formatDecimal(level.qty), L: formatDecimal(level.price), d: '500' });
    expect(events[3]).toMatchObject({ T: '500', O: '900', o: '100', m: false, p: formatDecimal(level.price) });
    expect(market.trades.slice(tradesBefore).map((t) => [t.price, t.qty, t.m])).toEqual([[level.price, level.qty, false]]);
  });

  it('rejects an order the balance cannot cover, publishing a REJECTED report, and keeps nothing', () => {
    const { matching, account, json } = setup();
    expect(matching.place(order({ quantity: '4', price: '29000' }))).toEqual({ ok: false, rejection: rejections.insufficientBalance });
    expect(json(0)).toEqual([expect.objectContaining({ X: 'REJECTED', x: 'INSUFFICIENT_BALANCE' })]);
    expect(account.of('USDT')).toEqual({ free: d('100000'), locked: 0n });
    expect(matching.query(new Map([['orderId', '100']]))).toEqual({ ok: false, rejection: rejections.unknownOrder });
  });

  it('returns a check failure without publishing', () => {
    const { matching, published } = setup();
    expect(matching.place(order({ side: 'HOLD' }))).toEqual({ ok: false, rejection: rejections.invalidSide });
    expect(published).toEqual([]);
  });
});

describe('Matching.cancel and query', () => {
  it('cancels an open order by id or client id, unlocking what was left; a closed order cannot be cancelled', () => {
    const { matching, account, json, advance } = setup();
    matching.place(order({ newClientOrderId: 'mine' }));
    advance(10);
    expect(body(matching.cancel(new Map([['origClientOrderId', 'mine']])))).toMatchObject({ status: 'CANCELED', updateTime: String(T0 + 10) });
    expect(account.of('USDT')).toEqual({ free: d('100000'), locked: 0n });
    expect(json(1)).toEqual([
      expect.objectContaining({ X: 'CANCELED', x: 'USER_CANCEL' }),
      expect.objectContaining({ e: 'outboundAccountInfo' }),
    ]);
    expect(matching.cancel(new Map([['orderId', '100']]))).toEqual({ ok: false, rejection: rejections.orderCanceled });
    expect(body(matching.query(new Map([['orderId', '100']])))).toMatchObject({ status: 'CANCELED', clientOrderId: 'mine' });
    expect(body(matching.query(new Map([['clientOrderId', 'mine']])))).toMatchObject({ orderId: '100' });
  });

  it('marks a partly filled order PARTIALLY_CANCELED and unlocks only the rest', () => {
    const { matching, account, market } = setup();
    matching.place(order({ side: 'SELL', price: '31000', quantity: '2' }));
    matching.onTrades(market, [{ id: 1n, t: T0, price: d('31000'), qty: d('0.5'), m: false }]);
    expect(body(matching.cancel(new Map([['orderId', '100']])))).toMatchObject({ status: 'PARTIALLY_CANCELED', executedQty: '0.5' });
    expect(account.of('BTC')).toEqual({ free: d('9.5'), locked: 0n });
  });

  it('needs an id, and knows only its own orders', () => {
    const { matching } = setup();
    expect(matching.cancel(new Map())).toEqual({ ok: false, rejection: rejections.missingParameter('orderId') });
    expect(matching.query(new Map([['orderId', '1']]))).toEqual({ ok: false, rejection: rejections.unknownOrder });
  });
});

describe('Matching.openOrders and cancelAll', () => {
  it('lists open orders newest first, of a symbol when given, at most limit', () => {
    const { matching } = setup();
    for (const price of ['28000', '28100', '28200']) matching.place(order({ price }));
    matching.cancel(new Map([['orderId', '101']]));
    const ids = (p: Record<string, string>) => matching.openOrders(new Map(Object.entries(p))).map((o) => (o as { orderId: string }).orderId);
    expect(ids({})).toEqual(['102', '100']);
    expect(ids({ limit: '1' })).toEqual(['102']);
    expect(ids({ symbol: 'ETHUSDT' })).toEqual([]);
    expect(ids({ limit: 'many' })).toEqual(['102', '100']);
  });

  it('cancels every open order of a side, and checks symbol and side', () => {
    const { matching } = setup();
    matching.place(order({ price: '28000' }));
    matching.place(order({ side: 'SELL', price: '32000' }));
    expect(matching.cancelAll(new Map([['symbol', 'NOPEUSDT']]))).toEqual({ ok: false, rejection: rejections.invalidSymbol });
    expect(matching.cancelAll(new Map([['side', 'BOTH']]))).toEqual({ ok: false, rejection: rejections.invalidSide });
    expect(matching.cancelAll(new Map([['side', 'SELL']]))).toEqual({ ok: true, body: { success: true } });
    expect(matching.openOrders(new Map()).map((o) => (o as { side: string }).side)).toEqual(['BUY']);
    matching.cancelAll(new Map());
    expect(matching.openOrders(new Map())).toEqual([]);
  });
});

describe('Matching.onTrades', () => {
  it('fills resting orders a trade reaches, as maker at the order price, sharing the trade quantity', () => {
    const { matching, market, account, published, json } = setup();
    matching.place(order({ price: '29000', quantity: '1' }));
    matching.place(order({ price: '28000', quantity: '1' }));
    published.splice(0);
    matching.onTrades(market, [{ id: 1n, t: T0, price: d('29500'), qty: d('5'), m: true }]);
    expect(published).toEqual([[]]);
    matching.onTrades(market, [{ id: 2n, t: T0, price: d('28000'), qty: d('1.5'), m: true }]);
    const events = json(1);
    expect(events.filter((e) => e['e'] === 'executionReport').map((e) => [e['X'], e['l'], e['L']])).toEqual([
      ['FILLED', '1', '29000'],
      ['PARTIALLY_FILLED', '0.5', '28000'],
    ]);
    expect(events.filter((e) => e['e'] === 'ticketInfo').map((e) => e['m'])).toEqual([true, true]);
    // 29000 + 28000 locked at placement; 29000 + 14000 spent; 14000 still locked for the rest of the second order
    expect(account.of('USDT')).toEqual({ free: d('43000'), locked: d('14000') });
    expect(account.of('BTC')).toEqual({ free: d('11.5'), locked: 0n });
  });

  it('fills a resting SELL on a trade at or above its price, and publishes nothing without resting orders', () => {
    const { matching, market, published, json } = setup();
    matching.onTrades(market, [{ id: 1n, t: T0, price: d('1'), qty: d('1'), m: true }]);
    expect(published).toEqual([]);
    matching.place(order({ side: 'SELL', price: '31000', quantity: '1' }));
    matching.onTrades(market, [{ id: 2n, t: T0, price: d('31000.01'), qty: d('3'), m: false }]);
    expect(json(1).filter((e) => e['e'] === 'executionReport').map((e) => [e['X'], e['L']])).toEqual([['FILLED', '31000']]);
  });
});

describe('Matching.accountTrades', () => {
  function filled() {
    const s = setup();
    s.matching.place(order({ side: 'SELL', price: '31000', quantity: '3' }));
    for (let i = 0; i < 3; i++) {
      s.advance(1000);
      s.matching.onTrades(s.market, [{ id: BigInt(i), t: T0, price: d('31000'), qty: d('1'), m: false }]);
    }
    const ids = (p: Record<string, string>) => {
      const r = s.matching.accountTrades(new Map(Object.entries(p)));
      return r.ok ? (r.body as Array<{ ticketId: string }>).map((f) => f.ticketId) : r.rejection;
    };
    return ids;
  }

  it('lists fills oldest first, filtered by time, ticket id and symbol, the last limit of them', () => {
    const ids = filled();
    expect(ids({})).toEqual(['500', '501', '502']);
    expect(ids({ startTime: String(T0 + 2000) })).toEqual(['501', '502']);
    expect(ids({ endTime: String(T0 + 2000) })).toEqual(['500', '501']);
    expect(ids({ fromId: '501', toId: '501' })).toEqual(['501']);
    expect(ids({ limit: '2' })).toEqual(['501', '502']);
    expect(ids({ symbol: 'BTCUSDT' })).toHaveLength(3);
  });

  it('rejects a non-integer bound, a limit outside [1, 1000], an unknown symbol', () => {
    const ids = filled();
    expect(ids({ fromId: '-1' })).toEqual(rejections.invalidParameter('fromId'));
    expect(ids({ startTime: '1.5' })).toEqual(rejections.invalidParameter('startTime'));
    expect(ids({ limit: '0' })).toEqual(rejections.invalidParameter('limit'));
    expect(ids({ limit: '1001' })).toEqual(rejections.invalidParameter('limit'));
    expect(ids({ symbol: 'ETHUSDT' })).toEqual(rejections.invalidSymbol);
  });
});

describe('Matching: the venue passing statuses (pendingNew, pendingCancel)', () => {
  const statuses = (json: (batch: number) => Array<Record<string, unknown>>, batch: number): unknown[] =>
    json(batch).filter((e) => e['e'] === 'executionReport').map((e) => e['X']);

  it('reports PENDING_NEW (not working) before NEW, and PENDING_CANCEL before CANCELED, on a cancel request only', () => {
    const { matching, json } = setup({ pendingNew: true, pendingCancel: true });
    const placed = body(matching.place(order({})));
    expect(placed).toMatchObject({ status: 'NEW' });
    expect(statuses(json, 0)).toEqual(['PENDING_NEW', 'NEW']);
    expect(json(0)[0]).toMatchObject({ X: 'PENDING_NEW', w: false, z: '0' });
    expect(body(matching.cancel(new Map([['orderId', String(placed['orderId'])]])))).toMatchObject({ status: 'CANCELED' });
    expect(statuses(json, 1)).toEqual(['PENDING_CANCEL', 'CANCELED']);
    expect(json(1)[0]).toMatchObject({ X: 'PENDING_CANCEL', w: true });
    // an order that closes by itself (IOC with nothing to take) has no PENDING_CANCEL
    matching.place(order({ timeInForce: 'IOC', price: '1' }));
    expect(statuses(json, 2)).toEqual(['PENDING_NEW', 'NEW', 'CANCELED']);
  });

  it('each can be turned off; both are off by default (the SPEC sequence)', () => {
    for (const [pending, placed, cancelled] of [
      [{}, ['NEW'], ['CANCELED']],
      [{ pendingNew: true }, ['PENDING_NEW', 'NEW'], ['CANCELED']],
      [{ pendingCancel: true }, ['NEW'], ['PENDING_CANCEL', 'CANCELED']],
    ] as const) {
      const { matching, json } = setup(pending);
      const id = String(body(matching.place(order({})))['orderId']);
      matching.cancel(new Map([['orderId', id]]));
      expect([statuses(json, 0), statuses(json, 1)]).toEqual([placed, cancelled]);
    }
  });
});
