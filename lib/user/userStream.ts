// Data path, private side (notes/architecture.md, "The data path"): the stream's public face; its path is assembled in internal/userCore.ts.
/**
 * The user stream's entry: its config validated and resolved, then the private path (`internal/userCore`:
 * key sessions → decode → reorder by `E` → folds) shared by the public streams (`internal/userOutputs`).
 * @module
 */
import { asyncScheduler, BehaviorSubject, defer, map, Observable, type SchedulerLike, startWith, throwError } from 'rxjs';
import type { ExecutionReport } from '../codecs/executionReport';
import type { OutboundAccountInfo } from '../codecs/outboundAccountInfo';
import type { PrivateEvent } from '../codecs/privateEvents';
import type { TicketInfo } from '../codecs/ticketInfo';
import { ConfigError } from '../errors';
import { reorderBuffer, type ReorderByEventTimeConfig } from '../operators/reorderByEventTime';
import type { ConnectionConfig } from '../socket/connection';
import { cancelOrder, type OrderLedger, type OrderLoopDeps, placeOrder, type PlaceOrderOptions } from '../orders/orderLoop';
import type { NewOrderRequest, OrderRef, RestCalls } from '../rest/callTypes';
import { clientOrderIds } from '../rest/clientOrderId';
import type { RestClient } from '../rest/types';
import type { OrderState } from './orderState';
import type { ConnectionStatus } from '../socket/connectionStatus';
import { streamStatus } from '../socket/streamStatus';
import type { WebSocketCtor } from '../socket/webSocketLike';
import type { VenuePreset } from '../venue/venuePreset';
import type { BalancesState } from './balancesState';
import type { OrdersState } from './ordersState';
import { RecentKeys } from '../internal/recentKeys';
import { keyedUrlProblem } from './internal/keyedUrl';
import { rememberPrivateEvent } from './internal/rememberPrivateEvent';
import { FollowedOrders } from './internal/followedOrders';
import { snapshotApi } from './internal/resync';
import { userCore, type UserCoreSettings } from './internal/userCore';
import { UserOutputs } from './internal/userOutputs';
import { UserStreamState } from './internal/userStreamState';
import type { ListenKeyApi, ListenKeyConfig } from './listenKey';
import { privateEventKey } from './privateEventKey';
import type { StateSync } from './stateSync';
import type { UserCounters, UserStatus } from './userStatus';
import type { UserStreamGap } from './userStreamGap';

/**
 * Configuration of {@link userStream}. `url` and one of `rest` / `listenKey$` are required.
 *
 * @example
 * ```ts
 * import { restClient, userStream, type UserStreamConfig } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const config: UserStreamConfig = {
 *   url: 'wss://stream.example.com/api/v1/ws',
 *   rest: restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey }),
 *   reorder: { maxDelayMs: 500 },
 * };
 * const user = userStream(config);
 * ```
 */
