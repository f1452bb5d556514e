import type { Observable } from 'rxjs';
import type { OrderSide } from '../codecs/executionReport';
import type { AccountTrade, RestAccount } from '../codecs/rest/account';
import type { ExchangeInfo } from '../codecs/rest/exchangeInfo';
import type { RestKline, RestTrade } from '../codecs/rest/marketData';
import type { RestOrder } from '../codecs/rest/order';
import type { OrderInDoubt } from '../errors';
import type { ServerTime } from '../codecs/rest/serverTime';
import type { DepthRecord } from '../codecs/depth';
import type { DecimalText } from '../decimal';

export type { DecimalText } from '../decimal';

/**
 * Order type of a new order.
 *
 * @example
 * ```ts
 * import type { OrderType } from 'ex-streams';
 *
 * const type: OrderType = 'LIMIT_MAKER'; // post-only
 * ```
 */
export type OrderType = 'LIMIT' | 'MARKET' | 'LIMIT_MAKER';

/**
 * Time in force of a limit order.
 *
 * @example
 * ```ts
 * import type { TimeInForce } from 'ex-streams';
 *
 * const tif: TimeInForce = 'IOC';
 * ```
 */
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';

/**
 * A new order (`POST /api/v1.1/spot/order` by default, or `/api/v1/spot/orderTest` to check it). A `LIMIT` or
 * `LIMIT_MAKER` order needs `price` and `quantity`; a `MARKET` order has no price and gives exactly one of
 * `quantity` (base asset) and `amount` (quote asset to spend, or on v1.1 to receive for a sell). `stpMode` is
 * HashKey's self-trade prevention (`EXPIRE_TAKER`, the venue's default, or `EXPIRE_MAKER`). `recvWindow` comes
 * from the client config.
 *
 * @example
 * ```ts
 * import type { NewOrderRequest } from 'ex-streams';
 *
 * const limit: NewOrderRequest = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01', timeInForce: 'GTC' };
 * const market: NewOrderRequest = { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01' };
 * ```
 */
export type NewOrderRequest =
  | {
      readonly symbol: string;
      readonly side: OrderSide;
      readonly type: 'LIMIT' | 'LIMIT_MAKER';
      readonly price: DecimalText;
      readonly quantity: DecimalText;
      readonly timeInForce?: TimeInForce | undefined;
      /** Your own id for the order (echoed as `clientOrderId`). */
      readonly newClientOrderId?: string | undefined;
      /**
       * Self-trade prevention (HashKey's `stpMode`): `'EXPIRE_TAKER'` (the venue's default) expires the incoming
       * order, `'EXPIRE_MAKER'` the resting one.
       */
      readonly stpMode?: 'EXPIRE_TAKER' | 'EXPIRE_MAKER' | undefined;
    }
  | {
      readonly symbol: string;
      readonly side: OrderSide;
      readonly type: 'MARKET';
      readonly price?: never;
      readonly quantity?: DecimalText | undefined;
      /** Quote amount (market orders, instead of `quantity`). */
      readonly amount?: DecimalText | undefined;
      readonly timeInForce?: TimeInForce | undefined;
      readonly newClientOrderId?: string | undefined;
      readonly stpMode?: 'EXPIRE_TAKER' | 'EXPIRE_MAKER' | undefined;
    };

/**
 * What a batch placement says of one order, in the order sent: `placed` (with the order as answered),
 * `rejected` (the service's `code` and `msg`: nothing placed), or `unknown` (the answer says nothing readable of
 * this order: it may exist; `inDoubt` finds it). The request of each is the one sent, with its client order id.
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import type { BatchPlacementResult } from 'ex-streams/rest';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * const say = (r: BatchPlacementResult): string =>
 *   r.outcome === 'placed' ? `${r.order.orderId} ${r.order.status}` : r.outcome === 'rejected' ? `refused ${r.code}` : `in doubt ${r.inDoubt.clientOrderId}`;
 * rest.batchOrders([{ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' }])
 *   .subscribe((results) => results.forEach((r) => console.log(say(r))));
 * ```
 */
export type BatchPlacementResult =
  | { readonly outcome: 'placed'; readonly request: NewOrderRequest; readonly order: RestOrder }
  | { readonly outcome: 'rejected'; readonly request: NewOrderRequest; readonly code?: string | undefined; readonly msg?: string | undefined }
  | { readonly outcome: 'unknown'; readonly request: NewOrderRequest; readonly inDoubt: OrderInDoubt; readonly reason: string };

/**
 * What a cancel by ids says of one order id, in the order asked: `accepted` (the venue carried the cancel out
 * and listed no failure for it) or `failed` (with the service's `code`, e.g. `'0211'`: not found).
 *
 * @example
 * ```ts
 * import type { CancelByIdsResult } from 'ex-streams/rest';
 *
 * const results: CancelByIdsResult[] = [{ orderId: '1', outcome: 'accepted' }, { orderId: '2', outcome: 'failed', code: '0211' }];
 * ```
 */
export type CancelByIdsResult =
  | { readonly orderId: string; readonly outcome: 'accepted' }
  | { readonly orderId: string; readonly outcome: 'failed'; readonly code?: string | undefined; readonly msg?: string | undefined };

/**
 * Which order: by the service's `orderId` or your `clientOrderId` (one of them).
 *
 * @example
 * ```ts
 * import type { OrderRef } from 'ex-streams';
 *
 * const byId: OrderRef = { orderId: '1470000001' };
 * const byClientId: OrderRef = { clientOrderId: 'my-order-7' };
 * ```
 */
export type OrderRef =
  | { readonly orderId: string; readonly clientOrderId?: never }
  | { readonly clientOrderId: string; readonly orderId?: never };

