/**
 * `ex-streams/codecs`: the wire codecs. io-ts codecs for every message of the service, tolerant of the
 * spellings real deployments send (numeric text, `"true"`/`"false"`, ids as numbers or text), the frame
 * builders, and the decode helpers (`decodeWith`, `decodeFrame`, `decodePrivateFrame`). Runs in browsers and
 * in Node, like the core. The streams of `ex-streams` already decode every message: import from here to
 * decode or build frames yourself (a custom transport, a recorded feed, a test). The record types a codec
 * decodes to are exported from `ex-streams` (`TradeRecord`, `ExecutionReport`, `RestOrder`, ...) and from
 * `ex-streams/rest` (the other REST responses).
 *
 * @packageDocumentation
 */

// Decoding
export { decodeWith } from './decode';
export { decodeFrame } from '../frame/decodeFrame';
export type { FrameLimits } from '../frame/frameLimits';

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
export type { KlineEnvelope } from './kline';
export { RealtimesEnvelopeCodec, RealtimesRecordCodec } from './realtimes';
export type { RealtimesEnvelope } from './realtimes';
export { TradeEnvelopeCodec, TradeRecordCodec } from './trade';
export type { TradeEnvelope } from './trade';
export { DepthEnvelopeCodec, DepthLevelCodec, DepthRecordCodec } from './depth';
export type { DepthEnvelope } from './depth';
export { BboRecordCodec } from './bbo';

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
export type { BatchOrderItem, BatchOrdersAnswer, CancelByIdsAnswer, CancelByIdsFailure } from './rest/index';