export interface UserStreamConfig {
  /**
   * Private stream address without the key, e.g. `wss://host/api/v1/ws`; the key is appended as `/{listenKey}`.
   * A url holding a key placeholder (`{listenKey}`, `<listenKey>`, `:listenKey`) or ending in what looks like a
   * key (a long opaque segment after `/ws/`) is refused with a `ConfigError` on `url`.
   */
  readonly url?: string | undefined;
  /** A venue preset (e.g. `hashkey.global.production`) whose `privateStreamUrl` is the default `url`; `url` or `venue` is required. */
  readonly venue?: VenuePreset | undefined;
  /**
   * Listen-key calls (e.g. a `restClient`): the stream creates, keeps alive, recreates and closes its key. When
   * it also has `openOrders`, `getOrder` and `account` (a `restClient` does), `orders$` and `balances$` heal
   * themselves from them (see `resync`).
   */
  readonly rest?:
    | (ListenKeyApi &
        Partial<Pick<RestCalls, 'openOrders' | 'getOrder' | 'account' | 'newOrder' | 'cancelOrder'>> &
        Partial<Pick<RestClient, 'newClientOrderId' | 'recvWindowMs'>>)
    | undefined;
  /**
   * Whether `orders$` and `balances$` are seeded and healed from REST snapshots: after every open (the first and
   * each after a gap) the open orders, the orders that were open and left them (one `getOrder` each) and the
   * account are fetched and merged (see docs/user-stream.md, "State that heals itself"), and the state is
   * marked `authoritative` (see {@link StateSync}). Failed calls go to `errors$` and are retried with the
   * listen-key backoff (`listenKeyOptions.retryDelayMs`, `maxRetryDelayMs`, `random`), never before a rate
   * limit's `retryAfterMs`. Default `true` when `rest` has the three calls; without them (a `listenKey$` config
   * without `rest`, a listen-key-only api) nothing is fetched and the state is never authoritative.
   */
  readonly resync?: boolean | undefined;
  /**
   * Options of the listen-key lifecycle (see `listenKey`), when `rest` is given. Default `{}`. Its non-fatal
   * errors (a failed extension, a retried creation) also go to `errors$`.
   */
  readonly listenKeyOptions?: Omit<ListenKeyConfig, 'scheduler' | 'recreate$'> | undefined;
  /**
   * Alternative to `rest`: the keys to use, each new key moving the socket to its path. The stream cannot ask
   * this source for a new key when one is rejected; it waits for the next emission.
   */
  readonly listenKey$?: Observable<string>;
  /**
   * Connection options (heartbeats, limits, reconnect policy). Default `{}` (the connection's defaults). The
   * reconnect policy (`reconnect.minDelayMs` 500, `maxDelayMs` 30 000, `factor` 2, `random` `Math.random`) also
   * spaces the reconnections to a key the service recreated as the same key after closing it as not valid
   * (4001): the n-th in a row waits `random() * min(maxDelayMs, minDelayMs * factor^(n-1))`, as `reconnect` does.
   */
  readonly connection?: Omit<ConnectionConfig, 'url' | 'scheduler' | 'WebSocketCtor'> | undefined;
  /**
   * Options of the event-time reorder buffer (`reorderByEventTime`). Default `{}`: 250 ms hold, de-duplication
   * by {@link privateEventKey} for 60 s.
   */
  readonly reorder?: Omit<ReorderByEventTimeConfig<PrivateEvent>, 'scheduler' | 'eventTime'> | undefined;
  /** Failed (re)connection attempts in a row, without an open, after which the key is recreated. Default 3. */
  readonly suspectKeyAfterFailures?: number | undefined;
  /**
   * Largest distance, in ms, between an event's time `E` and the clock (`scheduler.now()` plus
   * `rest.serverTimeOffsetMs()` when the api has it) when it arrives, either way. An event further off is
   * reported as an `EventTimeOutOfRangeError` on `errors$` and dropped: one event stamped a day ahead would
   * otherwise hold the reorder buffer's watermark there (every later event "late") and win the balance fold
   * over every real update. Default `300000` (5 minutes): far beyond network delay, a busy service's
   * out-of-order pushes and the clock skew the signed REST calls tolerate, far below a clock that is wrong.
   */
  readonly maxEventTimeSkewMs?: number | undefined;
  /** Clock and timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
  /** Websocket constructor. Default: `ws` on Node, the global `WebSocket` elsewhere. */
  readonly WebSocketCtor?: WebSocketCtor | undefined;
}

/**
 * The streams of one account's private stream; see {@link userStream}.
 *
 * @example
 * ```ts
 * import { restClient, userStream, type UserStream } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * const user: UserStream = userStream({ url: 'wss://stream.example.com/api/v1/ws', rest });
 * user.executionReports$.subscribe((r) => console.log(r.i, r.X)); // '1900000000000000001' 'NEW'
 * user.gaps$.subscribe((gap) => console.warn('reconcile over REST since', gap.downSince));
 * ```
 */
