import type * as t from 'io-ts';
import { TradeEnvelopeCodec, TradeRecordCodec, type TradeEnvelope, type TradeRecord } from '../trade';
import { fastEnvelope } from './envelope';
import { fastCodec } from './fastCodec';
import { fastStruct } from './fastStruct';
import { fastBoolean, fastDecimal, fastId, fastInt } from './scalars';

const fastTradeRecord = fastStruct<TradeRecord>({ v: fastId, t: fastInt, p: fastDecimal, q: fastDecimal, m: fastBoolean });

/**
 * `TradeRecordCodec` with a hand-written fast path: same name, same decoded values, same errors (the
 * combinator runs whenever the fast check fails), several times faster on valid records.
 *
 * @example
 * ```ts
 * import { FastTradeRecordCodec } from 'ex-streams';
 * FastTradeRecordCodec.decode({ v: '929681067596857345', t: '1625562619577', p: '34924.15', q: '0.00027', m: true });
 * // right({ v: '929681067596857345', t: 1625562619577, p: '34924.15', q: '0.00027', m: true })
 * ```
 */
export const FastTradeRecordCodec: t.Type<TradeRecord, TradeRecord, unknown> = fastCodec(TradeRecordCodec, fastTradeRecord);

/**
 * `TradeEnvelopeCodec` with a hand-written fast path (same name, values and errors).
 *
 * @example
 * ```ts
 * import { FastTradeEnvelopeCodec } from 'ex-streams';
 * FastTradeEnvelopeCodec.name; // 'PublicEnvelope<TradeRecord>'
 * ```
 */
export const FastTradeEnvelopeCodec: t.Type<TradeEnvelope, TradeEnvelope, unknown> = fastCodec(
  TradeEnvelopeCodec,
  fastEnvelope(fastTradeRecord),
);
