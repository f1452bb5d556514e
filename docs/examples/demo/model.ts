/**
 * The demo's data model: what the screen shows (`DemoState`) and the events that change it (`DemoEvent`).
 * Everything the streams deliver is turned into one `DemoEvent` (see feeds.ts) and folded by `reduce`.
 */
import type {
  KlineRecord,
  MarketStatus,
  OrderBook,
  OrderState,
  OrderStatus,
  RealtimesRecord,
  StateSync,
  TradeRecord,
  UserStatus,
  UserStreamGap,
} from '../../../lib/index';
import type { ConnectionStatus } from '../../../lib/connection';
import type { BalancesState } from '../../../lib/folds';
import type { TradeGap } from '../../../lib/history';

/** Which socket a status, an error or a message count is about. */
export type StreamName = 'public' | 'private';

/** What the role of a demo order is. */
export type OrderRole = 'rests' | 'fills' | 'cancelled';

/** Anything that changes the view. `at` is the local time (ms) the event was seen. */
export type DemoEvent =
  | { readonly type: 'book'; readonly symbol: string; readonly book: OrderBook }
  | { readonly type: 'trade'; readonly symbol: string; readonly trade: TradeRecord }
  | { readonly type: 'candle'; readonly symbol: string; readonly interval: string; readonly candle: KlineRecord }
  | { readonly type: 'ticker'; readonly symbol: string; readonly ticker: RealtimesRecord }
  | { readonly type: 'marketMessage'; readonly symbol: string; readonly topic: string; readonly first: boolean; readonly epoch: number }
  | { readonly type: 'marketStatus'; readonly status: MarketStatus }
  | { readonly type: 'userStatus'; readonly status: UserStatus }
  | { readonly type: 'error'; readonly stream: StreamName; readonly error: Error }
  | { readonly type: 'tradeGap'; readonly gap: TradeGap }
  | { readonly type: 'userGap'; readonly gap: UserStreamGap }
  | { readonly type: 'userEvent' }
  /**
   * `orders$`'s state (an `OrdersState`; the view only reads it as a map), and the service's clock when it came,
   * to tell how long after its event time a fill was shown.
   */
  | { readonly type: 'orders'; readonly orders: ReadonlyMap<string, OrderState> & StateSync; readonly serverClock?: ServerClockReading }
  | { readonly type: 'balances'; readonly balances: BalancesState & StateSync }
  | { readonly type: 'listenKey'; readonly action: 'obtained' | 'extended' | 'closed'; readonly redactedKey: string }
  | { readonly type: 'orderPlanned'; readonly clientOrderId: string; readonly role: OrderRole }
  | { readonly type: 'note'; readonly text: string; readonly level?: 'info' | 'warn' }
  | { readonly type: 'tick' };

/**
 * The service's clock as the REST client estimates it at one moment: the local clock + `rest.serverTimeOffsetMs()`,
 * and how far off that can be (`rest.serverTimeOffsetErrorMs()`), in ms.
 */
export interface ServerClockReading {
  readonly now: number;
  readonly errorMs: number;
}

/** A `DemoEvent` with the local time it was seen. */
export interface Stamped {
  readonly at: number;
  readonly event: DemoEvent;
}

/** One trade as displayed. */
export interface TradeView {
  readonly id: string;
  readonly time: number;
  readonly price: string;
  readonly quantity: string;
  /** The buyer was the maker: the taker sold. */
  readonly takerSold: boolean;
}

/** What the view knows about one symbol. */
export interface SymbolView {
  readonly symbol: string;
  readonly book?: OrderBook;
  /** Newest first. */
  readonly trades: readonly TradeView[];
  readonly tradeCount: number;
  readonly candle?: KlineRecord;
  readonly candleInterval?: string;
  readonly ticker?: RealtimesRecord;
}

/** Health of one socket. */
export interface StreamView {
  readonly status?: ConnectionStatus;
  /** Messages (public) or events (private) received in total. */
  readonly messages: number;
  /** `messages` at the last tick, for the rate. */
  readonly messagesAtTick: number;
  /** Messages per second over the last tick. */
  readonly rate: number;
  readonly errors: number;
  readonly lastError?: string;
  /** When (local ms) the status left `open`, until it is `open` again: how long the socket is down. */
  readonly leftOpenAt?: number;
}

/** One order as displayed, with every status it went through. */
export interface OrderView {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: string;
  readonly price: string;
  readonly quantity: string;
  readonly filledQuantity: string;
  readonly averagePrice?: string;
  readonly status: OrderStatus;
  readonly history: readonly OrderStatus[];
  readonly role?: OrderRole;
  /**
   * The last fill's latency: the service's clock when `orders$` showed it minus the event time `E` of its report,
   * and how far off the clock estimate can be (ms; `E` has millisecond resolution). Absent before a fill, and for a
   * fill learned from a REST snapshot.
   */
  readonly fillLatency?: { readonly ms: number; readonly errorMs: number };
}

/** One balance as displayed. */
export interface BalanceView {
  readonly asset: string;
  readonly free: string;
  readonly locked: string;
}

/**
 * Whether a state of the user stream (`orders$` or `balances$`) agrees with the service's snapshot
 * (`StateSync`): `userStream` seeds it at the first open and resyncs it after every gap.
 */
export interface SyncView {
  readonly authoritative: boolean;
  /** Epoch of the connection the last snapshot was taken after. */
  readonly syncedEpoch?: number;
}

/** One line of the event log. */
export interface LogLine {
  readonly seq: number;
  readonly at: number;
  readonly text: string;
  readonly level: 'info' | 'warn';
}

/** Everything the screen shows. */
export interface DemoState {
  readonly startedAt: number;
  readonly now: number;
  readonly symbols: readonly SymbolView[];
  readonly market: StreamView & { readonly topics: number; readonly tradeGaps: number };
  readonly user: StreamView & { readonly gaps: number; readonly enabled: boolean };
  /** Epoch → topics whose first message of that epoch arrived (resubscription progress). */
  readonly resubscribed: Readonly<Record<number, readonly string[]>>;
  readonly listenKey?: { readonly redacted: string; readonly obtainedAt: number; readonly extensions: number; readonly lastExtendedAt?: number };
  readonly orders: readonly OrderView[];
  /** Client order id → role of the demo's own orders. */
  readonly roles: Readonly<Record<string, OrderRole>>;
  readonly balances: readonly BalanceView[];
  /** Sync state of `orders$` and `balances$` (undefined before their first state). */
  readonly sync: { readonly orders?: SyncView; readonly balances?: SyncView };
  readonly log: readonly LogLine[];
  readonly logSeq: number;
}

/** How many trades and log lines the state keeps. */
export const KEEP_TRADES = 5;
export const KEEP_LOG = 50;

/** The state before anything arrived. */
export const initialState = (symbols: readonly string[], startedAt: number, userEnabled: boolean): DemoState => ({
  startedAt,
  now: startedAt,
  symbols: symbols.map((symbol) => ({ symbol, trades: [], tradeCount: 0 })),
  market: { messages: 0, messagesAtTick: 0, rate: 0, errors: 0, topics: 0, tradeGaps: 0 },
  user: { messages: 0, messagesAtTick: 0, rate: 0, errors: 0, gaps: 0, enabled: userEnabled },
  resubscribed: {},
  orders: [],
  roles: {},
  balances: [],
  sync: {},
  log: [],
  logSeq: 0,
});
