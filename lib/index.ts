/**
 * ex-streams: typed, composable RxJS observables over a trading service's signed HTTP calls and
 * websocket streams. This is the core entry: it runs in browsers and in Node. It exports what an application
 * uses every day: the market and user streams, the order-book operators, the record types, the errors, the REST
 * client and the venue presets. The building blocks are on their own entries: `ex-streams/signing` (request
 * signing), `ex-streams/connection` (the websocket connection, reconnects, listen keys), `ex-streams/orders`
 * (symbol rules and exact decimal arithmetic), `ex-streams/folds` (the folds `userStream` applies),
 * `ex-streams/history` (candles and trades made whole), `ex-streams/rest` (REST request and response details) and
 * `ex-streams/codecs` (the wire codecs).
 *
 * @packageDocumentation
 */

// Errors
export {
  DecodeError,
  RequestRejectedError,
  RequestFailedError,
  ConfigError,
  ConnectionClosedError,
  HeartbeatTimeoutError,
  SendQueueFullError,
  SubscriptionRejectedError,
  SubscriptionRetriedError,
  TopicQuarantinedError,
  RateLimitedError,
  RequestTimeoutError,
  EventTimeOutOfRangeError,
  OrderOutcomeUnknownError,
  BatchOutcomeUnknownError,
  OrderNotPlacedError,
  OrderMismatchError,
} from './errors';
export type { DecodeErrorKind, ConnectionFailure, ConnectionClosedDetails, OrderInDoubt, OrderIdentity, SubscriptionRetryKind } from './errors';

// Record types: what the streams and the REST client deliver. Their io-ts codecs, `decodeWith` and
// `decodeFrame` are in the `ex-streams/codecs` entry.
export { isFinalOrderStatus } from './codecs/executionReport';
export type { KlineRecord } from './codecs/kline';
export type { RealtimesRecord } from './codecs/realtimes';
export type { TradeRecord } from './codecs/trade';
export type { DepthLevel, DepthRecord } from './codecs/depth';
export type { BboRecord } from './codecs/bbo';
export type {
  Balance,
  ExecutionReport,
  KnownOrderStatus,
  OrderSide,
  OrderStatus,
  OtherPrivateEvent,
  OutboundAccountInfo,
  PrivateEvent,
  TicketInfo,
} from './codecs/privateEvents';
export type { RestOrder } from './codecs/rest/order';

// Signed REST calls (their request and response details: `ex-streams/rest`)
export { restClient } from './rest/restClient';
export type { RestClient, RestClientConfig } from './rest/types';
export type { NewOrderRequest, OrderRef, OrderType, TimeInForce } from './rest/callTypes';

// Venue presets: HashKey's deployments (addresses, key header, recvWindow cap, rate limits, site)
export { hashkey } from './venue/hashkeyVenues';
export type { VenuePreset } from './venue/venuePreset';

// Market streams
export { marketStreams } from './market/marketStreams';
export type { MarketStreams, MarketStreamsConfig } from './market/marketStreams';
export type { MarketMessage, TopicOptions, DepthOptions, MergedDepthOptions } from './market/marketMessage';
export type { KlineGap } from './market/klineGap';
export type { MarketCounters, MarketStatus } from './market/marketStatus';
export type { KlineInterval } from './market/klineInterval';
export type { StreamStatus } from './socket/streamStatus';

// Order books
export { orderBook } from './operators/orderBook';
export type { OrderBook, OrderBookLevel, OrderBookConfig, DepthSnapshot } from './operators/orderBook';
export { incrementalBook } from './operators/incrementalBook';
export type { IncrementalBookConfig, IncrementalDepth, BookGap } from './operators/incrementalBook';

// User stream
export { userStream } from './user/userStream';
export type { UserStream, UserStreamConfig } from './user/userStream';
export type { UserCounters, UserStatus } from './user/userStatus';
export type { UserStreamGap } from './user/userStreamGap';
export type { StateSync } from './user/stateSync';
export type { OrderState } from './user/orderState';
export type { BalanceState } from './user/balanceState';
export type { PlaceOrderOptions } from './orders/orderLoop';
