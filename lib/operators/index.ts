/**
 * Reusable RxJS operators of ex-streams.
 *
 * @module
 */
export { reconnect } from './reconnect';
export type { ReconnectConfig, ReconnectInfo } from './reconnect';
export { reorderByEventTime } from './reorderByEventTime';
export type { ReorderByEventTimeConfig, LatePolicy } from './reorderByEventTime';
export { LateEventError } from './lateEventError';
export { orderBook } from './orderBook';
export type { OrderBook, OrderBookLevel, OrderBookConfig, DepthSnapshot } from './orderBook';
export { incrementalBook } from './incrementalBook';
export type { IncrementalBookConfig, IncrementalDepth, BookGap } from './incrementalBook';
export { closedCandles } from './closedCandles';
export type { CandleLike } from './closedCandles';
export { distinctTrades } from './distinctTrades';
export type { TradeGap, TradeBatch, TradeLike, DistinctTradesConfig } from './distinctTrades';
export { backfillTrades } from './backfillTrades';
export type { BackfillTradesConfig } from './backfillTrades';
