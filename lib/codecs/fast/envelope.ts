import * as t from 'io-ts';
import { PublicEnvelopeCodec, type PublicEnvelope } from '../envelope';
import { fastCodec } from './fastCodec';
import { fastArray, fastStruct } from './fastStruct';
import { fastBoolean, type FastCheck, fastId, fastInt, fastString, fastUnknown } from './scalars';

/** The fast check of `EnvelopeParamsCodec`. @internal */
const fastParams = fastStruct({}, { realtimeInterval: fastString, binary: fastBoolean, klineType: fastString });

/** The fast check of `PublicEnvelopeCodec(record)`, given the fast check of the record. @internal */
export function fastEnvelope<R>(record: FastCheck<R>): FastCheck<PublicEnvelope<R>> {
  return fastStruct(
    { symbol: fastString, topic: fastString, data: fastArray(record) },
    { symbolName: fastString, params: fastParams, f: fastBoolean, sendTime: fastInt, shared: fastBoolean, id: fastId },
  );
}

/**
 * A public data message whose `data` records are left undecoded (`unknown[]`): what a router decodes
 * before it knows the topic. Same name, errors and values as `PublicEnvelopeCodec(t.unknown, 'PublicEnvelope')`,
 * at the cost of a hand-written check.
 *
 * @example
 * ```ts
 * import { FastRawEnvelopeCodec } from 'ex-streams';
 * FastRawEnvelopeCodec.decode({ symbol: 'BTCUSDT', topic: 'trade', f: 'false', data: [{}] });
 * // right({ symbol: 'BTCUSDT', topic: 'trade', f: false, data: [{}] })
 * ```
 */
export const FastRawEnvelopeCodec: t.Type<PublicEnvelope<unknown>, PublicEnvelope<unknown>, unknown> = fastCodec(
  PublicEnvelopeCodec(t.unknown, 'PublicEnvelope'),
  fastEnvelope(fastUnknown),
);
