/**
 * Response codecs of the REST calls: tolerant of numbers given as text, ids kept exact, extra fields ignored.
 * @module
 */
export { ServerTimeCodec } from './serverTime';
export type { ServerTime } from './serverTime';
export { ExchangeInfoCodec, SymbolFilterCodec, SymbolInfoCodec } from './exchangeInfo';
export type { ExchangeInfo, SymbolFilter, SymbolInfo } from './exchangeInfo';
export { RestKlineCodec, RestTradeCodec } from './marketData';
export type { RestKline, RestTrade } from './marketData';
export { RestOrderCodec } from './order';
export type { RestOrder } from './order';
export { AccountTradeCodec, RestAccountCodec, RestBalanceCodec } from './account';
export type { AccountTrade, RestAccount, RestBalance } from './account';
export { BatchOrderItemCodec, BatchOrdersAnswerCodec, CancelByIdsAnswerCodec, CancelByIdsFailureCodec } from './batch';
export type { BatchOrderItem, BatchOrdersAnswer, CancelByIdsAnswer, CancelByIdsFailure } from './batch';
