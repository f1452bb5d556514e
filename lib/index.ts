/**
 * ex-streams: typed, composable RxJS observables over a trading service's signed HTTP calls and
 * websocket streams. This is the core entry: it runs in browsers and in Node.
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
  RateLimitedError,
  RequestTimeoutError,
  EventTimeOutOfRangeError,
} from './errors';
export type { DecodeErrorKind, ConnectionFailure, ConnectionClosedDetails } from './errors';

// Codecs: wire shapes of every message
export {
  decodeWith,
  BooleanFromStringOrBoolean,
  DecimalString,
  IdFromNumberOrString,
  IntFromNumberOrString,
  TextFromNumberOrString,
  DecimalOrEmptyString,
  averagePrice,
  decimalToNumber,
  ClientPingCodec,
  ClientPongCodec,
  SubscriptionEventCodec,
  SubscriptionParamsCodec,
  SubscriptionRequestCodec,
  cancelFrame,
  pingFrame,
  pongFrame,
  subscribeFrame,
  PrivatePongCodec,
  PublicPongCodec,
  ServerPingCodec,
  EnvelopeParamsCodec,
  PublicEnvelopeCodec,
  PublicErrorFrameCodec,
  KlineEnvelopeCodec,
  KlineRecordCodec,
  RealtimesEnvelopeCodec,
  RealtimesRecordCodec,
  TradeEnvelopeCodec,
  TradeRecordCodec,
  DepthEnvelopeCodec,
  DepthLevelCodec,
  DepthRecordCodec,
  BalanceCodec,
  ExecutionReportCodec,
  OrderSideCodec,
  OrderStatusCodec,
  OutboundAccountInfoCodec,
  PrivateEventCodec,
  TicketInfoCodec,
  decodePrivateFrame,
  ErrorBodyCodec,
  ListenKeyResponseCodec,
  AccountTradeCodec,
  ExchangeInfoCodec,
  RestAccountCodec,
  RestBalanceCodec,
  RestKlineCodec,
  RestOrderCodec,
  RestTradeCodec,
  ServerTimeCodec,
  SymbolFilterCodec,
  SymbolInfoCodec,
} from './codecs/index';
export type {
  ClientPing,
  ClientPong,
  SubscriptionEvent,
  SubscriptionExtraParams,
  SubscriptionParams,
  SubscriptionRequest,
  PrivatePong,
  PublicPong,
  ServerPing,
  EnvelopeParams,
  PublicEnvelope,
  PublicErrorFrame,
  KlineEnvelope,
  KlineRecord,
  RealtimesEnvelope,
  RealtimesRecord,
  TradeEnvelope,
  TradeRecord,
  DepthEnvelope,
  DepthLevel,
  DepthRecord,
  Balance,
  ExecutionReport,
  OrderSide,
  OrderStatus,
  OutboundAccountInfo,
  PrivateEvent,
  TicketInfo,
  ErrorBody,
  ListenKeyResponse,
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
} from './rest/index';

// Connection core
export { connection, decodeFrame, DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_INFLATED_BYTES } from './socket/index';
export type {
  Connection,
  ConnectionConfig,
  ConnectionStatus,
  FrameLimits,
  RawInflater,
  ServerClock,
  WebSocketCtor,
  WebSocketLike,
  WebSocketMessageEventLike,
  WebSocketCloseEventLike,
} from './socket/index';

// Market streams
export { marketStreams, customKlineInterval } from './market/index';
export type { MarketStreams, MarketStreamsConfig, MarketMessage, TopicOptions, MarketStatus, KlineInterval, CustomKlineInterval } from './market/index';

// Operators
export {
  reconnect,
  reorderByEventTime,
  LateEventError,
  orderBook,
  closedCandles,
  dedupeTrades,
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
  CandleLike,
  TradeGap,
  TradeBatch,
  TradeLike,
  BackfillTradesConfig,
  DedupeTradesConfig,
} from './operators/index';

// User stream
export { listenKey, userStream, privateEventKey, foldOrders, foldBalances, distinctFills } from './user/index';
export type {
  ListenKeyApi,
  ListenKeyConfig,
  UserStream,
  UserStreamConfig,
  UserStreamGap,
  OrdersState,
  FoldOrdersConfig,
  OrderState,
  BalancesState,
  BalanceState,
  DistinctFillsConfig,
} from './user/index';
