import { type Observable, type Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import type { PrivateEvent } from '../../lib/codecs/privateEvents';
import type { TradeRecord } from '../../lib/codecs/trade';
import { marketStreams, type MarketStreams } from '../../lib/market/marketStreams';
import type { MarketStatus } from '../../lib/market/marketStatus';
import type { TradeGap } from '../../lib/operators/distinctTrades';
import type { RestClient } from '../../lib/rest/types';
import type { BalancesState } from '../../lib/user/balancesState';
import type { OrdersState } from '../../lib/user/ordersState';
import type { StateSync } from '../../lib/user/stateSync';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { userStream, type UserStream } from '../../lib/user/userStream';
import type { UserStatus } from '../../lib/user/userStatus';
import type { UserStreamGap } from '../../lib/user/userStreamGap';

/** Client-side settings of the soak consumer (fast heartbeats and backoff so faults show within seconds). */
export const CLIENT = {
  pingIntervalMs: 1000,
  heartbeatTimeoutMs: 2500,
  reconnect: { minDelayMs: 100, maxDelayMs: 1000 },
  reorderMaxDelayMs: 250,
  /** A `sub` lost in a stalled server (its client frames dropped) is sent again after this long. */
  subscribeTimeoutMs: 2000,
} as const;

/** Everything the consumer saw, with local arrival times (ms). */
export interface Observations {
  /** Arrival times of data, per topic name (`BTCUSDT trade`, …). */
  readonly topicData: Map<string, number[]>;
  /** Trade ids from `trades(symbol)`, in delivery order. */
  readonly tradeIds: Map<string, string[]>;
  readonly tradeGaps: TradeGap[];
  readonly marketStatus: Array<{ readonly at: number; readonly status: MarketStatus }>;
  readonly marketErrors: Error[];
  readonly events: Array<{ readonly at: number; readonly event: PrivateEvent }>;
  /** Events reported late by the reorder buffer (the policy `late: 'emit'` passes them on). */
  readonly late: Set<PrivateEvent>;
  readonly userGaps: Array<{ readonly at: number; readonly gap: UserStreamGap }>;
  readonly userStatus: Array<{ readonly at: number; readonly status: UserStatus }>;
  readonly userErrors: Error[];
  /** Observables that errored or completed (they should live until unsubscribed). */
  readonly terminated: string[];
  /** The latest state of `orders$` and `balances$` (self-healing: see their `authoritative`). */
  orders?: OrdersState & StateSync;
  balances?: BalancesState & StateSync;
  /** Epochs after which a snapshot was merged (`syncedEpoch` of the states), in order, each once. */
  readonly syncedEpochs: number[];
}

/** A running consumer: market topics for every symbol and the user stream with its folds. */
export interface Consumer {
  readonly market: MarketStreams;
  readonly user: UserStream;
  readonly seen: Observations;
  stop(): void;
}

const TOPICS = ['trade', 'depth', 'kline_1m', 'realtimes'] as const;

/** Topic names the consumer subscribes, e.g. `BTCUSDT depth`. */
export const topicNames = (symbols: readonly string[]): string[] => symbols.flatMap((s) => TOPICS.map((t) => `${s} ${t}`));

/** Starts the consumer against the simulator's addresses. */
export function startConsumer(publicUrl: string, privateUrl: string, rest: RestClient, symbols: readonly string[]): Consumer {
  const connection = { pingIntervalMs: CLIENT.pingIntervalMs, heartbeatTimeoutMs: CLIENT.heartbeatTimeoutMs, reconnect: CLIENT.reconnect };
  const Ctor = WebSocket as unknown as WebSocketCtor;
  const seen: Observations = {
    topicData: new Map(),
    tradeIds: new Map(),
    tradeGaps: [],
    marketStatus: [],
    marketErrors: [],
    events: [],
    late: new Set(),
    userGaps: [],
    userStatus: [],
    userErrors: [],
    terminated: [],
    syncedEpochs: [],
  };
  const market = marketStreams({
    url: publicUrl,
    WebSocketCtor: Ctor,
    connection,
    resubscribeRatePerSecond: 50,
    subscribeBurst: 20,
    subscribeTimeoutMs: CLIENT.subscribeTimeoutMs,
  });
  const user = userStream({
    url: privateUrl,
    rest,
    WebSocketCtor: Ctor,
    connection,
    listenKeyOptions: { retryDelayMs: 200, maxRetryDelayMs: 1000 },
    reorder: { maxDelayMs: CLIENT.reorderMaxDelayMs, onLate: (event) => seen.late.add(event) },
  });
  const subs: Subscription[] = [];
  const keep = <A>(name: string, source: Observable<A>, next: (a: A) => void): void => {
    subs.push(
      source.subscribe({
        next,
        error: (e: unknown) => seen.terminated.push(`${name} errored: ${String(e)}`),
        complete: () => seen.terminated.push(`${name} completed`),
      }),
    );
  };
  const arrived = (topic: string) => () => {
    let times = seen.topicData.get(topic);
    if (times === undefined) seen.topicData.set(topic, (times = []));
    times.push(Date.now());
  };
  keep('market.status$', market.status$, (status) => seen.marketStatus.push({ at: Date.now(), status }));
  keep('market.errors$', market.errors$, (e) => seen.marketErrors.push(e));
  keep('market.gaps$', market.gaps$, (g) => seen.tradeGaps.push(g));
  for (const [i, symbol] of symbols.entries()) {
    const ids: string[] = [];
    seen.tradeIds.set(symbol, ids);
    const trade = arrived(`${symbol} trade`);
    keep(`${symbol} trade`, market.trades(symbol, { binary: i === 1 }), (t: TradeRecord) => {
      ids.push(t.v);
      trade();
    });
    keep(`${symbol} depth`, market.depth(symbol, { binary: i === 0 }), arrived(`${symbol} depth`));
    keep(`${symbol} kline_1m`, market.klines(symbol, '1m'), arrived(`${symbol} kline_1m`));
    keep(`${symbol} realtimes`, market.realtimes(symbol), arrived(`${symbol} realtimes`));
  }
  keep('user.status$', user.status$, (status) => seen.userStatus.push({ at: Date.now(), status }));
  keep('user.errors$', user.errors$, (e) => seen.userErrors.push(e));
  keep('user.gaps$', user.gaps$, (gap) => seen.userGaps.push({ at: Date.now(), gap }));
  keep('user.events$', user.events$, (event) => seen.events.push({ at: Date.now(), event }));
  const synced = (epoch: number | undefined): void => {
    if (epoch !== undefined && !seen.syncedEpochs.includes(epoch)) seen.syncedEpochs.push(epoch);
  };
  keep('user.orders$', user.orders$, (state) => {
    seen.orders = state;
    synced(state.syncedEpoch);
  });
  keep('user.balances$', user.balances$, (state) => {
    seen.balances = state;
    synced(state.syncedEpoch);
  });
  keep('user.tickets$', user.tickets$, () => undefined);
  return { market, user, seen, stop: () => subs.splice(0).forEach((s) => s.unsubscribe()) };
}
