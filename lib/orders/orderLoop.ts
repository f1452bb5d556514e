/**
 * The order loop: one call from a placement to the order's final state, and one from a cancel to it. Uses a
 * `rest` (placement, lookups, cancels) and a user stream's `orders$` (the state on arrival); an answer lost on the
 * way is resolved, never guessed: from the stream, else by looking the order up, and a placement is never sent
 * twice. While the private stream is not open the order is looked up (backed off); every answer is checked to be
 * about this order before it is adopted, and folded into `orders$` (the stream's `ledger`).
 * @module
 */
import { distinctUntilChanged, type Observable as Obs, Observable, type SchedulerLike, Subscription } from 'rxjs';
import type { RestOrder } from '../codecs/rest/order';
import { ConfigError, type OrderIdentity, OrderNotPlacedError, OrderOutcomeUnknownError } from '../errors';
import { compareDecimal } from '../decimal/compare';
import type { NewOrderRequest, OrderRef, RestCalls } from '../rest/callTypes';
import { placement, placementInDoubt } from '../rest/placement';
import { applyExecutionReport, compareReports, type OrderState, restOrderReport, statusRank } from '../user/orderState';
import type { OrdersState } from '../user/ordersState';
import type { FollowedOrder as Followed } from '../user/internal/followedOrders';
import { identityMismatch } from './orderIdentity';
import { noSuchOrder } from './noSuchOrder';
import { checkOrder, type SymbolRules } from './symbolRules';

/**
 * Options of `placeOrder` and `cancelOrder` on a user stream.
 *
 * @example
 * ```ts
 * import { restClient, userStream, type PlaceOrderOptions } from 'ex-streams';
 * import { symbolRules } from 'ex-streams/orders';
 * import { firstValueFrom } from 'rxjs';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * const rules = symbolRules(await firstValueFrom(rest.exchangeInfo()));
 * const options: PlaceOrderOptions = { rules, maxLookups: 6 };
 * userStream({ url: 'wss://stream.example.com/api/v1/ws', rest })
 *   .placeOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' }, options)
 *   .subscribe((order) => console.log(order.status)); // 'NEW', then 'FILLED'
 * ```
 */
export interface PlaceOrderOptions {
  /**
   * The symbol's rules (`symbolRules(exchangeInfo)`, the map or one symbol's): an order that breaks one fails
   * with an `OrderRuleError` naming the rule and the bound, and nothing is sent. Default none (the service checks).
   */
  readonly rules?: SymbolRules | ReadonlyMap<string, SymbolRules> | undefined;
  /**
   * Most lookups (`getOrder`) of an order whose answer was lost before the call gives up and fails with the
   * `OrderOutcomeUnknownError` (the outcome is still unknown, and said so). Default 8.
   */
  readonly maxLookups?: number | undefined;
  /**
   * Wait before the first lookup, doubled after each (capped at 8 s): of an order whose answer was lost, and of an
   * order followed while the private stream is not open (looked up until the stream is open again or the order is
   * final; the reconciliation after the stream opens looks it up too). Default 500 ms.
   */
  readonly lookupDelayMs?: number | undefined;
}

/**
 * What the user stream keeps of the orders the loop follows: they are reconciled after each open, REST answers
 * are folded into `orders$`, errors go to `errors$`. @internal
 */
export interface OrderLedger {
  /** Follows `order` (reconciled after each open) until the returned function is called. */
  follow(order: Followed): () => void;
  /** A REST answer about a followed order, checked: folded into `orders$`. */
  offer(order: RestOrder): void;
  /** To `errors$`. */
  report(error: Error): void;
}

/** What the order loop uses. @internal */
export interface OrderLoopDeps {
  readonly rest: Pick<RestCalls, 'newOrder' | 'getOrder' | 'cancelOrder'> & {
    readonly newClientOrderId?: (() => string) | undefined;
    readonly recvWindowMs?: number | undefined;
    readonly serverTimeOffsetErrorMs?: (() => number) | undefined;
  };
  /** The user stream's orders, folded on arrival. */
  readonly orders$: Observable<OrdersState>;
  /** Whether the private stream is open now (replays the current value). */
  readonly live$: Obs<boolean>;
  readonly ledger: OrderLedger;
  readonly scheduler: SchedulerLike;
  /** Makes a client order id when the rest has no generator of its own. */
  readonly fallbackClientOrderId: () => string;
}

