import { ConnectionClosedError, type ExecutionReport, type OrderState, type OrderStatus, type StateSync } from '../../lib/index';
import type { ConnectionStatus } from '../../lib/connection';
import type { DecimalText } from '../../lib/orders/index';
import { initialState, type DemoEvent, type DemoState } from '../../docs/examples/demo/model';
import { reduce } from '../../docs/examples/demo/reduce';
import { accountLines, statusLines } from '../../docs/examples/demo/view';


const fold = (events: ReadonlyArray<DemoEvent>, state = initialState(['BTCUSDT'], 0, true)): DemoState =>
  events.reduce((s, event, i) => reduce(s, { at: 1_000 + i, event }), state);

const order = (status: OrderStatus, filled: DecimalText): OrderState => ({
  orderId: '1900000000000000003',
  clientOrderId: 'demoFill1',
  symbol: 'ETHUSDT',
  side: 'BUY',
  type: 'LIMIT',
  status,
  quantity: '2.5',
  price: '2020.28',
  filledQuantity: filled,
  filledQuoteQuantity: '0',
  averagePrice: filled === '0' ? undefined : '2000.25',
  updateTime: 1,
  report: {} as ExecutionReport,
});
const orders = (o: OrderState, sync: StateSync = { authoritative: false }): DemoEvent => ({
  type: 'orders',
  orders: Object.assign(new Map([[o.orderId, o]]), sync),
});
const balances = (free: Record<string, DecimalText>, sync: StateSync): DemoEvent => ({
  type: 'balances',
  balances: Object.assign(new Map(Object.entries(free).map(([asset, f]) => [asset, { asset, free: f, locked: '0' as const, eventTime: 1 }])), sync),
});
const marketStatus = (connection: ConnectionStatus): DemoEvent => ({
  type: 'marketStatus',
  status: { connection, topics: 2, tradeGaps: 0, decodeErrors: 0, rejections: 0, resubscribes: 0, staleResubscribes: 0, klineRefetches: 0, klineGaps: 0 },
});