export interface UserStream {
  /** Every private event, decoded, in event-time (`E`) order, without duplicates. */
  readonly events$: Observable<PrivateEvent>;
  /** Order updates (`executionReport`) of `events$`. */
  readonly executionReports$: Observable<ExecutionReport>;
  /** Account updates (`outboundAccountInfo`) of `events$`. */
  readonly accountUpdates$: Observable<OutboundAccountInfo>;
  /** Trade tickets (`ticketInfo`) of `events$`, each ticket id once. */
  readonly tickets$: Observable<TicketInfo>;
  /**
   * Current state of every order (see `ordersState`), healed from REST snapshots when `resync` is on; replays the
   * current state to late subscribers. Each state says whether it is `authoritative` ({@link StateSync}).
   */
  readonly orders$: Observable<OrdersState & StateSync>;
  /**
   * Current balance of every asset (see `balancesState`), healed from REST snapshots when `resync` is on; replays
   * the current state to late subscribers. Each state says whether it is `authoritative` ({@link StateSync}).
   */
  readonly balances$: Observable<BalancesState & StateSync>;
  /**
   * Connection status (epochs counted across listen keys; never shows a listen key) plus counters since the
   * stream was created ({@link UserStatus}, the shape of `MarketStreams.status$`). Replays the current one at
   * once (`closed`, epoch 0, before the first start); then emits every connection transition at once and
   * counter changes coalesced, one emission per burst, none when the counters end where they were.
   * Observes only: subscribing to it starts nothing (subscribe to an event or state stream for that); when
   * the stream stops (last subscriber gone, or ended by your own settings) it shows `closed` and stays
   * subscribed for the next start. Never errors or completes.
   */
  readonly status$: Observable<UserStatus>;
  /**
   * Every error, none of which ends anything: `DecodeError`s (the other events of the frame still arrive), lost
   * sockets, failed or rejected listen-key calls (retried), `EventTimeOutOfRangeError`s (event dropped).
   * Observes only, like `status$` (an error that ends the stream, always of your own settings, shows here too).
   */
  readonly errors$: Observable<Error>;
  /** One item per reconnection (or key change) after the first open: the interval whose events are lost. Observes only, like `status$`. */
  readonly gaps$: Observable<UserStreamGap>;
  /**
   * Places an order through the stream's `rest` and follows it: emits the order's state from the REST answer
   * (or the stream's first report of it, whichever comes first) at every change, to a terminal status
   * (FILLED, CANCELED, PARTIALLY_CANCELED, REJECTED), then completes. Cold: each subscription places one order
   * (and keeps the stream open while it follows it; unsubscribing stops following, it cancels nothing).
   *
   * - The order always carries a client order id (yours, or one `rest` generates); reports are matched by it
   *   until the order id is known.
   * - With `options.rules`, an order that breaks the symbol's rules fails with an `OrderRuleError` and is not sent.
   * - The placement is never sent twice. When its answer is lost (`OrderOutcomeUnknownError`), the outcome is
   *   found: from the stream if a report with that client order id arrives, else by `getOrder` by client order
   *   id with backoff (`options.maxLookups`, `lookupDelayMs`). It ends with the order's states, or with an
   *   `OrderNotPlacedError` when the service says it has no such order after the placement's `recvWindow` has
   *   passed (when it can no longer arrive), or, when every lookup failed, with the `OrderOutcomeUnknownError`.
   * - A rejection by the service (its error body) fails with that `RequestRejectedError`: nothing was placed.
   * - Needs `rest` with `newOrder` and `getOrder` (a `restClient`); otherwise fails with a `ConfigError`.
   *
   * @example
   * ```ts
   * import { restClient, userStream } from 'ex-streams';
   * declare const apiKey: string, secretKey: string;
   * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
   * const user = userStream({ url: 'wss://stream.example.com/api/v1/ws', rest });
   * user.placeOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' })
   *   .subscribe({ next: (o) => console.log(o.status, o.filledQuantity), complete: () => console.log('final') });
   * // NEW 0, PARTIALLY_FILLED 0.004, FILLED 0.01, final
   * ```
   */
  placeOrder(request: NewOrderRequest, options?: PlaceOrderOptions): Observable<OrderState>;
  /**
   * Cancels an order (by order id or client order id) and emits its final state once, then completes: CANCELED
   * (or PARTIALLY_CANCELED), or FILLED when it filled first. An order `orders$` already shows final is not sent a
   * cancel: its state is the answer. A cancel whose answer is lost is resolved as
   * `placeOrder` resolves a placement (the stream, else `getOrder` with backoff); a refusal by the service for an
   * order still open fails with that `RequestRejectedError`. Needs `rest` with `cancelOrder` and `getOrder`.
   *
   * @example
   * ```ts
   * import { restClient, userStream } from 'ex-streams';
   * declare const apiKey: string, secretKey: string;
   * const user = userStream({ url: 'wss://stream.example.com/api/v1/ws', rest: restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey }) });
   * user.cancelOrder({ clientOrderId: 'grid-7' }).subscribe((o) => console.log(o.status)); // 'CANCELED'
   * ```
   */
  cancelOrder(ref: OrderRef, options?: PlaceOrderOptions): Observable<OrderState>;
}

