import * as t from 'io-ts';
import { PublicEnvelopeCodec, type PublicEnvelope } from './envelope';
import { DecimalString, IntFromNumberOrString } from './primitives';
import { struct } from './struct';

/**
 * One kline (candle) record of a `kline_<interval>` topic (SPEC, kline record).
 *
 * Required: `t` (open time, ms), `o`, `h`, `l`, `c` (prices), `v` (base volume), all decimal text.
 * Optional: `s` (pair id), `sn` (pair name). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { KlineRecordCodec } from 'ex-streams';
 * KlineRecordCodec.decode({ t: 1626249120000, s: 'BTCUSDT', sn: 'BTCUSDT', c: '32902.6', h: '32903.1', l: '32900', o: '32900.4', v: '1.0231' });
 * // right({ t: 1626249120000, ..., c: '32902.6' })
 * ```
 */
export const KlineRecordCodec = struct(
  'KlineRecord',
  { t: IntFromNumberOrString, o: DecimalString, h: DecimalString, l: DecimalString, c: DecimalString, v: DecimalString },
  { s: t.string, sn: t.string },
);
/** A decoded kline record. */
export type KlineRecord = t.TypeOf<typeof KlineRecordCodec>;

/**
 * A kline data message: {@link PublicEnvelopeCodec} over {@link KlineRecordCodec} (`topic` is `kline`,
 * `params.klineType` carries the interval).
 *
 * @example
 * ```ts
 * import { KlineEnvelopeCodec } from 'ex-streams';
 * KlineEnvelopeCodec.name; // 'PublicEnvelope<KlineRecord>'
 * ```
 */
export const KlineEnvelopeCodec = PublicEnvelopeCodec(KlineRecordCodec);
/** A decoded kline data message. */
export type KlineEnvelope = PublicEnvelope<KlineRecord>;
