/**
 * `ex-streams/rest`: the REST details beyond placing orders: the request and rate-limit shapes of `restClient`'s
 * calls, the batch results, and the response records of the account, market-data and exchange-information calls.
 * `restClient` itself and what an order needs are in `ex-streams`. Runs in browsers and in Node.
 *
 * @packageDocumentation
 */
export type { RestRequest, RestRateLimit, SecurityType, HttpMethod } from './types';
export type { RestCalls, BatchPlacementResult, CancelByIdsResult } from './callTypes';
export type { AccountTrade, RestAccount, RestBalance } from '../codecs/rest/account';
export type { ExchangeInfo, SymbolFilter, SymbolInfo } from '../codecs/rest/exchangeInfo';
export type { RestKline, RestTrade } from '../codecs/rest/marketData';
export type { ServerTime } from '../codecs/rest/serverTime';