/** How long after a placement left a "no such order" proves it was not placed, beyond its `recvWindow`. @internal */
export const NOT_PLACED_MARGIN_MS = 1000;

const MAX_LOOKUP_DELAY_MS = 8000;

const FINISHED = statusRank('FILLED');
const isTerminal = (state: OrderState): boolean => statusRank(state.status) >= FINISHED;

/** `current` advanced by `seen` (a state of the stream, or the one a REST order stands for): never backwards. */
function advance(current: OrderState | undefined, seen: OrderState): OrderState {
  if (current === undefined) return seen;
  const notBehind = compareReports(seen.report, current.report) >= 0 && compareDecimal(seen.filledQuantity, current.filledQuantity) >= 0;
  return notBehind ? seen : applyExecutionReport(current, seen.report);
}

const fromRest = (order: RestOrder, now: number): OrderState | undefined => {
  const report = restOrderReport(order, now);
  return report === undefined ? undefined : applyExecutionReport(undefined, report);
};

/**
 * One order followed from every source: the stream (by id, or by client order id until the id is known), its own
 * REST answers and lookups. Every answer is checked to be about this order (client order id, order id once known,
 * symbol) before it is adopted; another order's answer goes to `errors$` as an `OrderMismatchError`.
 */
class FollowedOrder {
  state: OrderState | undefined;
  /** What the ledger follows (the order id filled in once known). */
  readonly followed: Followed;
  constructor(
    private readonly subscriber: { next(state: OrderState): void; complete(): void },
    private readonly deps: OrderLoopDeps,
    identity: OrderIdentity & { readonly notPlacedAfter?: number | undefined },
    /** Emit every state (a placement) or only the final one (a cancel). */
    private readonly every: boolean,
  ) {
    this.followed = { ...identity };
  }

  get orderId(): string | undefined {
    return this.followed.orderId;
  }

  get done(): boolean {
    return this.state !== undefined && isTerminal(this.state);
  }

  /** Orders the stream showed with this client order id before the request left (a reused id): never this order. */
  private readonly before = new Set<string>();

  /** Finds the order in a state of `orders$`. */
  fromStream(orders: OrdersState): void {
    const { orderId, clientOrderId, symbol } = this.followed;
    if (orderId !== undefined) {
      const seen = orders.get(orderId);
      if (seen !== undefined && this.adopts('stream', seen)) this.offer(seen);
      return;
    }
    for (const seen of orders.values()) {
      if (seen.clientOrderId === clientOrderId && (symbol === undefined || seen.symbol === symbol) && !this.before.has(seen.orderId)) {
        return this.offer(seen);
      }
    }
  }

  /** Remembers the orders `orders` holds with this client order id: they are not the one about to be placed. */
  existing(orders: OrdersState): void {
    for (const seen of orders.values()) if (seen.clientOrderId === this.followed.clientOrderId) this.before.add(seen.orderId);
  }

  /** A REST answer (placement, cancel, lookup): adopted, and folded into `orders$`, only if it is about this order. */
  fromRest(source: 'placement' | 'cancel' | 'lookup', answer: RestOrder): boolean {
    if (!this.adopts(source, answer) || this.before.has(answer.orderId)) return false;
    this.deps.ledger.offer(answer);
    const state = fromRest(answer, this.deps.scheduler.now());
    if (state !== undefined) this.offer(state);
    else this.followed.orderId ??= answer.orderId;
    return true;
  }

  private adopts(source: 'placement' | 'cancel' | 'lookup' | 'stream', got: { orderId: string; clientOrderId?: string | undefined; symbol: string }): boolean {
    const mismatch = identityMismatch(source, this.followed, got);
    if (mismatch === undefined) return true;
    this.deps.ledger.report(mismatch);
    return false;
  }

  private offer(seen: OrderState): void {
    const next = advance(this.state, seen);
    this.followed.orderId ??= next.orderId;
    if (next === this.state) return;
    const before = this.state;
    this.state = next;
    const done = isTerminal(next);
    // A state that says something new: another status, or more filled (not the same state from another source).
    const news = before === undefined || before.status !== next.status || compareDecimal(before.filledQuantity, next.filledQuantity) !== 0;
    if (done || (this.every && news)) this.subscriber.next(next);
    if (done) this.subscriber.complete();
  }
}

/**
 * Places `request` and follows the order to a terminal status (see `UserStream.placeOrder`). @internal
 */
