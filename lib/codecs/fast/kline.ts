import type * as t from 'io-ts';
import { KlineEnvelopeCodec, KlineRecordCodec, type KlineEnvelope, type KlineRecord } from '../kline';
import { fastEnvelope } from './envelope';
import { fastCodec } from './fastCodec';
import { fastStruct } from './fastStruct';
import { fastDecimal, fastInt, fastString } from './scalars';

const fastKlineRecord = fastStruct<KlineRecord>(
  { t: fastInt, o: fastDecimal, h: fastDecimal, l: fastDecimal, c: fastDecimal, v: fastDecimal },
  { s: fastString, sn: fastString },
);

/**
 * `KlineRecordCodec` with a hand-written fast path (same name, values and errors).
 *
 * @example
 * ```ts
 * import { FastKlineRecordCodec } from 'ex-streams';
 * FastKlineRecordCodec.decode({ t: 1626249120000, c: '32902.6', h: '32903.1', l: '32900', o: '32900.4', v: '1.0231' });
 * // right({ t: 1626249120000, c: '32902.6', h: '32903.1', l: '32900', o: '32900.4', v: '1.0231' })
 * ```
 */
export const FastKlineRecordCodec: t.Type<KlineRecord, KlineRecord, unknown> = fastCodec(KlineRecordCodec, fastKlineRecord);

/**
 * `KlineEnvelopeCodec` with a hand-written fast path (same name, values and errors).
 *
 * @example
 * ```ts
 * import { FastKlineEnvelopeCodec } from 'ex-streams';
 * FastKlineEnvelopeCodec.name; // 'PublicEnvelope<KlineRecord>'
 * ```
 */
export const FastKlineEnvelopeCodec: t.Type<KlineEnvelope, KlineEnvelope, unknown> = fastCodec(
  KlineEnvelopeCodec,
  fastEnvelope(fastKlineRecord),
);