describe('reduce', () => {
  it('records every status an order goes through, once, with its role', () => {
    const s = fold([
      { type: 'orderPlanned', clientOrderId: 'demoFill1', role: 'fills' },
      orders(order('NEW', '0')),
      orders(order('PARTIALLY_FILLED', '1')),
      orders(order('PARTIALLY_FILLED', '2')),
      orders(order('PARTIALLY_FILLED', '2')),
      orders(order('FILLED', '2.5')),
    ]);
    expect(s.orders).toHaveLength(1);
    expect(s.orders[0]).toMatchObject({ role: 'fills', status: 'FILLED', filledQuantity: '2.5', history: ['NEW', 'PARTIALLY_FILLED', 'FILLED'] });
    expect(s.log.map((l) => l.text)).toEqual([
      'order 1900…0003 (fills) BUY 2.5 ETHUSDT @ 2020.28: NEW, filled 0/2.5',
      'order 1900…0003 (fills) BUY 2.5 ETHUSDT @ 2020.28: NEW → PARTIALLY_FILLED, filled 1/2.5 avg 2000.25',
      'order 1900…0003 (fills) BUY 2.5 ETHUSDT @ 2020.28: NEW → PARTIALLY_FILLED, filled 2/2.5 avg 2000.25',
      'order 1900…0003 (fills) BUY 2.5 ETHUSDT @ 2020.28: NEW → PARTIALLY_FILLED → FILLED, filled 2.5/2.5 avg 2000.25',
    ]);
  });

  it('tells when orders and balances become authoritative (seeded, resynced after a gap) and when they stop being', () => {
    const s = fold([
      balances({ USDT: '100' }, { authoritative: false }),
      balances({ USDT: '90', ETH: '1' }, { authoritative: true, syncedEpoch: 1 }),
      orders(order('NEW', '0'), { authoritative: true, syncedEpoch: 1 }),
      balances({ USDT: '90', ETH: '1' }, { authoritative: false, syncedEpoch: 1 }),
      orders(order('NEW', '0'), { authoritative: false, syncedEpoch: 1 }),
      balances({ USDT: '80', ETH: '2' }, { authoritative: true, syncedEpoch: 2 }),
      orders(order('FILLED', '2.5'), { authoritative: true, syncedEpoch: 2 }),
      balances({ USDT: '79', ETH: '2' }, { authoritative: true, syncedEpoch: 2 }),
    ]);
    expect(s.log.map((l) => [l.level, l.text])).toEqual([
      ['info', 'balances (live): USDT free 100 locked 0'],
      ['info', 'balances: seeded (epoch 1) from REST, authoritative'],
      ['info', 'balances (REST snapshot, epoch 1): ETH free 1 locked 0, USDT free 90 locked 0'],
      ['info', 'orders: seeded (epoch 1) from REST, authoritative'],
      ['info', 'order 1900…0003 BUY 2.5 ETHUSDT @ 2020.28: NEW, filled 0/2.5 (REST snapshot)'],
      ['warn', 'balances: not authoritative (private socket lost; resync over REST when it reopens)'],
      ['warn', 'orders: not authoritative (private socket lost; resync over REST when it reopens)'],
      ['info', 'balances: resynced after epoch 2 from REST, authoritative'],
      ['info', 'balances (REST snapshot, epoch 2): ETH free 2 locked 0, USDT free 80 locked 0'],
      ['info', 'orders: resynced after epoch 2 from REST, authoritative'],
      ['info', 'order 1900…0003 BUY 2.5 ETHUSDT @ 2020.28: NEW → FILLED, filled 2.5/2.5 avg 2000.25 (REST snapshot)'],
      ['info', 'balances (live): USDT free 79 locked 0'],
    ]);
    expect(s.sync).toEqual({ orders: { authoritative: true, syncedEpoch: 2 }, balances: { authoritative: true, syncedEpoch: 2 } });
    expect(s.balances.map((b) => b.asset)).toEqual(['ETH', 'USDT']);
    expect(statusLines(s)[1]).toContain('orders/balances: resynced after epoch 2');
  });

  it('logs connection changes (not the idle status), counts lost sockets as errors without a second line', () => {
    const cause = new ConnectionClosedError(1006, '', false);
    const s = fold([
      marketStatus({ type: 'closed', epoch: 0 }),
      marketStatus({ type: 'connecting', epoch: 0, attempt: 0 }),
      marketStatus({ type: 'open', epoch: 1, since: 10 }),
      marketStatus({ type: 'open', epoch: 1, since: 10 }),
      { type: 'error', stream: 'public', error: cause },
      marketStatus({ type: 'reconnecting', epoch: 1, attempt: 1, delayMs: 300, cause }),
      marketStatus({ type: 'open', epoch: 2, since: 1_006, downSince: 1_002 }),
    ]);
    expect(s.log.map((l) => [l.level, l.text])).toEqual([
      ['info', 'public stream: connecting'],
      ['info', 'public stream: open (epoch 1)'],
      ['warn', 'public stream: lost (ConnectionClosedError: connection closed (code 1006)); reconnecting in 300 ms (attempt 1)'],
      ['info', 'public stream: reconnected: open (epoch 2) after 0.00 s down'], // stamped 1005 → 1006
    ]);
    expect(s.market).toMatchObject({ errors: 1, lastError: 'ConnectionClosedError: connection closed (code 1006)', topics: 2 });
  });

  it('tells how long a socket was down from its status leaving open to its next open, not from its last message', () => {
    const cause = new ConnectionClosedError(1006, '', false);
    const userStatus = (connection: ConnectionStatus): DemoEvent => ({
      type: 'userStatus',
      status: { connection, gaps: 0, keyChanges: 0, keyErrors: 0, decodeErrors: 0, outOfRangeEvents: 0, lateEvents: 0, authoritative: false },
    });
    const stamped: Array<[number, DemoEvent]> = [
      [1_000, userStatus({ type: 'connecting', epoch: 0, attempt: 0 })],
      [1_130, userStatus({ type: 'open', epoch: 1, since: 1_130 })],
      // the last private event came at 1 200; the socket is lost at 7 070 (a quiet stream meanwhile)
      [7_070, userStatus({ type: 'reconnecting', epoch: 1, attempt: 1, delayMs: 90, cause })],
      [7_160, userStatus({ type: 'connecting', epoch: 1, attempt: 1 })],
      [7_280, userStatus({ type: 'open', epoch: 2, since: 7_280, downSince: 1_200 })],
      // a second loss: counted from its own transition
      [9_000, userStatus({ type: 'closed', epoch: 2, cause })],
      [9_000, userStatus({ type: 'connecting', epoch: 2, attempt: 0 })],
      [10_500, userStatus({ type: 'open', epoch: 3, since: 10_500, downSince: 8_000 })],
    ];
    const s = stamped.reduce((state, [at, event]) => reduce(state, { at, event }), initialState(['BTCUSDT'], 0, true));
    expect(s.log.map((l) => l.text).filter((t) => t.includes('reconnected'))).toEqual([
      'private stream: reconnected: open (epoch 2) after 0.21 s down', // not the 6.08 s since the last event
      'private stream: reconnected: open (epoch 3) after 1.50 s down',
    ]);
    expect(s.user.leftOpenAt).toBeUndefined();
    // while down, the view holds when the socket left open
    expect(stamped.slice(0, 4).reduce((state, [at, event]) => reduce(state, { at, event }), initialState(['BTCUSDT'], 0, true)).user.leftOpenAt).toBe(7_070);
  });

  it('notes the resubscription once every topic sent its first message of the new epoch', () => {
    const first = (topic: string, epoch: number): DemoEvent => ({ type: 'marketMessage', symbol: 'BTCUSDT', topic, first: true, epoch });
    const s = fold([marketStatus({ type: 'open', epoch: 2, since: 5 }), first('depth', 1), first('depth', 2), first('depth', 2), first('trade', 2)]);
    expect(s.market.messages).toBe(4);
    expect(s.log.map((l) => l.text).slice(1)).toEqual(['public stream: resubscribed all 2 topics on epoch 2, data flowing again']);
  });

  it('turns message counts into a rate on each tick', () => {
    const msg: DemoEvent = { type: 'userEvent' };
    const s = fold([msg, msg, msg, { type: 'tick' }, msg, { type: 'tick' }]);
    expect(s.user).toMatchObject({ messages: 4, rate: 1, messagesAtTick: 4 });
  });

  it('keeps the last trades newest first, and listen-key activity without the key', () => {
    const trade = (v: string): DemoEvent => ({ type: 'trade', symbol: 'BTCUSDT', trade: { v, t: 1, p: '1', q: '1', m: false } });
    const s = fold([
      ...['1', '2', '3', '4', '5', '6'].map(trade),
      { type: 'listenKey', action: 'obtained', redactedKey: 'abcd…' },
      { type: 'listenKey', action: 'extended', redactedKey: 'abcd…' },
    ]);
    expect(s.symbols[0]?.trades.map((t) => t.id)).toEqual(['6', '5', '4', '3', '2']);
    expect(s.symbols[0]?.tradeCount).toBe(6);
    expect(s.listenKey).toMatchObject({ redacted: 'abcd…', extensions: 1 });
    expect(s.log.map((l) => l.text)).toEqual(['listen key abcd… obtained', 'listen key abcd… kept alive (PUT)']);
  });
});

