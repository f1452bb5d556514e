import { KlineEnvelopeCodec, KlineRecordCodec } from '../kline';

/**
 * Aliases of the kline codecs, which carry their derived fast check themselves.
 * @internal
 * @module
 */

/** @deprecated internal alias, removed at integration: use `KlineRecordCodec`. @internal */
export const FastKlineRecordCodec = KlineRecordCodec;
/** @deprecated internal alias, removed at integration: use `KlineEnvelopeCodec`. @internal */
export const FastKlineEnvelopeCodec = KlineEnvelopeCodec;
