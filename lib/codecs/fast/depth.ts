import { DepthEnvelopeCodec, DepthRecordCodec } from '../depth';

/**
 * Aliases of the depth codecs, which carry their derived fast check themselves.
 * @internal
 * @module
 */

/** @deprecated internal alias, removed at integration: use `DepthRecordCodec`. @internal */
export const FastDepthRecordCodec = DepthRecordCodec;
/** @deprecated internal alias, removed at integration: use `DepthEnvelopeCodec`. @internal */
export const FastDepthEnvelopeCodec = DepthEnvelopeCodec;
