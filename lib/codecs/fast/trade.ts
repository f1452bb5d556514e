import { TradeEnvelopeCodec, TradeRecordCodec } from '../trade';

/**
 * Aliases of the trade codecs, which carry their derived fast check themselves.
 * @internal
 * @module
 */

/** @deprecated internal alias, removed at integration: use `TradeRecordCodec`. @internal */
export const FastTradeRecordCodec = TradeRecordCodec;
/** @deprecated internal alias, removed at integration: use `TradeEnvelopeCodec`. @internal */
export const FastTradeEnvelopeCodec = TradeEnvelopeCodec;