describe('reduce: how long after its event time a fill shows on orders$', () => {
  const fill = (status: OrderStatus, filled: DecimalText, E: number): OrderState => ({ ...order(status, filled), report: { E } as ExecutionReport });
  const at = (o: OrderState, now: number, errorMs = 0, sync: StateSync = { authoritative: true, syncedEpoch: 1 }): DemoEvent => ({
    type: 'orders',
    orders: Object.assign(new Map([[o.orderId, o]]), sync),
    serverClock: { now, errorMs },
  });

  it('the service clock when the state came minus the fill report E, as the range the clock estimate allows', () => {
    const s = fold([
      { type: 'orderPlanned', clientOrderId: 'demoFill1', role: 'fills' },
      at(fill('NEW', '0', 5_000), 5_001, 0, { authoritative: false }),
      at(fill('NEW', '0', 5_000), 5_001),
      at(fill('PARTIALLY_FILLED', '1', 5_010), 5_013, 0),
      at(fill('FILLED', '2.5', 5_020), 5_018, 4.5), // the clock estimate says -2 ms ± 4.5: 0 to 3 ms
    ]);
    expect(s.log.map((l) => l.text).filter((t) => t.startsWith('order '))).toEqual([
      'order 1900…0003 (fills) BUY 2.5 ETHUSDT @ 2020.28: NEW, filled 0/2.5',
      'order 1900…0003 (fills) BUY 2.5 ETHUSDT @ 2020.28: NEW → PARTIALLY_FILLED, filled 1/2.5 avg 2000.25; fill on orders$ 3 ms after its event time (service clock ±0 ms)',
      'order 1900…0003 (fills) BUY 2.5 ETHUSDT @ 2020.28: NEW → PARTIALLY_FILLED → FILLED, filled 2.5/2.5 avg 2000.25; fill on orders$ 0-3 ms after its event time (service clock ±4.5 ms)',
    ]);
    expect(s.orders[0]?.fillLatency).toEqual({ ms: -2, errorMs: 4.5 });
    const table = accountLines(s).join('\n');
    expect(table).toContain('FILL E → orders$');
    expect(table).toMatch(/2\.5\/2\.5 avg 2000\.25 +0-3 ms/);
  });

  it('none for a fill learned from a REST snapshot (its E is the order update time, not a push), nor without a clock', () => {
    const s = fold([
      at(fill('NEW', '0', 5_000), 5_001, 0, { authoritative: false }),
      at(fill('PARTIALLY_FILLED', '1', 5_010), 9_000, 0, { authoritative: true, syncedEpoch: 2 }), // the resync's state
      orders(fill('FILLED', '2.5', 9_100), { authoritative: true, syncedEpoch: 2 }), // no serverClock
    ]);
    expect(s.log.map((l) => l.text).filter((t) => t.includes('fill on orders$'))).toEqual([]);
    expect(s.orders[0]?.fillLatency).toBeUndefined();
  });
});
