import * as t from 'io-ts';
import { PublicEnvelopeCodec, type PublicEnvelope } from './envelope';
import { DecimalString, IdFromNumberOrString, IntFromNumberOrString } from './primitives';
import { declaredAs, struct } from './struct';
import type { DecimalText } from '../decimal';

/**
 * A decoded 24-hour ticker record of the `realtimes` topic (SPEC, realtimes record). Prices and volumes are
 * decimal text: convert at the edge with `decimalToNumber`.
 *
 * @example
 * ```ts
 * import type { RealtimesRecord } from 'ex-streams';
 *
 * const ticker: RealtimesRecord = { t: 1700000000000, s: 'ETHUSDT', o: '2000', h: '2050', l: '1990', c: '2012.5', v: '812.3', qv: '1634512.2', m: '0.0062' };
 * ```
 */
export interface RealtimesRecord {
  /** Data time: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly t: number;
  /** Open price of the 24-hour window: decimal text, quote asset per unit of base asset. */
  readonly o: DecimalText;
  /** High price of the 24-hour window: decimal text. */
  readonly h: DecimalText;
  /** Low price of the 24-hour window: decimal text. */
  readonly l: DecimalText;
  /** Close (latest) price: decimal text. */
  readonly c: DecimalText;
  /** 24-hour volume: decimal text, in base asset units. */
  readonly v: DecimalText;
  /** Currency pair id (text), when sent. */
  readonly s?: string;
  /** Currency pair name (text), when sent. */
  readonly sn?: string;
  /** 24-hour volume in quote asset units: decimal text, when sent. */
  readonly qv?: DecimalText;
  /**
   * The SPEC's "24-hour range": decimal text, when sent. The SPEC gives no formula; the simulator sends
   * the 24-hour change ratio `(c - o) / o` (`'0.0124'` = +1.24 %).
   */
  readonly m?: DecimalText;
  /** Exchange id: text (a number on the wire is turned into text), when sent. */
  readonly e?: string;
}

/**
 * The codec of {@link RealtimesRecord}, one 24-hour ticker record of the `realtimes` topic (SPEC,
 * realtimes record).
 *
 * Required: `t` (ms), `o`, `h`, `l`, `c` (prices), `v` (base volume), decimal text. Optional: `s` (pair
 * id), `sn` (pair name), `qv` (quote volume, decimal), `m` (24-hour range, decimal text), `e` (exchange
 * id, as text). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { RealtimesRecordCodec } from 'ex-streams/codecs';
 * RealtimesRecordCodec.decode({ t: 1626249138535, s: 'BTCUSDT', sn: 'BTCUSDT', c: '32902.6', h: '33500', l: '32100',
 *   o: '32500', v: '1520.3', qv: '49988321.1', m: '0.0124', e: 301 });
 * // right({ ..., m: '0.0124', e: '301' })
 * ```
 */
export const RealtimesRecordCodec = declaredAs<RealtimesRecord>()(
  struct(
    'RealtimesRecord',
    { t: IntFromNumberOrString, o: DecimalString, h: DecimalString, l: DecimalString, c: DecimalString, v: DecimalString },
    { s: t.string, sn: t.string, qv: DecimalString, m: DecimalString, e: IdFromNumberOrString },
  ),
);

/**
 * A realtimes data message: {@link PublicEnvelopeCodec} over {@link RealtimesRecordCodec}.
 *
 * @example
 * ```ts
 * import { RealtimesEnvelopeCodec } from 'ex-streams/codecs';
 * RealtimesEnvelopeCodec.name; // 'PublicEnvelope<RealtimesRecord>'
 * ```
 */
export const RealtimesEnvelopeCodec = PublicEnvelopeCodec(RealtimesRecordCodec);
/**
 * A decoded realtimes data message.
 *
 * @example
 * ```ts
 * import type { RealtimesEnvelope } from 'ex-streams/codecs';
 *
 * const lastPrice = (message: RealtimesEnvelope): string | undefined => message.data[0]?.c;
 * ```
 */
export type RealtimesEnvelope = PublicEnvelope<RealtimesRecord>;
