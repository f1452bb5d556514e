import * as t from 'io-ts';
import { map, type Observable } from 'rxjs';
import { DepthRecordCodec } from '../codecs/depth';
import { AccountTradeCodec, RestAccountCodec } from '../codecs/rest/account';
import { ExchangeInfoCodec } from '../codecs/rest/exchangeInfo';
import { RestKlineCodec, RestTradeCodec } from '../codecs/rest/marketData';
import { RestOrderCodec } from '../codecs/rest/order';
import { ServerTimeCodec } from '../codecs/rest/serverTime';
import type { Params } from '../auth/formEncode';
import type { RestCalls } from './callTypes';
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

/** The typed calls, built on the client's `request()`. @internal */
export function restCalls(request: <A>(req: RestRequest<A>) => Observable<A>): RestCalls {
  const orders = t.array(RestOrderCodec);
  return {
    serverTime: () => request({ method: 'GET', path: SERVER_TIME_PATH, codec: ServerTimeCodec }),
    exchangeInfo: () => request({ method: 'GET', path: PATHS.exchangeInfo, codec: ExchangeInfoCodec }),
    depth: (req) => request({ method: 'GET', path: PATHS.depth, query: params(req), codec: DepthRecordCodec }),
    trades: (req) => request({ method: 'GET', path: PATHS.trades, query: params(req), codec: t.array(RestTradeCodec) }),
    klines: (req) => request({ method: 'GET', path: PATHS.klines, query: params(req), codec: t.array(RestKlineCodec) }),
    newOrder: (req) => request({ method: 'POST', path: PATHS.order, body: params(req), security: 'TRADE', codec: RestOrderCodec }),
    testOrder: (req) => toVoid(request({ method: 'POST', path: PATHS.orderTest, body: params(req), security: 'TRADE' })),
    cancelOrder: (req) => request({ method: 'DELETE', path: PATHS.order, query: params(req), security: 'TRADE', codec: RestOrderCodec }),
    getOrder: (req) => request({ method: 'GET', path: PATHS.order, query: params(req), security: 'USER_DATA', codec: RestOrderCodec }),
    openOrders: (req) => request({ method: 'GET', path: PATHS.openOrders, query: params(req), security: 'USER_DATA', codec: orders }),
    cancelOpenOrders: (req) => toVoid(request({ method: 'DELETE', path: PATHS.openOrders, query: params(req), security: 'TRADE' })),
    account: () => request({ method: 'GET', path: PATHS.account, security: 'USER_DATA', codec: RestAccountCodec }),
    myTrades: (req) => request({ method: 'GET', path: PATHS.myTrades, query: params(req), security: 'USER_DATA', codec: t.array(AccountTradeCodec) }),
  };
}
