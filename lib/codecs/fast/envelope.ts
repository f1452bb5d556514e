import * as t from 'io-ts';
import { PublicEnvelopeCodec } from '../envelope';

/**
 * Alias of the raw envelope codec (records left undecoded), which carries its derived fast check itself.
 * @internal
 * @module
 */

/**
 * @deprecated internal alias, removed at integration: use `PublicEnvelopeCodec(t.unknown, 'PublicEnvelope')`
 * (its `data` check is `Array.isArray`). @internal
 */
export const FastRawEnvelopeCodec = PublicEnvelopeCodec(t.unknown, 'PublicEnvelope');
