/**
 * @deprecated internal aliases, removed at integration: every wire codec carries its derived fast check
 * (`lib/codecs/fastCheck.ts`); these names point at the codecs themselves.
 * @internal
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