/**
 * The typed calls of {@link index!RestClient}: each returns a cold observable making one call per subscription
 * (aborted on unsubscribe), emitting the decoded answer once. A body the codec refuses fails with a
 * `DecodeError`; rejections, timeouts and rate limits fail as `request()` does.
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import type { RestCalls } from 'ex-streams/rest';
 *
 * declare const apiKey: string, secretKey: string;
 * const calls: RestCalls = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * calls.account().subscribe(({ balances }) => console.log(balances.length, 'assets'));
 * ```
 */
export interface RestCalls {
  /** `GET /api/v1/time` (NONE) → `{ serverTime }`. */
  serverTime(): Observable<ServerTime>;
  /** `GET /api/v1/exchangeInfo` (NONE) → symbols and their filters. */
  exchangeInfo(): Observable<ExchangeInfo>;
  /** `GET /quote/v1/depth` (NONE) → `{ t, b: [[price, qty]], a: [[price, qty]] }`. */
  depth(request: { readonly symbol: string; readonly limit?: number | undefined }): Observable<DepthRecord>;
  /** `GET /quote/v1/trades` (NONE), `limit` ≤ 100 → the latest trades `[{ t, p, q, ibm }]`. */
  trades(request: { readonly symbol: string; readonly limit?: number | undefined }): Observable<RestTrade[]>;
  /** `GET /quote/v1/klines` (NONE) → candles, oldest first as sent. */
  klines(request: {
    readonly symbol: string;
    readonly interval: string;
    readonly startTime?: number | undefined;
    readonly endTime?: number | undefined;
    readonly limit?: number | undefined;
  }): Observable<RestKline[]>;
  /**
   * `POST /api/v1.1/spot/order` (TRADE, weight 1; `/api/v1/spot/order` with `placementPath: 'v1'`) → the order.
   * Never sent again; an answer lost after the request may have arrived is an `OrderOutcomeUnknownError`.
   */
  newOrder(request: NewOrderRequest): Observable<RestOrder>;
  /**
   * `POST /api/v1.1/spot/batchOrders` (TRADE, weight 5): 1 to 20 orders of one symbol in one JSON body → a result
   * per order, in the order sent (placed, rejected, or unknown). Each order gets a client order id first; the
   * batch is never sent again; a lost answer is a `BatchOutcomeUnknownError` naming every order.
   */
  batchOrders(orders: readonly NewOrderRequest[]): Observable<BatchPlacementResult[]>;
  /** `POST /api/v1/spot/orderTest` (TRADE): checks an order (in its v1 form) without placing it; emits once when accepted. */
  testOrder(request: NewOrderRequest): Observable<void>;
  /** `DELETE /api/v1/spot/order` (TRADE) → the order as cancelled. */
  cancelOrder(request: OrderRef): Observable<RestOrder>;
  /**
   * `DELETE /api/v1/spot/cancelOrderByIds` (TRADE, weight 5): 1 to 100 order ids → a result per id, in the order
   * given. A lost answer is a `BatchOutcomeUnknownError` naming every id.
   */
  cancelOrdersByIds(orderIds: readonly string[]): Observable<CancelByIdsResult[]>;
  /** `GET /api/v1/spot/order` (USER_DATA) → the order. */
  getOrder(request: OrderRef): Observable<RestOrder>;
  /** `GET /api/v1/spot/openOrders` (USER_DATA) → the open orders (of `symbol`, of `side`). */
  openOrders(request?: {
    readonly symbol?: string | undefined;
    readonly orderId?: string | undefined;
    readonly side?: OrderSide | undefined;
    readonly limit?: number | undefined;
  }): Observable<RestOrder[]>;
  /**
   * `DELETE /api/v1/spot/openOrders` (TRADE, weight 5): cancels the open orders of `symbol` (required by the
   * venue), of `side` when given; emits once when accepted.
   */
  cancelOpenOrders(request: { readonly symbol: string; readonly side?: OrderSide | undefined }): Observable<void>;
  /**
   * `GET /api/v1/spot/tradeOrders` (USER_DATA, weight 5): the order history (orders no longer open, the last 90
   * days): of `symbol`, of `side`, created in [`startTime`, `endTime`], with ids below `orderId`, at most `limit`
   * (default 500, max 1000).
   */
  orderHistory(request?: {
    readonly symbol?: string | undefined;
    readonly side?: OrderSide | undefined;
    readonly startTime?: number | undefined;
    readonly endTime?: number | undefined;
    readonly orderId?: string | undefined;
    readonly limit?: number | undefined;
  }): Observable<RestOrder[]>;
  /** `GET /api/v1/account` (USER_DATA) → `{ balances, userId }`. */
  account(): Observable<RestAccount>;
  /** `GET /api/v1/account/trades` (USER_DATA) → own trades. */
  myTrades(request?: {
    readonly symbol?: string | undefined;
    readonly startTime?: number | undefined;
    readonly endTime?: number | undefined;
    readonly fromId?: string | undefined;
    readonly toId?: string | undefined;
    readonly limit?: number | undefined;
  }): Observable<AccountTrade[]>;
  /**
   * `GET /api/v1/account/tradesByClOrderId` (USER_DATA, weight 1): own trades of one order by its client order id
   * (the last 30 days), newest first, between `fromId` and `toId`, at most `limit`.
   */
  myTradesByClientOrderId(request: {
    readonly clientOrderId: string;
    readonly fromId?: string | undefined;
    readonly toId?: string | undefined;
    readonly limit?: number | undefined;
  }): Observable<AccountTrade[]>;
}
