/**
 * The order loop (issue 26): one call from a placement to the order's final state, and one from a cancel to it.
 * Uses a `rest` (placement, lookups, cancels) and a user stream's `orders$` (the state on arrival); an answer
 * lost on the way is resolved, never guessed: from the stream, else by looking the order up by its client
 * order id, and a placement is never sent twice.
 * @module
 */
import { Observable, type SchedulerLike, Subscription } from 'rxjs';
import type { RestOrder } from '../codecs/rest/order';
import { ConfigError, OrderNotPlacedError, OrderOutcomeUnknownError, RequestRejectedError } from '../errors';
import { compareDecimal } from '../internal/decimal';
import type { NewOrderRequest, OrderRef, RestCalls } from '../rest/callTypes';
import { placement } from '../rest/calls';
import { numericCode } from '../rest/rejection';
import { applyExecutionReport, compareReports, type OrderState, restOrderReport, statusRank } from '../user/orderState';
import type { OrdersState } from '../user/ordersState';
import { checkOrder, type SymbolRules } from './symbolRules';

/**
 * Options of `placeOrder` and `cancelOrder` on a user stream.
 *
 * @example
 * ```ts
 * import { restClient, symbolRules, userStream, type PlaceOrderOptions } from 'ex-streams';
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
  /** Wait before the first lookup, doubled after each (capped at 8 s). Default 500 ms. */
  readonly lookupDelayMs?: number | undefined;
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
  readonly scheduler: SchedulerLike;
  /** Makes a client order id when the rest has no generator of its own. */
  readonly fallbackClientOrderId: () => string;
}

/** The service's answers for an order it does not know: -2013 "Order does not exist.", -2011 "Unknown order sent.", -1143 "Cannot be found on order book". @internal */
export const NO_SUCH_ORDER_CODES: ReadonlySet<number> = new Set([-2013, -2011, -1143]);

/** How long after a placement left a "no such order" proves it was not placed, beyond its `recvWindow`. @internal */
export const NOT_PLACED_MARGIN_MS = 1000;

const MAX_LOOKUP_DELAY_MS = 8000;

const isTerminal = (state: OrderState): boolean => statusRank(state.status) >= statusRank('FILLED');

const noSuchOrder = (error: unknown): boolean => error instanceof RequestRejectedError && NO_SUCH_ORDER_CODES.has(numericCode(error.code) ?? 0);

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

/** One order followed from every source: the stream (by id, or by client order id until the id is known) and REST answers. */
class FollowedOrder {
  state: OrderState | undefined;
  constructor(
    private readonly subscriber: { next(state: OrderState): void; complete(): void },
    private orderId: string | undefined,
    private readonly clientOrderId: string | undefined,
    private readonly symbol: string | undefined,
    /** Emit every state (a placement) or only the final one (a cancel). */
    private readonly every: boolean,
  ) {}

  /** Orders the stream showed with this client order id before the request left (a reused id): never this order. */
  private readonly before = new Set<string>();

  /** Finds the order in a state of `orders$`. */
  fromStream(orders: OrdersState): void {
    if (this.orderId !== undefined) {
      const seen = orders.get(this.orderId);
      if (seen !== undefined) this.offer(seen);
      return;
    }
    for (const seen of orders.values()) {
      if (seen.clientOrderId === this.clientOrderId && (this.symbol === undefined || seen.symbol === this.symbol) && !this.before.has(seen.orderId)) {
        return this.offer(seen);
      }
    }
  }

  /** Remembers the orders `orders` holds with this client order id: they are not the one about to be placed. */
  existing(orders: OrdersState): void {
    for (const seen of orders.values()) if (seen.clientOrderId === this.clientOrderId) this.before.add(seen.orderId);
  }

