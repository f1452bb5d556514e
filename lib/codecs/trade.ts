import * as t from 'io-ts';
import { PublicEnvelopeCodec, type PublicEnvelope } from './envelope';
import { BooleanFromStringOrBoolean, DecimalString, IdFromNumberOrString, IntFromNumberOrString } from './primitives';
import { struct } from './struct';

/**
 * One public trade of the `trade` topic (SPEC, trade record). All fields are required: `v` (trade id, as
 * text), `t` (ms; number or text), `p` (price), `q` (quantity), decimal text, `m` (maker flag; text
 * `"true"`/`"false"` accepted). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { TradeRecordCodec } from 'ex-streams';
 * TradeRecordCodec.decode({ v: '929681067596857345', t: '1625562619577', p: '34924.15', q: '0.00027', m: true });
 * // right({ v: '929681067596857345', t: 1625562619577, p: '34924.15', q: '0.00027', m: true })
 * ```
 */
export const TradeRecordCodec = struct(
  'TradeRecord',
  { v: IdFromNumberOrString, t: IntFromNumberOrString, p: DecimalString, q: DecimalString, m: BooleanFromStringOrBoolean },
  {},
);
/**
 * A decoded public trade.
 *
 * @example
 * ```ts
 * import type { TradeRecord } from 'ex-streams';
 *
 * const trade: TradeRecord = { v: '929681067596857345', t: 1625562619577, p: '34924.15', q: '0.00027', m: true };
 * ```
 */
export type TradeRecord = t.TypeOf<typeof TradeRecordCodec>;

/**
 * A trade data message: {@link PublicEnvelopeCodec} over {@link TradeRecordCodec}. The first message
 * (`f: true`) carries the most recent 60 trades.
 *
 * @example
 * ```ts
 * import { TradeEnvelopeCodec } from 'ex-streams';
 * TradeEnvelopeCodec.name; // 'PublicEnvelope<TradeRecord>'
 * ```
 */
export const TradeEnvelopeCodec = PublicEnvelopeCodec(TradeRecordCodec);
/**
 * A decoded trade data message.
 *
 * @example
 * ```ts
 * import type { TradeEnvelope } from 'ex-streams';
 *
 * const tradeIds = (message: TradeEnvelope): string[] => message.data.map((trade) => trade.v);
 * ```
 */
export type TradeEnvelope = PublicEnvelope<TradeRecord>;
