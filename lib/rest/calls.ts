import * as t from 'io-ts';
import { defer, map, type Observable } from 'rxjs';
import { DepthRecordCodec } from '../codecs/depth';
import { AccountTradeCodec, RestAccountCodec } from '../codecs/rest/account';
import { ExchangeInfoCodec } from '../codecs/rest/exchangeInfo';
import { RestKlineCodec, RestTradeCodec } from '../codecs/rest/marketData';
import { RestOrderCodec } from '../codecs/rest/order';
import { ServerTimeCodec } from '../codecs/rest/serverTime';
import type { Params } from '../auth/formEncode';
import { ConfigError } from '../errors';
import { batchOrdersCall, cancelOrdersByIdsCall } from './batchCalls';
import type { RestCalls } from './callTypes';
import { outcomeUnknownOn } from './orderOutcome';
import { dropUndefined, PLACEMENT_PATHS, placement, placementInDoubt, wireParams, type PlacementPath } from './placement';
import { SERVER_TIME_PATH } from './restClock';
import type { RestRequest } from './types';

export { placement, placementInDoubt } from './placement';

/** Paths of the typed calls. @internal */
export const PATHS = {
  exchangeInfo: '/api/v1/exchangeInfo',
  depth: '/quote/v1/depth',
  trades: '/quote/v1/trades',
  klines: '/quote/v1/klines',
  order: '/api/v1/spot/order',
  orderTest: '/api/v1/spot/orderTest',
  openOrders: '/api/v1/spot/openOrders',
  tradeOrders: '/api/v1/spot/tradeOrders',
  account: '/api/v1/account',
  myTrades: '/api/v1/account/trades',
  tradesByClOrderId: '/api/v1/account/tradesByClOrderId',
} as const;

const toVoid = (source: Observable<unknown>): Observable<void> => source.pipe(map((): void => undefined));
/** Request objects are plain records of text and numbers; undefined fields are not sent. */
const params = (request: object | undefined): Params => ({ ...(request ?? {}) }) as Params;

/** What the typed calls take from the client config. @internal */
export interface CallOptions {
  /** Where `newOrder` places. Default `'v1.1'`. */
  readonly placementPath?: PlacementPath | undefined;
  /** The `site` parameter of the market-data calls (HashKey MENA's `'MENA'`). Default none. */
  readonly site?: string | undefined;
}

const required = (value: unknown, option: string, what: string): void => {
  if (typeof value !== 'string' || value === '') throw new ConfigError(option, `is required ${what}`);
};

/** The typed calls, built on the client's `request()`; placements without a client order id get `newClientOrderId()`. @internal */
export function restCalls(request: <A>(req: RestRequest<A>) => Observable<A>, newClientOrderId: () => string, options: CallOptions = {}): RestCalls {
  const orders = t.array(RestOrderCodec);
  const { placementPath = 'v1.1', site } = options;
  if (placementPath !== 'v1.1' && placementPath !== 'v1') throw new ConfigError('placementPath', `must be 'v1.1' or 'v1' (got ${String(placementPath)})`);
  const orderPath = PLACEMENT_PATHS[placementPath];
  /** Market-data parameters, with the venue's `site` when it has one. */
  const market = (request?: object): Params | undefined => (site === undefined ? (request === undefined ? undefined : params(request)) : { ...params(request), site });
  return {
    serverTime: () => request({ method: 'GET', path: SERVER_TIME_PATH, codec: ServerTimeCodec }),
    exchangeInfo: () => request({ method: 'GET', path: PATHS.exchangeInfo, query: market(), weight: 5, codec: ExchangeInfoCodec }),
    depth: (req) => request({ method: 'GET', path: PATHS.depth, query: market(req), codec: DepthRecordCodec }),
    trades: (req) => request({ method: 'GET', path: PATHS.trades, query: market(req), codec: t.array(RestTradeCodec) }),
    klines: (req) => request({ method: 'GET', path: PATHS.klines, query: market(req), codec: t.array(RestKlineCodec) }),
    // Never sent again by the library (the -1021 retry of a refused timestamp excepted: nothing was placed);
    // an answer lost after the request may have arrived is an OrderOutcomeUnknownError naming the order.
    newOrder: (req) =>
      defer(() => {
        const sent = placement(req, newClientOrderId);
        const body = wireParams(sent, placementPath);
        return request({ method: 'POST', path: orderPath, body, security: 'TRADE', codec: RestOrderCodec }).pipe(
          outcomeUnknownOn('POST', orderPath, () => placementInDoubt(sent)),
        );
      }),
    batchOrders: batchOrdersCall(request, newClientOrderId),
    // The test path is a v1 path: the order is checked in its v1 form.
    testOrder: (req) =>
      defer(() => toVoid(request({ method: 'POST', path: PATHS.orderTest, body: wireParams(req, 'v1'), security: 'TRADE' }))),
    cancelOrder: (req) =>
      request({ method: 'DELETE', path: PATHS.order, query: params(req), security: 'TRADE', codec: RestOrderCodec }).pipe(
        outcomeUnknownOn('DELETE', PATHS.order, dropUndefined({ action: 'cancel', orderId: req.orderId, clientOrderId: req.clientOrderId })),
      ),
    cancelOrdersByIds: cancelOrdersByIdsCall(request),
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
    cancelOpenOrders: (req) =>
      defer(() => {
        required(req?.symbol, 'symbol', 'to cancel open orders (the venue cancels one symbol at a time)');
        return toVoid(request({ method: 'DELETE', path: PATHS.openOrders, query: params(req), security: 'TRADE', weight: 5 }));
      }),
    orderHistory: (req) =>
      defer(() => {
        const limit = req?.limit;
        if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) throw new ConfigError('limit', `must be an integer from 1 to 1000 (got ${String(limit)})`);
        return request({ method: 'GET', path: PATHS.tradeOrders, query: params(req), security: 'USER_DATA', weight: 5, codec: orders });
      }),
    account: () => request({ method: 'GET', path: PATHS.account, security: 'USER_DATA', codec: RestAccountCodec }),
    myTrades: (req) =>
      request({ method: 'GET', path: PATHS.myTrades, query: params(req), security: 'USER_DATA', weight: 5, codec: t.array(AccountTradeCodec) }),
    myTradesByClientOrderId: (req) =>
      defer(() => {
        required(req?.clientOrderId, 'clientOrderId', 'for own trades by client order id');
        return request({ method: 'GET', path: PATHS.tradesByClOrderId, query: params(req), security: 'USER_DATA', codec: t.array(AccountTradeCodec) });
      }),
  };
}
