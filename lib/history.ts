/**
 * `ex-streams/history`: candles and trades made whole. Only closed candles, trades without repeats and with their
 * gaps named, gaps filled from the REST history, and candle intervals the service does not stream. Runs in browsers
 * and in Node.
 *
 * @packageDocumentation
 */
export { closedCandles } from './operators/closedCandles';
export type { CandleLike } from './operators/closedCandles';
export { distinctTrades } from './operators/distinctTrades';
export type { TradeGap, TradeBatch, TradeLike, DistinctTradesConfig } from './operators/distinctTrades';
export { backfillTrades } from './operators/backfillTrades';
export type { BackfillTradesConfig } from './operators/backfillTrades';
export { customKlineInterval } from './market/klineInterval';
export type { CustomKlineInterval } from './market/klineInterval';