  offer(seen: OrderState): void {
    const next = advance(this.state, seen);
    this.orderId ??= next.orderId;
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
    const order = new FollowedOrder(subscriber, undefined, clientOrderId, sent.symbol, true);
    // The stream first: a report that overtakes the REST answer is not missed. The state it replays at once is from
    // before the placement: an order there with the same client order id (an id reused) is another order.
    let sending = false;
    subscriber.add(
      deps.orders$.subscribe({ next: (orders) => (sending ? order.fromStream(orders) : order.existing(orders)), error: (e: unknown) => subscriber.error(e) }),
    );
    if (subscriber.closed) return undefined;
    sending = true;
    const sentAt = scheduler.now();
    subscriber.add(
      rest.newOrder(sent).subscribe({
        next: (answer) => {
          const state = fromRest(answer, scheduler.now());
          if (state !== undefined) order.offer(state);
        },
        error: (error: unknown) => {
          if (!(error instanceof OrderOutcomeUnknownError)) return subscriber.error(error);
          // Resolved from the stream if a report comes; meanwhile looked up by client order id.
          const notPlacedAfter = sentAt + (rest.recvWindowMs ?? 5000) + NOT_PLACED_MARGIN_MS + (rest.serverTimeOffsetErrorMs?.() ?? 0);
          subscriber.add(
            lookups(deps, options, () => order.state !== undefined, () => rest.getOrder({ clientOrderId }), {
              found: (answer) => {
                const state = fromRest(answer, scheduler.now());
                if (state !== undefined) order.offer(state);
              },
              notFound: (attempt) => (scheduler.now() >= notPlacedAfter ? (subscriber.error(new OrderNotPlacedError(sent.symbol, clientOrderId)), 0) : Math.max(attempt, notPlacedAfter - scheduler.now())),
              gaveUp: () => subscriber.error(error),
            }),
          );
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
  const { rest, scheduler } = deps;
  return new Observable<OrderState>((subscriber) => {
    if (ref.orderId === undefined && ref.clientOrderId === undefined) return subscriber.error(new ConfigError('ref', 'needs an orderId or a clientOrderId'));
    const order = new FollowedOrder(subscriber, ref.orderId, ref.clientOrderId, undefined, false);
    subscriber.add(deps.orders$.subscribe({ next: (orders) => order.fromStream(orders), error: (e: unknown) => subscriber.error(e) }));
    // Already final in the state: nothing to cancel.
    if (subscriber.closed) return undefined;
    const offerRest = (answer: RestOrder): void => {
      const state = fromRest(answer, scheduler.now());
      if (state !== undefined) order.offer(state);
    };
    subscriber.add(
      rest.cancelOrder(ref).subscribe({
        next: offerRest,
        error: (error: unknown) => {
          // Refused (already filled or cancelled, locked, …) or unknown: what the service has decides.
          const definite = !(error instanceof OrderOutcomeUnknownError);
          subscriber.add(
            lookups(deps, options, () => order.state !== undefined && (isTerminal(order.state) || definite), () => rest.getOrder(ref), {
              found: (answer) => {
                offerRest(answer);
                // A definite refusal of an order still open: the cancel did not happen.
                if (definite && order.state !== undefined && !isTerminal(order.state)) subscriber.error(error);
              },
              notFound: () => (subscriber.error(error), 0),
              gaveUp: () => subscriber.error(error),
            }),
          );
        },
      }),
    );
    return undefined;
  });
}

interface LookupOutcomes {
  readonly found: (answer: RestOrder) => void;
  /** The order is unknown to the service: stop (0), or how long to wait before asking again. */
  readonly notFound: (nextDelayMs: number) => number;
  readonly gaveUp: () => void;
}

/**
 * Asks `lookup` after a backed-off wait until `settled()` or a definite answer; at most `maxLookups` times
 * (failures of the lookup itself are retried, never the order request).
 */
function lookups(
  deps: OrderLoopDeps,
  options: PlaceOrderOptions,
  settled: () => boolean,
  lookup: () => Observable<RestOrder>,
  outcomes: LookupOutcomes,
): Subscription {
  const { maxLookups = 8, lookupDelayMs = 500 } = options;
  const { scheduler } = deps;
  const all = new Subscription();
  let attempt = 0;
  const ask = (delayMs: number): void => {
    all.add(
      scheduler.schedule(() => {
        if (settled()) return;
        if (attempt++ >= maxLookups) return outcomes.gaveUp();
        const nextDelayMs = Math.min(MAX_LOOKUP_DELAY_MS, lookupDelayMs * 2 ** attempt);
        all.add(
          lookup().subscribe({
            next: (answer) => {
              outcomes.found(answer);
              if (!settled()) ask(nextDelayMs);
            },
            error: (error: unknown) => {
              if (!noSuchOrder(error)) return ask(nextDelayMs);
              const wait = outcomes.notFound(nextDelayMs);
              if (wait > 0) ask(wait);
            },
          }),
        );
      }, delayMs),
    );
  };
  ask(lookupDelayMs);
  return all;
}

function rulesFor(rules: PlaceOrderOptions['rules'], symbol: string): SymbolRules | undefined {
  if (rules === undefined) return undefined;
  if (!(rules instanceof Map)) return rules as SymbolRules;
  const found = rules.get(symbol);
  if (found === undefined) throw new ConfigError('symbol', `${symbol.slice(0, 32)} is not among the symbols of the rules given`);
  return found;
}
