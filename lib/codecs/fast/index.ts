/**
 * Fast variants of the hot wire codecs: io-ts codecs whose `validate` is a hand-written check of the
 * common valid case, falling back to the combinator codec (and its exact errors) otherwise.
 *
 * @module
 */
export { FastRawEnvelopeCodec } from './envelope';
export { FastTradeEnvelopeCodec, FastTradeRecordCodec } from './trade';
export { FastKlineEnvelopeCodec, FastKlineRecordCodec } from './kline';
export { FastRealtimesRecordCodec } from './realtimes';
export { FastDepthEnvelopeCodec, FastDepthRecordCodec } from './depth';
export {
  FastExecutionReportCodec,
  FastOutboundAccountInfoCodec,
  FastPrivateEventCodec,
  FastTicketInfoCodec,
  decodePrivateFrameFast,
} from './privateEvents';
