/** The demo's reducer: folds each `DemoEvent` into the `DemoState` the screen shows. Pure. */
import type { OrderState, StateSync } from '../../../lib/index';
import type { ConnectionStatus } from '../../../lib/connection';
import type { BalancesState } from '../../../lib/folds';
import {
  describeError,
  describeFillLatency,
  describeOrderChange,
  describeStatus,
  describeSyncChange,
  describeTradeGap,
  describeUserGap,
  listenKeyNote,
  streamLabel,
  statusChanged,
  syncChanged,
} from './describe';
import { KEEP_LOG, KEEP_TRADES, type BalanceView, type DemoState, type OrderView, type ServerClockReading, type Stamped, type StreamView, type SymbolView, type SyncView } from './model';

/** Errors that only say a socket was lost. */
const LOST_SOCKET = new Set(['ConnectionClosedError', 'HeartbeatTimeoutError']);

/** Appends a line to the event log. */
const log = (state: DemoState, at: number, text: string, level: 'info' | 'warn' = 'info'): DemoState => ({
  ...state,
  logSeq: state.logSeq + 1,
  log: [...state.log, { seq: state.logSeq + 1, at, text, level }].slice(-KEEP_LOG),
});

/** Updates the view of one symbol. */
const onSymbol = (state: DemoState, symbol: string, change: (s: SymbolView) => SymbolView): DemoState => ({
  ...state,
  symbols: state.symbols.map((s) => (s.symbol === symbol ? change(s) : s)),
});

/** Whether decimal text is above zero (`'0'`, `'0.000'`: no). */
const aboveZero = (text: string): boolean => /[1-9]/.test(text);

/**
 * Merges the folded orders into the displayed ones, recording each new status; returns the changed ones too, and
 * the orders whose fill this state shows first. `clock`: the service's clock when the state came (absent for a
 * REST snapshot): a new fill's latency is `clock.now - E` of its report.
 */
function mergeOrders(
  state: DemoState,
  orders: ReadonlyMap<string, OrderState>,
  clock: ServerClockReading | undefined,
): { orders: OrderView[]; changed: OrderView[]; filled: ReadonlySet<OrderView> } {
  const byId = new Map(state.orders.map((o) => [o.orderId, o]));
  const changed: OrderView[] = [];
  const filled = new Set<OrderView>();
  for (const o of orders.values()) {
    const before = byId.get(o.orderId);
    if (before !== undefined && before.status === o.status && before.filledQuantity === o.filledQuantity) continue;
    const history = before === undefined ? [o.status] : before.status === o.status ? before.history : [...before.history, o.status];
    const role = state.roles[o.clientOrderId];
    const newFill = before === undefined ? aboveZero(o.filledQuantity) : before.filledQuantity !== o.filledQuantity;
    const fillLatency = newFill && clock !== undefined ? { ms: Math.round(clock.now - o.report.E), errorMs: clock.errorMs } : before?.fillLatency;
    const view: OrderView = {
      orderId: o.orderId,
      clientOrderId: o.clientOrderId,
      symbol: o.symbol,
      side: o.side,
      price: o.price,
      quantity: o.quantity,
      filledQuantity: o.filledQuantity,
      status: o.status,
      history,
      ...(o.averagePrice !== undefined && { averagePrice: o.averagePrice }),
      ...(role !== undefined && { role }),
      ...(fillLatency !== undefined && { fillLatency }),
    };
    byId.set(o.orderId, view);
    changed.push(view);
    if (newFill && clock !== undefined) filled.add(view);
  }
  return { orders: [...byId.values()], changed, filled };
}

/** The balances as displayed, sorted by asset. */
const sortedBalances = (balances: readonly BalanceView[]): BalanceView[] =>
  [...balances].sort((a, b) => (a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0));

const balanceViews = (balances: BalancesState): BalanceView[] =>
  [...balances.values()].map(({ asset, free, locked }) => ({ asset, free, locked }));

/**
 * The sync state (`StateSync`) of a new `orders$` / `balances$` state: logs when it becomes authoritative (seeded,
 * resynced after a gap) or stops being (socket lost); `synced`: this state is the one a snapshot was merged into.
 */
function onSync(s: DemoState, at: number, name: 'orders' | 'balances', state: StateSync): { sync: SyncView; synced: boolean; next: DemoState } {
  const before = s.sync[name];
  const sync: SyncView = { authoritative: state.authoritative, ...(state.syncedEpoch !== undefined && { syncedEpoch: state.syncedEpoch }) };
  const changed = syncChanged(before, sync);
  const next = changed ? log(s, at, describeSyncChange(name, sync), sync.authoritative ? 'info' : 'warn') : s;
  return { sync, synced: changed && sync.authoritative, next: { ...next, sync: { ...next.sync, [name]: sync } } };
}

/**
 * A socket's new connection status: the view with it, and with when the status left `open` (so that a reopen
 * tells how long the socket was actually down, from the status transitions); the log line when the change is
 * worth one.
 */
function onConnection<V extends StreamView>(stream: V, at: number, connection: ConnectionStatus): { view: V; line?: string } {
  const { leftOpenAt: wasDownSince, ...rest } = stream;
  const leftOpenAt = connection.type === 'open' ? undefined : stream.status?.type === 'open' ? at : wasDownSince;
  const view = { ...rest, status: connection, ...(leftOpenAt !== undefined && { leftOpenAt }) } as V;
  if (!statusChanged(stream.status, connection)) return { view };
  const downMs = connection.type === 'open' && wasDownSince !== undefined ? at - wasDownSince : undefined;
  return { view, line: describeStatus(connection, downMs) };
}

