/**
 * `ex-streams/codecs`: the wire codecs. io-ts codecs for every message of the service, tolerant of the
 * spellings real deployments send (numeric text, `"true"`/`"false"`, ids as numbers or text), the frame
 * builders, and the decode helpers (`decodeWith`, `decodeFrame`, `decodePrivateFrame`). Runs in browsers and
 * in Node, like the core. The streams of `ex-streams` already decode every message: import from here to
 * decode or build frames yourself (a custom transport, a recorded feed, a test). The record types are
 * exported here and from `ex-streams`.
 *
 * @packageDocumentation
 */

// Decoding
export { decodeWith } from './decode';
export { decodeFrame } from '../socket/decodeFrame';
export type { FrameLimits } from '../socket/decodeFrame';

// Primitives
export {
  BooleanFromStringOrBoolean,
  DecimalOrEmptyString,
  DecimalString,
  IdFromNumberOrString,
  IntFromNumberOrString,
  JsonScalarCodec,
  TextFromNumberOrString,
} from './primitives';
export type { JsonScalar } from './primitives';

// Client → server frames
export {
  ClientPingCodec,
  ClientPongCodec,
  SubscriptionEventCodec,
  SubscriptionParamsCodec,
  SubscriptionRequestCodec,
  cancelFrame,
  pingFrame,
  pongFrame,
  subscribeFrame,
} from './requests';
export type {
  ClientPing,
  ClientPong,
  SubscriptionEvent,
  SubscriptionExtraParams,
  SubscriptionParams,
  SubscriptionRequest,
} from './requests';

// Heartbeats
export { PrivatePongCodec, PublicPongCodec, ServerPingCodec } from './heartbeat';
export type { PrivatePong, PublicPong, ServerPing } from './heartbeat';

// Public stream
export { EnvelopeParamsCodec, PublicEnvelopeCodec } from './envelope';
export type { EnvelopeParams, PublicEnvelope } from './envelope';
export { PublicErrorFrameCodec } from './publicErrorFrame';
export type { PublicErrorFrame } from './publicErrorFrame';
export { KlineEnvelopeCodec, KlineRecordCodec } from './kline';
export type { KlineEnvelope, KlineRecord } from './kline';
export { RealtimesEnvelopeCodec, RealtimesRecordCodec } from './realtimes';
export type { RealtimesEnvelope, RealtimesRecord } from './realtimes';
export { TradeEnvelopeCodec, TradeRecordCodec } from './trade';
export type { TradeEnvelope, TradeRecord } from './trade';
export { DepthEnvelopeCodec, DepthLevelCodec, DepthRecordCodec } from './depth';
export type { DepthEnvelope, DepthLevel, DepthRecord } from './depth';
export { BboRecordCodec } from './bbo';
export type { BboRecord } from './bbo';

// Private stream
export {
  BalanceCodec,
  ExecutionReportCodec,
  KnownOrderStatusCodec,
  OrderSideCodec,
  OrderStatusCodec,
  OtherPrivateEventCodec,
  OutboundAccountInfoCodec,
  PrivateEventCodec,
  TicketInfoCodec,
  decodePrivateFrame,
} from './privateEvents';
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
} from './privateEvents';

// HTTP bodies
export { ErrorBodyCodec } from './errorBody';
export type { ErrorBody } from './errorBody';
export { ListenKeyResponseCodec } from './listenKey';
export type { ListenKeyResponse } from './listenKey';
export {
  AccountTradeCodec,
  BatchOrderItemCodec,
  BatchOrdersAnswerCodec,
  CancelByIdsAnswerCodec,
  CancelByIdsFailureCodec,
  ExchangeInfoCodec,
  RestAccountCodec,
  RestBalanceCodec,
  RestKlineCodec,
  RestOrderCodec,
  RestTradeCodec,
  ServerTimeCodec,
  SymbolFilterCodec,
  SymbolInfoCodec,
} from './rest/index';
export type {
  AccountTrade,
  BatchOrderItem,
  BatchOrdersAnswer,
  CancelByIdsAnswer,
  CancelByIdsFailure,
  ExchangeInfo,
  RestAccount,
  RestBalance,
  RestKline,
  RestOrder,
  RestTrade,
  ServerTime,
  SymbolFilter,
  SymbolInfo,
} from './rest/index';