/**
 * The private (user data) stream of an account: orders, balances and trade tickets, decoded, ordered by
 * event time and folded into current state.
 *
 * Behaviour:
 * - gets a listen key (through `rest`: created, kept alive, closed after the last unsubscribe) and connects
 *   to `${url}/${listenKey}`; a new key moves the socket to the new path;
 * - a socket closed with code 4001 (key not valid), or `suspectKeyAfterFailures` failed attempts in a row,
 *   makes the stream recreate the key instead of reconnecting forever to a dead one; recreations in a row
 *   back off (see `listenKey`), so a service that rejects every key is not flooded;
 * - the service's word never ends it: a rejected or failed key creation (any HTTP status, an answer without a
 *   key, a network error) goes to `errors$` and to `status$` (`reconnecting` with the cause) and is retried
 *   with capped, jittered backoff (at least `Retry-After` after a 429 / 418); any other close code
 *   (4000-4999 included) is reconnected; `status$` and `errors$` never error or complete by themselves; only
 *   the caller's own settings (a `ConfigError`, `reconnect: false`, `maxRetries`, a `listenKey$` that errors)
 *   end the streams;
 * - the streams of every `userStream` (and `listenKey`) on one `rest` object share one listen key and one
 *   keepalive; the key is deleted when the last of them leaves;
 * - an event whose `E` is further than `maxEventTimeSkewMs` from the clock goes to `errors$` as an
 *   `EventTimeOutOfRangeError` and is dropped;
 * - heartbeats (ping every 10 s, answers to server pings) are done by the connection;
 * - each frame is a JSON array whose elements are decoded one by one: a bad element goes to `errors$` and
 *   the others arrive;
 * - events pass through `reorderByEventTime` (ordered by `E`, duplicates dropped by {@link privateEventKey});
 * - after a reconnection the service does not replay what it pushed meanwhile: `gaps$` says which interval
 *   to reconcile over REST, from the last frame received on the lost socket (whatever ended it: a close, an
 *   error, a heartbeat timeout; for a frame of events, their time `E` when earlier, on the local clock, so
 *   a frame read late by a busy process does not shift the gap) to the new open;
 * - with `rest`'s `openOrders`, `getOrder` and `account` (option `resync`), `orders$` and `balances$` heal
 *   themselves: after every open (the first and each after a gap) the open orders, the orders that left them
 *   and the account are fetched (failures on `errors$`, retried with backoff, at least `Retry-After`) and merged
 *   by update time; every state says whether it is `authoritative` ({@link StateSync}), `false` from a lost
 *   socket until the next snapshot is merged;
 * - `status$`, `errors$` and `gaps$` observe only: subscribed alone they start nothing; `status$` counts, since
 *   the stream was created, gaps, key changes, failed key calls, decode errors, events dropped for their time
 *   and late events, and shows whether the state is authoritative ({@link UserCounters});
 * - one socket however many subscribers to however many of the streams; cold: the socket opens on the first
 *   subscription and closes (and the key is closed) after the last unsubscription;
 * - the listen key never appears in `status$`, `errors$` or any error (it is redacted).
 *
 * @example
 * ```ts
 * import { restClient, userStream } from 'ex-streams';
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * const user = userStream({ url: 'wss://stream.example.com/api/v1/ws', rest });
 * user.orders$.subscribe((orders) => console.log([...orders.values()].map((o) => `${o.orderId} ${o.status}`)));
 * // ['1470000001 NEW'], then ['1470000001 FILLED']
 * user.gaps$.subscribe((gap) => console.log('reconcile', gap.downSince, gap.reconnectedAt));
 * ```
 */
