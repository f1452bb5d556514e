import * as t from 'io-ts';
import { defer, map, type Observable } from 'rxjs';
import { DepthRecordCodec } from '../codecs/depth';
import { AccountTradeCodec, RestAccountCodec } from '../codecs/rest/account';
import { ExchangeInfoCodec } from '../codecs/rest/exchangeInfo';
import { RestKlineCodec, RestTradeCodec } from '../codecs/rest/marketData';
import { RestOrderCodec } from '../codecs/rest/order';
import { ServerTimeCodec } from '../codecs/rest/serverTime';
import type { Params } from '../auth/formEncode';
import { isDecimalText } from '../codecs/decimal';
import { ConfigError, type OrderInDoubt } from '../errors';
import { excerpt } from '../internal/redact';
import type { NewOrderRequest, RestCalls } from './callTypes';
import { outcomeUnknownOn } from './orderOutcome';
import { SERVER_TIME_PATH } from './restClock';
import type { RestRequest } from './types';

/** Paths of the typed calls. @internal */
export const PATHS = {
  exchangeInfo: '/api/v1/exchangeInfo',
  depth: '/quote/v1/depth',
  trades: '/quote/v1/trades',
  klines: '/quote/v1/klines',
  order: '/api/v1/spot/order',
  orderTest: '/api/v1/spot/orderTest',
  openOrders: '/api/v1/spot/openOrders',
  account: '/api/v1/account',
  myTrades: '/api/v1/account/trades',
} as const;

const toVoid = (source: Observable<unknown>): Observable<void> => source.pipe(map((): void => undefined));
/** Request objects are plain records of text and numbers; undefined fields are not sent. */
const params = (request: object | undefined): Params => ({ ...(request ?? {}) }) as Params;

/** The decimal fields of a new order, each checked as plain decimal text before anything is sent. */
const DECIMAL_FIELDS = ['price', 'quantity', 'amount'] as const;

/**
 * A placement as it is sent: with a client order id (the caller's, or a generated one), its decimals checked.
 * @internal
 */
export function placement(req: NewOrderRequest, newClientOrderId: () => string): NewOrderRequest {
  for (const field of DECIMAL_FIELDS) {
    const value = (req as Partial<Record<(typeof DECIMAL_FIELDS)[number], unknown>>)[field];
    if (value !== undefined && (typeof value !== 'string' || !isDecimalText(value))) {
      throw new ConfigError(field, `must be plain decimal text (digits, optionally a point and digits), got ${excerpt(String(value), [])}`);
    }
  }
  const id = req.newClientOrderId;
  if (id !== undefined && (typeof id !== 'string' || id === '')) throw new ConfigError('newClientOrderId', 'must be a non-empty string');
  return id === undefined ? { ...req, newClientOrderId: newClientOrderId() } : req;
}

/** What an {@link OrderOutcomeUnknownError} of this placement says of it. @internal */
export const placementInDoubt = (req: NewOrderRequest): OrderInDoubt => {
  const { symbol, side, type, price, quantity, newClientOrderId } = req;
  const amount = req.type === 'MARKET' ? req.amount : undefined;
  return dropUndefined({ action: 'place', clientOrderId: newClientOrderId, symbol, side, type, price, quantity, amount });
};

const dropUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The typed calls, built on the client's `request()`; placements without a client order id get `newClientOrderId()`. @internal */
export function restCalls(request: <A>(req: RestRequest<A>) => Observable<A>, newClientOrderId: () => string): RestCalls {
  const orders = t.array(RestOrderCodec);
  return {
    serverTime: () => request({ method: 'GET', path: SERVER_TIME_PATH, codec: ServerTimeCodec }),
    exchangeInfo: () => request({ method: 'GET', path: PATHS.exchangeInfo, codec: ExchangeInfoCodec }),
    depth: (req) => request({ method: 'GET', path: PATHS.depth, query: params(req), codec: DepthRecordCodec }),
    trades: (req) => request({ method: 'GET', path: PATHS.trades, query: params(req), codec: t.array(RestTradeCodec) }),
    klines: (req) => request({ method: 'GET', path: PATHS.klines, query: params(req), codec: t.array(RestKlineCodec) }),
    // Never sent again by the library (the -1021 retry of a refused timestamp excepted: nothing was placed);
    // an answer lost after the request may have arrived is an OrderOutcomeUnknownError naming the order.
    newOrder: (req) =>
      defer(() => {
        const sent = placement(req, newClientOrderId);
        return request({ method: 'POST', path: PATHS.order, body: params(sent), security: 'TRADE', codec: RestOrderCodec }).pipe(
          outcomeUnknownOn('POST', PATHS.order, placementInDoubt(sent)),
        );
      }),
    testOrder: (req) => toVoid(request({ method: 'POST', path: PATHS.orderTest, body: params(req), security: 'TRADE' })),
    cancelOrder: (req) =>
      request({ method: 'DELETE', path: PATHS.order, query: params(req), security: 'TRADE', codec: RestOrderCodec }).pipe(
        outcomeUnknownOn('DELETE', PATHS.order, dropUndefined({ action: 'cancel', orderId: req.orderId, clientOrderId: req.clientOrderId })),
      ),
    // The query names a client order id `origClientOrderId` (HashKey's parameter of `GET /api/v1/spot/order`).
    getOrder: (req) =>
      request({
        method: 'GET',
        path: PATHS.order,
        query: req.orderId !== undefined ? { orderId: req.orderId } : { origClientOrderId: req.clientOrderId },
        security: 'USER_DATA',
        codec: RestOrderCodec,
      }),
    openOrders: (req) => request({ method: 'GET', path: PATHS.openOrders, query: params(req), security: 'USER_DATA', codec: orders }),
    cancelOpenOrders: (req) => toVoid(request({ method: 'DELETE', path: PATHS.openOrders, query: params(req), security: 'TRADE' })),
    account: () => request({ method: 'GET', path: PATHS.account, security: 'USER_DATA', codec: RestAccountCodec }),
    myTrades: (req) => request({ method: 'GET', path: PATHS.myTrades, query: params(req), security: 'USER_DATA', codec: t.array(AccountTradeCodec) }),
  };
}
