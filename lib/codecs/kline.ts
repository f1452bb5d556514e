import * as t from 'io-ts';
import { PublicEnvelopeCodec, type PublicEnvelope } from './envelope';
import { DecimalString, IntFromNumberOrString } from './primitives';
import { declaredAs, struct } from './struct';
import type { DecimalText } from '../decimal';

/**
 * A decoded kline (candle) record of a `kline_<interval>` topic (SPEC, kline record). Prices and volume
 * are decimal text: convert at the edge with `decimalToNumber`.
 *
 * @example
 * ```ts
 * import type { KlineRecord } from 'ex-streams';
 *
 * const candle: KlineRecord = { t: 1700000040000, s: 'BTCUSDT', o: '30000', h: '30010.5', l: '29990', c: '30005', v: '1.25' };
 * ```
 */
export interface KlineRecord {
  /** Candle time (the SPEC's timestamp): milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly t: number;
  /** Open price: decimal text, quote asset per unit of base asset. */
  readonly o: DecimalText;
  /** High price: decimal text. */
  readonly h: DecimalText;
  /** Low price: decimal text. */
  readonly l: DecimalText;
  /** Close (latest) price: decimal text. */
  readonly c: DecimalText;
  /** Volume traded in the candle: decimal text, in base asset units. */
  readonly v: DecimalText;
  /** Currency pair id (text), when sent. */
  readonly s?: string;
  /** Currency pair name (text), when sent. */
  readonly sn?: string;
}

/**
 * The codec of {@link KlineRecord}, one kline (candle) record of a `kline_<interval>` topic (SPEC, kline
 * record).
 *
 * Required: `t` (open time, ms), `o`, `h`, `l`, `c` (prices), `v` (base volume), all decimal text.
 * Optional: `s` (pair id), `sn` (pair name). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { KlineRecordCodec } from 'ex-streams/codecs';
 * KlineRecordCodec.decode({ t: 1626249120000, s: 'BTCUSDT', sn: 'BTCUSDT', c: '32902.6', h: '32903.1', l: '32900', o: '32900.4', v: '1.0231' });
 * // right({ t: 1626249120000, ..., c: '32902.6' })
 * ```
 */
export const KlineRecordCodec = declaredAs<KlineRecord>()(
  struct(
    'KlineRecord',
    { t: IntFromNumberOrString, o: DecimalString, h: DecimalString, l: DecimalString, c: DecimalString, v: DecimalString },
    { s: t.string, sn: t.string },
  ),
);

/**
 * A kline data message: {@link PublicEnvelopeCodec} over {@link KlineRecordCodec} (`topic` is `kline`,
 * `params.klineType` carries the interval).
 *
 * @example
 * ```ts
 * import { KlineEnvelopeCodec } from 'ex-streams/codecs';
 * KlineEnvelopeCodec.name; // 'PublicEnvelope<KlineRecord>'
 * ```
 */
export const KlineEnvelopeCodec = PublicEnvelopeCodec(KlineRecordCodec);
/**
 * A decoded kline data message.
 *
 * @example
 * ```ts
 * import { decodeWith, KlineEnvelopeCodec, type KlineEnvelope } from 'ex-streams/codecs';
 *
 * const lastClose = (message: KlineEnvelope): string | undefined => message.data[message.data.length - 1]?.c;
 * const decoded = decodeWith(KlineEnvelopeCodec, { symbol: 'BTCUSDT', topic: 'kline', data: [] });
 * if (decoded._tag === 'Right') console.log(lastClose(decoded.right)); // undefined
 * ```
 */
export type KlineEnvelope = PublicEnvelope<KlineRecord>;