export function placeOrder(deps: OrderLoopDeps, request: NewOrderRequest, options: PlaceOrderOptions = {}): Observable<OrderState> {
  const { rest, scheduler } = deps;
  return new Observable<OrderState>((subscriber) => {
    const rules = rulesFor(options.rules, request.symbol);
    const broken = rules === undefined ? undefined : checkOrder(rules, request);
    if (broken !== undefined) return subscriber.error(broken);
    const sent = placement(request, rest.newClientOrderId ?? deps.fallbackClientOrderId);
    const clientOrderId = sent.newClientOrderId!;
    const sentAt = scheduler.now();
    // From then on a "no such order" proves the placement did not arrive (its recvWindow has passed).
    const notPlacedAfter = sentAt + (rest.recvWindowMs ?? 5000) + NOT_PLACED_MARGIN_MS + (rest.serverTimeOffsetErrorMs?.() ?? 0);
    const order = new FollowedOrder(subscriber, deps, { clientOrderId, symbol: sent.symbol, notPlacedAfter }, true);
    // Followed from before the request leaves: a reconciliation while it is on its way looks it up too.
    subscriber.add(deps.ledger.follow(order.followed));
    // The stream first: a report that overtakes the REST answer is not missed. The state it replays at once is from
    // before the placement: an order there with the same client order id (an id reused) is another order.
    let sending = false;
    subscriber.add(
      deps.orders$.subscribe({ next: (orders) => (sending ? order.fromStream(orders) : order.existing(orders)), error: (e: unknown) => subscriber.error(e) }),
    );
    if (subscriber.closed) return undefined;
    sending = true;
    /** `true` once the placement's answer is lost (or about another order): the order is looked up until found. */
    let unknown: OrderOutcomeUnknownError | undefined;
    let answered = false;
    const watch = watcher(deps, options, order, {
      wanted: (live) => unknown !== undefined || (!live && answered),
      lookup: () => rest.getOrder(order.orderId !== undefined ? { orderId: order.orderId } : { clientOrderId }),
      notFound: () => {
        if (order.orderId !== undefined || unknown === undefined) return 'retry';
        if (scheduler.now() < notPlacedAfter) return notPlacedAfter - scheduler.now();
        subscriber.error(new OrderNotPlacedError(sent.symbol, clientOrderId));
        return 'stop';
      },
      gaveUp: () => (unknown !== undefined && order.state === undefined ? (subscriber.error(unknown), true) : false),
    });
    subscriber.add(watch);
    subscriber.add(
      rest.newOrder(sent).subscribe({
        next: (answer) => {
          answered = true;
          if (!order.fromRest('placement', answer)) {
            // An answer about another order says nothing of ours: its outcome is unknown, and found as such.
            unknown = new OrderOutcomeUnknownError('POST', '/spot/order', placementInDoubt(sent), new Error('the placement was answered with another order'));
          }
          watch.kick();
        },
        error: (error: unknown) => {
          if (!(error instanceof OrderOutcomeUnknownError)) return subscriber.error(error);
          // Resolved from the stream if a report comes; meanwhile looked up by client order id.
          unknown = error;
          answered = true;
          watch.kick();
        },
      }),
    );
    return undefined;
  });
}

/**
 * Cancels the order `ref` names and resolves to its final state (see `UserStream.cancelOrder`). @internal
 */
