/**
 * ex-streams: typed, composable RxJS observables over a trading service's signed HTTP calls and
 * websocket streams. This is the core entry: it runs in browsers and in Node. It exports the streams, the
 * operators, the record types, the errors, signing and the REST client; the wire codecs are in
 * `ex-streams/codecs`.
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
  OrderRuleError,
  OrderOutcomeUnknownError,
  BatchOutcomeUnknownError,
  OrderNotPlacedError,
  OrderMismatchError,
} from './errors';
export type { DecodeErrorKind, ConnectionFailure, ConnectionClosedDetails, OrderRule, OrderInDoubt, OrderIdentity, SubscriptionRetryKind } from './errors';

// Record types: what the streams and the REST client deliver. Their io-ts codecs, `decodeWith` and
// `decodeFrame` are in the `ex-streams/codecs` entry.
export { addDecimal, averagePrice, decimalToNumber, divideDecimal, isDecimalText, multiplyDecimal, subtractDecimal, toDecimalText } from './codecs/decimal';
export { isFinalOrderStatus } from './codecs/executionReport';
export type {
  KlineRecord,
  RealtimesRecord,
  TradeRecord,
  DepthLevel,
  DepthRecord,
  BboRecord,
  Balance,
  ExecutionReport,
  KnownOrderStatus,
  OrderSide,
  OrderStatus,
  OtherPrivateEvent,
  OutboundAccountInfo,
  PrivateEvent,
  TicketInfo,
  AccountTrade,
  ExchangeInfo,
  RestAccount,
  RestBalance,
  RestKline,
  RestOrder,
  RestTrade,
  ServerTime,
  SymbolFilter,
  SymbolInfo,
} from './codecs/index';

// Signing
export {
  formEncode,
  totalParams,
  hmacSha256Hex,
  hmacSha256Signer,
  signer,
} from './auth/index';
export type {
  Params,
  ParamValue,
  Signer,
  SignerConfig,
  SignRequest,
  SignedParams,
  SignFunction,
} from './auth/index';

// Signed REST and listen-key calls
export {
  restClient,
} from './rest/index';
export type {
  RestClient,
  RestClientConfig,
  RestRequest,
  RestRateLimit,
  SecurityType,
  HttpMethod,
  RestCalls,
  NewOrderRequest,
  OrderRef,
  OrderType,
  TimeInForce,
  DecimalText,
  BatchPlacementResult,
  CancelByIdsResult,
} from './rest/index';

// Venue presets: HashKey's deployments (addresses, key header, recvWindow cap, rate limits, site)
export { hashkey } from './venue/index';
export type { VenuePreset } from './venue/index';

// Connection core
export { connection, DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_INFLATED_BYTES } from './socket/index';
export type {
  Connection,
  ConnectionConfig,
  ConnectionStatus,
  StreamStatus,
  RawInflater,
  ServerClock,
  WebSocketCtor,
  WebSocketLike,
  WebSocketMessageEventLike,
  WebSocketCloseEventLike,
} from './socket/index';

// Market streams
export { marketStreams, customKlineInterval } from './market/index';
export type { MarketStreams, MarketStreamsConfig, MarketMessage, TopicOptions, DepthOptions, MergedDepthOptions, KlineGap, MarketStatus, MarketCounters, KlineInterval, CustomKlineInterval } from './market/index';

// Operators
export {
  reconnect,
  reorderByEventTime,
  LateEventError,
  orderBook,
  incrementalBook,
  closedCandles,
  distinctTrades,
  backfillTrades,
} from './operators/index';
export type {
  ReconnectConfig,
  ReconnectInfo,
  ReorderByEventTimeConfig,
  LatePolicy,
  OrderBook,
  OrderBookLevel,
  OrderBookConfig,
  DepthSnapshot,
  IncrementalBookConfig,
  IncrementalDepth,
  BookGap,
  CandleLike,
  TradeGap,
  TradeBatch,
  TradeLike,
  BackfillTradesConfig,
  DistinctTradesConfig,
} from './operators/index';

// User stream
export { listenKey, userStream, privateEventKey, ordersState, OrdersState, balancesState, distinctFills } from './user/index';
export type {
  ListenKeyApi,
  ListenKeyConfig,
  UserStream,
  UserStreamConfig,
  UserStatus,
  UserCounters,
  UserStreamGap,
  StateSync,
  OrdersStateConfig,
  OrderState,
  BalancesState,
  BalanceState,
  DistinctFillsConfig,
} from './user/index';

// Orders: fitted to and checked against the symbol's rules
export { symbolRules, fitPrice, fitQuantity, ticksAway, checkOrder, fitOrder } from './orders/index';
export type { SymbolRules, PlaceOrderOptions } from './orders/index';
