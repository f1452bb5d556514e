import { RealtimesRecordCodec } from '../realtimes';

/**
 * Alias of the realtimes record codec, which carries its derived fast check itself.
 * @internal
 * @module
 */

/** @deprecated internal alias, removed at integration: use `RealtimesRecordCodec`. @internal */
export const FastRealtimesRecordCodec = RealtimesRecordCodec;