export function userStream(config: UserStreamConfig): UserStream {
  const { rest } = config;
  // What `status$` shows: the connection (fed by the outputs below) and the counters, counted where each thing happens.
  const state = new UserStreamState();
  const { counters } = state;
  // The orders placeOrder / cancelOrder follow: reconciled after each open with the orders the state knew.
  const followed = new FollowedOrders();
  const settings = coreSettings(config, state, followed);
  const { scheduler, serverOffsetMs } = settings;
  const connectionStatus = new BehaviorSubject<ConnectionStatus>({ type: 'closed', epoch: 0 });
  const serverNow = (): number => scheduler.now() + (serverOffsetMs === undefined ? 0 : serverOffsetMs());
  const ledger: OrderLedger = {
    follow: (order) => followed.follow(order),
    offer: (order) => state.states?.offer(order, serverNow()),
    report: (error) => state.states?.report(error),
  };
  const live$ = connectionStatus.pipe(map((status) => status.type === 'open'));
  // The private path (see userCore), shared by every stream below: each output gets the values of its kind.
  const outputs = new UserOutputs(userCore(settings, state));
  // The connection as every status$ observer sees it (a passive listener starts nothing, and stays across
  // starts; a state repeated, e.g. the start's `connecting` then the connection's own, is dropped by streamStatus);
  // a stop also ends the sync of the state (the next start folds afresh).
  outputs.pick('status', (i) => i.status, true).subscribe((status) => {
    if (status.type === 'closed' && (counters.value.authoritative || counters.value.syncedEpoch !== undefined)) {
      const { syncedEpoch: _, ...rest } = counters.value;
      counters.next({ ...rest, authoritative: false });
    }
    connectionStatus.next(status);
  });

  const withLatest = <A>(source: Observable<A>, current: () => A | undefined): Observable<A> =>
    defer(() => {
      const now = current();
      return now === undefined ? source : source.pipe(startWith(now));
    });

  const orders$ = withLatest(outputs.pick('orders', (i) => i.orders), () => state.states?.orders);
  const orderLoop = (needs: readonly ('newOrder' | 'cancelOrder' | 'getOrder')[]): OrderLoopDeps | ConfigError => {
    const missing = needs.filter((call) => typeof rest?.[call] !== 'function');
    if (missing.length > 0) return new ConfigError('rest', `needs ${missing.join(' and ')} (a restClient has them)`);
    return { rest: rest as OrderLoopDeps['rest'], orders$, live$, ledger, scheduler, fallbackClientOrderId: clientOrderIds(scheduler) };
  };
  return {
    placeOrder: (request, options) => {
      const deps = orderLoop(['newOrder', 'getOrder']);
      return deps instanceof ConfigError ? throwError(() => deps) : placeOrder(deps, request, options);
    },
    cancelOrder: (ref, options) => {
      const deps = orderLoop(['cancelOrder', 'getOrder']);
      return deps instanceof ConfigError ? throwError(() => deps) : cancelOrder(deps, ref, options);
    },
    events$: outputs.events$(),
    executionReports$: outputs.events$('executionReport'),
    accountUpdates$: outputs.events$('outboundAccountInfo'),
    tickets$: outputs.events$('ticketInfo'),
    orders$,
    balances$: withLatest(outputs.pick('balances', (i) => i.balances), () => state.states?.balances),
    // Observers: they see what runs, they start nothing (see UserOutputs).
    status$: streamStatus(connectionStatus, counters, scheduler),
    errors$: outputs.pick('error', (i) => i.error, true),
    gaps$: outputs.pick('gap', (i) => i.gap, true),
  };
}