/** Folds one event into the state. */
export function reduce(state: DemoState, { at, event }: Stamped): DemoState {
  const s: DemoState = { ...state, now: at };
  switch (event.type) {
    case 'book':
      return onSymbol(s, event.symbol, (v) => ({ ...v, book: event.book }));
    case 'trade': {
      const t = event.trade;
      const view = { id: t.v, time: t.t, price: t.p, quantity: t.q, takerSold: t.m };
      return onSymbol(s, event.symbol, (v) => ({ ...v, trades: [view, ...v.trades].slice(0, KEEP_TRADES), tradeCount: v.tradeCount + 1 }));
    }
    case 'candle':
      return onSymbol(s, event.symbol, (v) => ({ ...v, candle: event.candle, candleInterval: event.interval }));
    case 'ticker':
      return onSymbol(s, event.symbol, (v) => ({ ...v, ticker: event.ticker }));
    case 'marketMessage': {
      const counted = { ...s, market: { ...s.market, messages: s.market.messages + 1 } };
      if (!event.first || event.epoch < 2) return counted;
      const topic = `${event.symbol} ${event.topic}`;
      const done = counted.resubscribed[event.epoch] ?? [];
      if (done.includes(topic)) return counted;
      const next = [...done, topic];
      const withTopic = { ...counted, resubscribed: { ...counted.resubscribed, [event.epoch]: next } };
      return next.length === counted.market.topics
        ? log(withTopic, at, `public stream: resubscribed all ${next.length} topics on epoch ${event.epoch}, data flowing again`)
        : withTopic;
    }
    case 'marketStatus': {
      const { connection, topics, tradeGaps } = event.status;
      const { view, line } = onConnection(s.market, at, connection);
      const next = { ...s, market: { ...view, topics, tradeGaps } };
      return line ? log(next, at, `${streamLabel('public')}: ${line}`, connection.type === 'reconnecting' ? 'warn' : 'info') : next;
    }
    case 'userStatus': {
      // The same shape as the market's: the connection plus counters (the gaps counted by the stream itself).
      const { connection, gaps } = event.status;
      const { view, line } = onConnection(s.user, at, connection);
      const next = { ...s, user: { ...view, gaps } };
      return line ? log(next, at, `${streamLabel('private')}: ${line}`, connection.type === 'reconnecting' ? 'warn' : 'info') : next;
    }
    case 'error': {
      const text = describeError(event.error);
      const next =
        event.stream === 'public'
          ? { ...s, market: { ...s.market, errors: s.market.errors + 1, lastError: text } }
          : { ...s, user: { ...s.user, errors: s.user.errors + 1, lastError: text } };
      // A lost socket is already told by the status change ("lost (cause); reconnecting"): counted only.
      return LOST_SOCKET.has(event.error.name) ? next : log(next, at, `${streamLabel(event.stream)} error: ${text}`, 'warn');
    }
    case 'tradeGap':
      return log(s, at, describeTradeGap(event.gap), 'warn');
    case 'userGap':
      return log(s, at, describeUserGap(event.gap), 'warn'); // counted by status$ (`gaps`)
    case 'userEvent':
      return { ...s, user: { ...s.user, messages: s.user.messages + 1 } };
    case 'orders': {
      const { synced, next } = onSync(s, at, 'orders', event.orders);
      // A state merged from a REST snapshot says when the order changed, not when a push arrived: no latency.
      const { orders, changed, filled } = mergeOrders(next, event.orders, synced ? undefined : event.serverClock);
      const via = synced ? ' (REST snapshot)' : '';
      const latency = (o: OrderView): string => (filled.has(o) && o.fillLatency !== undefined ? `; ${describeFillLatency(o.fillLatency)}` : '');
      return changed.reduce<DemoState>((acc, o) => log(acc, at, `${describeOrderChange(o)}${via}${latency(o)}`), { ...next, orders });
    }
    case 'balances': {
      const { sync, synced, next } = onSync(s, at, 'balances', event.balances);
      // The healed state is complete (seeded from the account): it replaces the displayed balances.
      const all = sortedBalances(balanceViews(event.balances));
      const updates = all.filter((b) => {
        const old = s.balances.find((x) => x.asset === b.asset);
        return old === undefined || old.free !== b.free || old.locked !== b.locked;
      });
      const shown = { ...next, balances: all };
      if (updates.length === 0) return shown;
      const text = updates.map((b) => `${b.asset} free ${b.free} locked ${b.locked}`).join(', ');
      return log(shown, at, `balances (${synced ? `REST snapshot, epoch ${sync.syncedEpoch ?? '?'}` : 'live'}): ${text}`);
    }
    case 'listenKey': {
      const lk = s.listenKey;
      switch (event.action) {
        case 'obtained':
          return log({ ...s, listenKey: { redacted: event.redactedKey, obtainedAt: at, extensions: lk?.extensions ?? 0 } }, at, listenKeyNote('obtained', event.redactedKey));
        case 'extended':
          return log(
            { ...s, ...(lk && { listenKey: { ...lk, extensions: lk.extensions + 1, lastExtendedAt: at } }) },
            at,
            listenKeyNote('kept alive (PUT)', event.redactedKey),
          );
        case 'closed':
          return log(s, at, listenKeyNote('closed (DELETE)', event.redactedKey));
        default: {
          const never: never = event.action;
          return never;
        }
      }
    }
    case 'orderPlanned':
      return { ...s, roles: { ...s.roles, [event.clientOrderId]: event.role } };
    case 'note':
      return log(s, at, event.text, event.level);
    case 'tick':
      return {
        ...s,
        market: { ...s.market, rate: s.market.messages - s.market.messagesAtTick, messagesAtTick: s.market.messages },
        user: { ...s.user, rate: s.user.messages - s.user.messagesAtTick, messagesAtTick: s.user.messages },
      };
    default: {
      const never: never = event;
      return never;
    }
  }
}