export function cancelOrder(deps: OrderLoopDeps, ref: OrderRef, options: PlaceOrderOptions = {}): Observable<OrderState> {
  const { rest } = deps;
  return new Observable<OrderState>((subscriber) => {
    if (ref.orderId === undefined && ref.clientOrderId === undefined) return subscriber.error(new ConfigError('ref', 'needs an orderId or a clientOrderId'));
    const order = new FollowedOrder(subscriber, deps, { orderId: ref.orderId, clientOrderId: ref.clientOrderId }, false);
    subscriber.add(deps.orders$.subscribe({ next: (orders) => order.fromStream(orders), error: (e: unknown) => subscriber.error(e) }));
    // Already final in the state: nothing to cancel.
    if (subscriber.closed) return undefined;
    subscriber.add(deps.ledger.follow(order.followed));
    /** The cancel's failure: unknown (looked up until final) or a refusal (looked up once to learn the state). */
    let failed: unknown;
    let answered = false;
    const watch = watcher(deps, options, order, {
      wanted: (live) => failed !== undefined || (!live && answered),
      lookup: () => rest.getOrder(order.orderId !== undefined ? { orderId: order.orderId } : { clientOrderId: ref.clientOrderId! }),
      found: () => {
        // A definite refusal of an order still open: the cancel did not happen.
        if (failed !== undefined && !(failed instanceof OrderOutcomeUnknownError) && order.state !== undefined && !order.done) subscriber.error(failed);
      },
      // The cancel failed and the service has no such order: that refusal is the answer. After an answered cancel
      // (followed while the stream is down), a "no such order" says nothing final: asked again.
      notFound: () => (failed !== undefined ? (subscriber.error(failed), 'stop') : 'retry'),
      gaveUp: () => (failed !== undefined ? (subscriber.error(failed), true) : false),
    });
    subscriber.add(watch);
    subscriber.add(
      rest.cancelOrder(ref).subscribe({
        next: (answer) => {
          answered = true;
          if (!order.fromRest('cancel', answer)) failed = new OrderOutcomeUnknownError('DELETE', '/api/v1/spot/order', { action: 'cancel', ...ref }, new Error('the cancel was answered with another order'));
          watch.kick();
        },
        error: (error: unknown) => {
          // Refused (already filled or cancelled, locked, …) or unknown: what the service has decides.
          failed = error;
          answered = true;
          watch.kick();
        },
      }),
    );
    return undefined;
  });
}

interface WatchRules {
  /** Whether the order should be looked up now, given whether the private stream is open. */
  readonly wanted: (live: boolean) => boolean;
  readonly lookup: () => Observable<RestOrder>;
  /** After an answer adopted. */
  readonly found?: () => void;
  /** The service has no such order: look again (`'retry'`, or after this many ms) or `'stop'` (the caller ended). */
  readonly notFound: () => 'retry' | 'stop' | number;
  /** `maxLookups` lookups made in a row without an answer: `true` when the caller ended. */
  readonly gaveUp: () => boolean;
}

/**
 * Looks `order` up, backed off (`lookupDelayMs`, doubled, capped at 8 s), while `wanted` says so and the order is
 * not final: when its answer is unknown, and while the private stream is not open. Answers are checked and adopted
 * by the order (`fromRest`); a failed lookup is asked again (never the order request). `kick()` re-reads `wanted`.
 */
function watcher(deps: OrderLoopDeps, options: PlaceOrderOptions, order: FollowedOrder, rules: WatchRules): Subscription & { kick(): void } {
  const { maxLookups = 8, lookupDelayMs = 500 } = options;
  const { scheduler } = deps;
  const all = new Subscription() as Subscription & { kick(): void };
  let live = false;
  let attempt = 0;
  let misses = 0;
  let pending: Subscription | undefined;
  const want = (): boolean => !all.closed && !order.done && rules.wanted(live);
  const ask = (delayMs: number): void => {
    pending = scheduler.schedule(() => {
      pending = undefined;
      if (!want()) return;
      if (misses >= maxLookups && rules.gaveUp()) return;
      const nextDelayMs = Math.min(MAX_LOOKUP_DELAY_MS, lookupDelayMs * 2 ** ++attempt);
      all.add(
        rules.lookup().subscribe({
          next: (answer) => {
            if (order.fromRest('lookup', answer)) {
              misses = 0;
              rules.found?.();
            } else misses++;
            if (want() && pending === undefined) ask(nextDelayMs);
          },
          error: (error: unknown) => {
            misses++;
            if (!noSuchOrder(error)) return ask(nextDelayMs);
            const next = rules.notFound();
            if (next !== 'stop') ask(next === 'retry' ? nextDelayMs : Math.max(next, nextDelayMs));
          },
        }),
      );
    }, delayMs);
    all.add(pending);
  };
  all.kick = () => {
    if (pending !== undefined || !want()) return;
    attempt = 0;
    ask(lookupDelayMs);
  };
  all.add(
    deps.live$.pipe(distinctUntilChanged()).subscribe((open) => {
      live = open;
      all.kick();
    }),
  );
  return all;
}

function rulesFor(rules: PlaceOrderOptions['rules'], symbol: string): SymbolRules | undefined {
  if (rules === undefined) return undefined;
  if (!(rules instanceof Map)) return rules as SymbolRules;
  const found = rules.get(symbol);
  if (found === undefined) throw new ConfigError('symbol', `${symbol.slice(0, 32)} is not among the symbols of the rules given`);
  return found;
}