/** `userStream`'s config checked (a `ConfigError` for a value that cannot work) and resolved: its core's settings. */
function coreSettings(config: UserStreamConfig, state: UserStreamState, followed: FollowedOrders): UserCoreSettings {
  const {
    url = config.venue?.privateStreamUrl,
    rest,
    listenKeyOptions = {},
    listenKey$,
    resync = true,
    connection: connectionOptions = {},
    reorder = {},
    suspectKeyAfterFailures = 3,
    maxEventTimeSkewMs = 300_000,
    scheduler = asyncScheduler,
    WebSocketCtor,
  } = config;
  if (url === undefined) throw new ConfigError('url', 'or venue is required');
  if (rest === undefined && listenKey$ === undefined) throw new ConfigError('rest', 'or listenKey$ is required');
  const keyed = keyedUrlProblem(url);
  if (keyed !== undefined) throw new ConfigError('url', keyed);
  if (!(suspectKeyAfterFailures >= 1)) throw new ConfigError('suspectKeyAfterFailures', 'must be a number >= 1');
  if (!(maxEventTimeSkewMs > 0)) throw new ConfigError('maxEventTimeSkewMs', 'must be a number > 0');
  const serverOffset = rest !== undefined && typeof rest.serverTimeOffsetMs === 'function' ? rest : undefined;
  const serverOffsetError = rest !== undefined && typeof rest.serverTimeOffsetErrorMs === 'function' ? rest : undefined;
  const { onLate } = reorder;
  const openReorder = reorderBuffer<PrivateEvent>(
    {
      ...reorder,
      scheduler,
      onLate: (event, watermark) => {
        state.count((c) => ({ lateEvents: c.lateEvents + 1 }));
        onLate?.(event, watermark);
      },
    },
    undefined,
    { releasedByCaller: true },
  );
  return {
    base: url.replace(/\/+$/, ''),
    listenKey$,
    rest,
    listenKeyOptions,
    snapshots: resync ? snapshotApi(rest) : undefined,
    followed: () => followed.list(),
    connection: connectionOptions,
    suspectKeyAfterFailures,
    maxEventTimeSkewMs,
    serverOffsetMs: serverOffset && (() => serverOffset.serverTimeOffsetMs!()),
    serverOffsetErrorMs: serverOffsetError && (() => serverOffsetError.serverTimeOffsetErrorMs!()),
    scheduler,
    WebSocketCtor,
    openReorder,
    openDedupe: dedupeOpener(reorder),
  };
}

/**
 * Opens the de-duplication memory of a run (see `UserCoreSettings.openDedupe`). It runs in front of the folds and the
 * buffer (see userCore), so the buffer itself remembers nothing. A `dedupeKey` of the caller (even `undefined`: no
 * de-duplication) replaces the default identity.
 */
function dedupeOpener(reorder: NonNullable<UserStreamConfig['reorder']>): UserCoreSettings['openDedupe'] {
  const { dedupeKey } = reorder;
  const remember: ((seen: RecentKeys, event: PrivateEvent, now: number) => boolean) | undefined =
    'dedupeKey' in reorder ? dedupeKey && ((seen, event, now) => seen.add(dedupeKey(event), now)) : rememberPrivateEvent;
  const { dedupeWindowMs = 60_000, dedupeMaxKeys = 100_000 } = reorder;
  return () => {
    if (remember === undefined) return undefined;
    const seen = new RecentKeys(dedupeWindowMs, dedupeMaxKeys);
    return (event, now) => remember(seen, event, now);
  };
}
