import { RequestFailedError } from './requestErrors';

/**
 * A rule of a symbol's filters (`exchangeInfo`) an order breaks (see {@link OrderRuleError}):
 * - `'decimal'`: the price, quantity or amount is not plain decimal text (digits, optionally a point and digits);
 * - `'tickSize'`, `'minPrice'`, `'maxPrice'`: the price (`PRICE_FILTER`);
 * - `'stepSize'`, `'minQty'`, `'maxQty'`: the quantity (`LOT_SIZE`);
 * - `'minNotional'`: price × quantity (`MIN_NOTIONAL`);
 * - `'minAmount'`, `'maxAmount'`: the amount of a market order (`TRADE_AMOUNT`).
 *
 * @example
 * ```ts
 * import { OrderRuleError, type OrderRule } from 'ex-streams/orders';
 *
 * const ruleOf = (error: Error): OrderRule | undefined => (error instanceof OrderRuleError ? error.rule : undefined);
 * ruleOf(new OrderRuleError('BTCUSDT', 'price', 'tickSize', '0.01', '20000.123')); // 'tickSize'
 * ```
 */
export type OrderRule =
  | 'decimal'
  | 'tickSize'
  | 'minPrice'
  | 'maxPrice'
  | 'stepSize'
  | 'minQty'
  | 'maxQty'
  | 'minNotional'
  | 'minAmount'
  | 'maxAmount';

/** What a rule is about, in a message: `tickSize` → `'not a multiple of the tick size'`. */
const RULE_WORDS: Readonly<Record<OrderRule, string>> = {
  decimal: 'not plain decimal text (digits, optionally a point and digits)',
  tickSize: 'not a multiple of the tick size',
  minPrice: 'below the minimum price',
  maxPrice: 'above the maximum price',
  stepSize: 'not a multiple of the step size',
  minQty: 'below the minimum quantity',
  maxQty: 'above the maximum quantity',
  minNotional: 'below the minimum notional',
  minAmount: 'below the minimum amount',
  maxAmount: 'above the maximum amount',
};

/**
 * An order that breaks one of its symbol's rules (`checkOrder`, `fitOrder`), found before anything is sent:
 * which `field` of the order, which `rule`, the rule's `bound` and the order's `value`. For `'minNotional'` the
 * field is `'notional'` and the value is price × quantity; for `'decimal'` there is no bound and the value is
 * a short excerpt of the text at fault.
 *
 * @example
 * ```ts
 * import { OrderRuleError } from 'ex-streams/orders';
 *
 * const e = new OrderRuleError('BTCUSDT', 'price', 'tickSize', '0.01', '20000.123');
 * e.message; // 'BTCUSDT price 20000.123 is not a multiple of the tick size 0.01'
 * e.rule;    // 'tickSize'
 * ```
 */
export class OrderRuleError extends Error {
  override readonly name = 'OrderRuleError';
  constructor(
    /** The order's symbol. */
    readonly symbol: string,
    /** The value at fault: the order's `price`, `quantity` or `amount`, or its `notional` (price × quantity). */
    readonly field: 'price' | 'quantity' | 'amount' | 'notional',
    /** The rule broken. */
    readonly rule: OrderRule,
    /** The rule's bound as decimal text (the tick size, the minimum, ...); `undefined` for `'decimal'`. */
    readonly bound: string | undefined,
    /** The order's value that breaks it, as text. */
    readonly value: string,
  ) {
    super(`${symbol} ${field} ${value} is ${RULE_WORDS[rule]}${bound === undefined ? '' : ` ${bound}`}`);
  }
}

/**
 * What {@link OrderOutcomeUnknownError} knows of the order it may have placed or cancelled: enough to find it
 * (`clientOrderId`, with the symbol) and to recognise it.
 *
 * @example
 * ```ts
 * import type { OrderInDoubt } from 'ex-streams';
 *
 * const order: OrderInDoubt = { action: 'place', clientOrderId: 'xs1k2j3h4g5f6d7s8a9', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' };
 * ```
 */
export interface OrderInDoubt {
  /** What the request did: place a new order, or cancel one. */
  readonly action: 'place' | 'cancel';
  /** The client order id sent with the placement (or the one the cancel named). */
  readonly clientOrderId?: string | undefined;
  /** The order id the cancel named. */
  readonly orderId?: string | undefined;
  readonly symbol?: string | undefined;
  readonly side?: string | undefined;
  readonly type?: string | undefined;
  readonly price?: string | undefined;
  readonly quantity?: string | undefined;
  /** Quote amount of a market order. */
  readonly amount?: string | undefined;
}

/**
 * A placement or a cancel whose request may have reached the service, but whose answer was lost: no answer
 * within the deadline, a connection reset, a gateway's 5xx page without the service's error body, the
 * service's own "execution status unknown" (-1006, -1007), or a success answer that could not be read. The
 * order may exist (or may be cancelled): the library never sends the request again by itself. Find out with
 * `getOrder({ clientOrderId })` (what `userStream(...).placeOrder` does for you), or watch `orders$`.
 * A {@link RequestFailedError}, so code that handles "no answer" handles this too.
 *
 * @example
 * ```ts
 * import { OrderOutcomeUnknownError, restClient } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' }).subscribe({
 *   error: (e) => {
 *     if (e instanceof OrderOutcomeUnknownError) rest.getOrder({ clientOrderId: e.order.clientOrderId! }).subscribe(console.log);
 *   },
 * });
 * ```
 */
