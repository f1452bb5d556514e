/**
 * Public market streams: kline, realtimes, trade and depth topics over one reference-counted websocket.
 *
 * @module
 */
export { marketStreams } from './marketStreams';
export type { MarketStreams, MarketStreamsConfig } from './marketStreams';
export type { MarketMessage, TopicOptions, DepthOptions, MergedDepthOptions } from './marketMessage';
export type { KlineGap } from './klineGap';
export type { MarketCounters, MarketStatus } from './marketStatus';
export { customKlineInterval } from './klineInterval';
export type { CustomKlineInterval, KlineInterval } from './klineInterval';
