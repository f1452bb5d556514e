/**
 * `ex-streams/redis` (Node only; needs the optional peer dependency `ioredis`): one venue connection shared by many
 * processes and machines through Redis Streams. {@link publishMarket} writes the venue's market frames to Redis;
 * {@link redisMarketStreams} reads them back with the surface of `marketStreams`. See docs/scaling.md.
 *
 * @module
 */
export { publishMarket } from './publishMarket';
export type { MarketGateway, PublishMarketConfig, PublishMarketStatus, RelayTopic } from './publishMarket';
export { redisMarketStreams } from './redisMarketStreams';
export type { RedisMarketStreams, RedisMarketStreamsConfig } from './redisMarketStreams';
export type { RedisTarget } from './redisTarget';
export type { RelayGap, RelayGapReason } from './relayGap';
export { RedisRelayError } from './redisRelayError';