export class OrderOutcomeUnknownError extends RequestFailedError {
  override readonly name = 'OrderOutcomeUnknownError';
  constructor(
    method: string,
    path: string,
    /** The order in doubt. */
    readonly order: OrderInDoubt,
    /** Why the answer is missing: the deadline, the reset, the gateway page, … (the error of the request). */
    readonly underlying: Error,
  ) {
    super(method, path, `${underlying instanceof RequestFailedError ? underlying.reason : underlying.message}; the order ${inDoubtWords(order)}`);
  }
}

/**
 * A batch call (a batch placement, a cancel by ids) whose answer was lost after the request may have reached the
 * service (the same failures as {@link OrderOutcomeUnknownError}): every order of the batch is in doubt, each in
 * `orders` with what finds it (its client order id). The library never sends the batch again by itself; look each
 * order up (`getOrder({ clientOrderId })`) or watch `orders$`. A {@link RequestFailedError}.
 *
 * @example
 * ```ts
 * import { BatchOutcomeUnknownError, restClient } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * rest.batchOrders([{ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' }]).subscribe({
 *   error: (e) => {
 *     if (e instanceof BatchOutcomeUnknownError) for (const o of e.orders) rest.getOrder({ clientOrderId: o.clientOrderId! }).subscribe(console.log);
 *   },
 * });
 * ```
 */
export class BatchOutcomeUnknownError extends RequestFailedError {
  override readonly name = 'BatchOutcomeUnknownError';
  constructor(
    method: string,
    path: string,
    /** Every order of the batch, each in doubt. */
    readonly orders: readonly OrderInDoubt[],
    /** Why the answer is missing (the error of the request). */
    readonly underlying: Error,
  ) {
    super(
      method,
      path,
      `${underlying instanceof RequestFailedError ? underlying.reason : underlying.message}; ${orders.length} order(s) in doubt: ${orders
        .map((o) => o.clientOrderId ?? o.orderId)
        .join(', ')}`,
    );
  }
}

function inDoubtWords(o: OrderInDoubt): string {
  const what = [o.symbol, o.side, o.type, o.quantity, o.amount === undefined ? undefined : `amount ${o.amount}`, o.price === undefined ? undefined : `@ ${o.price}`]
    .filter((w) => w !== undefined)
    .join(' ');
  const id = o.clientOrderId !== undefined ? `clientOrderId ${o.clientOrderId}` : `orderId ${o.orderId}`;
  return o.action === 'place'
    ? `may have been placed: look it up by ${id}${what === '' ? '' : ` (${what})`}`
    : `may have been cancelled: look up ${id}${what === '' ? '' : ` (${what})`}`;
}

/**
 * The service says it has no order with this client order id, at a time when a placement sent with it can no
 * longer arrive (its `recvWindow` has passed): the placement whose outcome was unknown did not place an order.
 *
 * @example
 * ```ts
 * import { OrderNotPlacedError } from 'ex-streams';
 * new OrderNotPlacedError('BTCUSDT', 'xs1k2j3h4g5f6d7s8a9').message;
 * // 'BTCUSDT order xs1k2j3h4g5f6d7s8a9 was not placed: the service has no order with this client order id'
 * ```
 */
export class OrderNotPlacedError extends Error {
  override readonly name = 'OrderNotPlacedError';
  constructor(
    readonly symbol: string | undefined,
    readonly clientOrderId: string,
  ) {
    super(`${symbol === undefined ? '' : `${symbol} `}order ${clientOrderId} was not placed: the service has no order with this client order id`);
  }
}

/**
 * Which order an answer was expected to be about, or which one it was about (see {@link OrderMismatchError}).
 *
 * @example
 * ```ts
 * import type { OrderIdentity } from 'ex-streams';
 *
 * const ours: OrderIdentity = { clientOrderId: 'grid-7', orderId: '1470000001', symbol: 'BTCUSDT' };
 * ```
 */
export interface OrderIdentity {
  readonly clientOrderId?: string | undefined;
  readonly orderId?: string | undefined;
  readonly symbol?: string | undefined;
}

/**
 * An answer (a placement's, a lookup's, a stream report) that speaks of another order than the one it was asked
 * about: another client order id, another order id once ours is known, or another symbol. It is never taken for
 * ours: the answer is dropped, this error goes to the user stream's `errors$`, and the order is looked up again.
 *
 * @example
 * ```ts
 * import { OrderMismatchError } from 'ex-streams';
 *
 * const explain = (e: unknown) =>
 *   e instanceof OrderMismatchError ? `${e.source}: asked ${e.expected.clientOrderId}, got ${e.got.clientOrderId}` : String(e);
 * // 'lookup: asked grid-7, got grid-8'
 * ```
 */
export class OrderMismatchError extends Error {
  override readonly name = 'OrderMismatchError';
  constructor(
    /** Where the answer came from. */
    readonly source: 'placement' | 'cancel' | 'lookup' | 'snapshot' | 'stream',
    /** The order asked about (what is known of it). */
    readonly expected: OrderIdentity,
    /** The order the answer is about. */
    readonly got: OrderIdentity,
  ) {
    super(`${source} answer about another order: expected ${identityWords(expected)}, got ${identityWords(got)}; ignored`);
  }
}

const identityWords = (o: OrderIdentity): string =>
  [o.symbol, o.orderId === undefined ? undefined : `orderId ${o.orderId}`, o.clientOrderId === undefined ? undefined : `clientOrderId ${o.clientOrderId}`]
    .filter((w) => w !== undefined)
    .join(' ') || 'an unnamed order';
