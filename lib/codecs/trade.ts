import { PublicEnvelopeCodec, type PublicEnvelope } from './envelope';
import { BooleanFromStringOrBoolean, DecimalString, IdFromNumberOrString, IntFromNumberOrString } from './primitives';
import { declaredAs, struct } from './struct';
import type { DecimalText } from '../decimal';

/**
 * A decoded public trade of the `trade` topic (SPEC, trade record).
 *
 * @example
 * ```ts
 * import type { TradeRecord } from 'ex-streams';
 *
 * const trade: TradeRecord = { v: '929681067596857345', t: 1625562619577, p: '34924.15', q: '0.00027', m: true };
 * const aggressor = trade.m ? 'sell' : 'buy'; // 'sell': the buyer was the maker, so the taker sold
 * ```
 */
export interface TradeRecord {
  /** Trade id (the SPEC's transaction record id): text, 64-bit, compare as text; a number on the wire is turned into text. */
  readonly v: string;
  /** Transaction time: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly t: number;
  /** Traded price: decimal text, quote asset per unit of base asset (e.g. `'34924.15'`). */
  readonly p: DecimalText;
  /** Traded quantity: decimal text, in base asset units (e.g. `'0.00027'`). */
  readonly q: DecimalText;
  /**
   * Maker flag, boolean (text `"true"`/`"false"` on the wire is accepted). The SPEC's only words are
   * "true: maker, false: taker"; read it as on other venues of this API family (and as the simulator makes
   * it): `true` means the buyer was the maker (the resting order), so the taker, who made the trade happen,
   * **sold**; `false` means the taker **bought**. So `m ? 'sell' : 'buy'` is the aggressor side. The SPEC
   * does not say whose side the flag describes: confirm this against your venue before trading on it.
   */
  readonly m: boolean;
}

/**
 * The codec of {@link TradeRecord}, one public trade of the `trade` topic (SPEC, trade record). All fields
 * are required: `v` (trade id, as text), `t` (ms; number or text), `p` (price), `q` (quantity), decimal
 * text, `m` (maker flag; text `"true"`/`"false"` accepted). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { TradeRecordCodec } from 'ex-streams/codecs';
 * TradeRecordCodec.decode({ v: '929681067596857345', t: '1625562619577', p: '34924.15', q: '0.00027', m: true });
 * // right({ v: '929681067596857345', t: 1625562619577, p: '34924.15', q: '0.00027', m: true })
 * ```
 */
export const TradeRecordCodec = declaredAs<TradeRecord>()(
  struct(
    'TradeRecord',
    { v: IdFromNumberOrString, t: IntFromNumberOrString, p: DecimalString, q: DecimalString, m: BooleanFromStringOrBoolean },
    {},
  ),
);

/**
 * A trade data message: {@link PublicEnvelopeCodec} over {@link TradeRecordCodec}. The first message
 * (`f: true`) carries the most recent 60 trades.
 *
 * @example
 * ```ts
 * import { TradeEnvelopeCodec } from 'ex-streams/codecs';
 * TradeEnvelopeCodec.name; // 'PublicEnvelope<TradeRecord>'
 * ```
 */
export const TradeEnvelopeCodec = PublicEnvelopeCodec(TradeRecordCodec);
/**
 * A decoded trade data message.
 *
 * @example
 * ```ts
 * import type { TradeEnvelope } from 'ex-streams/codecs';
 *
 * const tradeIds = (message: TradeEnvelope): string[] => message.data.map((trade) => trade.v);
 * ```
 */
export type TradeEnvelope = PublicEnvelope<TradeRecord>;
