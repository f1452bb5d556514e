import type { Observable } from 'rxjs';
import type { OrderSide } from '../codecs/executionReport';
import type { AccountTrade, RestAccount } from '../codecs/rest/account';
import type { ExchangeInfo } from '../codecs/rest/exchangeInfo';
import type { RestKline, RestTrade } from '../codecs/rest/marketData';
import type { RestOrder } from '../codecs/rest/order';
import type { ServerTime } from '../codecs/rest/serverTime';
import type { DepthRecord } from '../codecs/depth';
import type { DecimalText } from '../codecs/decimal';

export type { DecimalText } from '../codecs/decimal';

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
 * A new order (`POST /api/v1/spot/order`, or `/api/v1/spot/orderTest` to check it). A `LIMIT` or
 * `LIMIT_MAKER` order needs `price` and `quantity`; a `MARKET` order has no price and gives `quantity` (or,
 * for a buy spending quote currency, `amount`). `recvWindow` comes from the client config.
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
    }
  | {
      readonly symbol: string;
      readonly side: OrderSide;
      readonly type: 'MARKET';
      readonly price?: never;
      readonly quantity?: DecimalText | undefined;
      /** Quote amount to spend (market buys). */
      readonly amount?: DecimalText | undefined;
      readonly timeInForce?: TimeInForce | undefined;
      readonly newClientOrderId?: string | undefined;
    };

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
 * The typed calls of {@link RestClient}: each returns a cold observable making one call per subscription
 * (aborted on unsubscribe), emitting the decoded answer once. A body the codec refuses fails with a
 * `DecodeError`; rejections, timeouts and rate limits fail as `request()` does.
 *
 * @example
 * ```ts
 * import { restClient, type RestCalls } from 'ex-streams';
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
  /** `POST /api/v1/spot/order` (TRADE) → the order. */
  newOrder(request: NewOrderRequest): Observable<RestOrder>;
  /** `POST /api/v1/spot/orderTest` (TRADE): checks an order without placing it; emits once when accepted. */
  testOrder(request: NewOrderRequest): Observable<void>;
  /** `DELETE /api/v1/spot/order` (TRADE) → the order as cancelled. */
  cancelOrder(request: OrderRef): Observable<RestOrder>;
  /** `GET /api/v1/spot/order` (USER_DATA) → the order. */
  getOrder(request: OrderRef): Observable<RestOrder>;
  /** `GET /api/v1/spot/openOrders` (USER_DATA) → the open orders. */
  openOrders(request?: { readonly symbol?: string | undefined; readonly orderId?: string | undefined; readonly limit?: number | undefined }): Observable<RestOrder[]>;
  /** `DELETE /api/v1/spot/openOrders` (TRADE): cancels the open orders (of `symbol`, of `side`); emits once when accepted. */
  cancelOpenOrders(request?: { readonly symbol?: string | undefined; readonly side?: OrderSide | undefined }): Observable<void>;
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
}
