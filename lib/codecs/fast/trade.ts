import type * as t from 'io-ts';
import { TradeEnvelopeCodec, TradeRecordCodec, type TradeEnvelope, type TradeRecord } from '../trade';
import { fastEnvelope } from './envelope';
import { fastCodec } from './fastCodec';
import { isRecord } from '../../internal/guards';
import { isDecimalText } from '../../internal/decimal';
import { FAIL, type Fast, fastBoolean, fastDecimal, fastId, fastInt } from './scalars';

/**
 * `fastStruct({ v: fastId, t: fastInt, p: fastDecimal, q: fastDecimal, m: fastBoolean })` written out:
 * monomorphic named loads, the common types tested inline. Same output (the input, or a shallow copy
 * with the converted fields).
 */
function fastTradeRecord(u: unknown): Fast<TradeRecord> {
  if (!isRecord(u)) return FAIL;
  const v = u['v'];
  const v2 = typeof v === 'string' && v.length > 0 ? v : fastId(v);
  if (v2 === FAIL) return FAIL;
  const t = u['t'];
  const t2 = typeof t === 'number' && Number.isSafeInteger(t) ? t : fastInt(t);
  if (t2 === FAIL) return FAIL;
  const p = u['p'];
  const p2 = typeof p === 'string' && isDecimalText(p) ? p : fastDecimal(p);
  if (p2 === FAIL) return FAIL;
  const q = u['q'];
  const q2 = typeof q === 'string' && isDecimalText(q) ? q : fastDecimal(q);
  if (q2 === FAIL) return FAIL;
  const m = u['m'];
  const m2 = typeof m === 'boolean' ? m : fastBoolean(m);
  if (m2 === FAIL) return FAIL;
  if (v2 === v && t2 === t && p2 === p && q2 === q && m2 === m) return u as unknown as TradeRecord;
  const out: Record<string, unknown> = { ...u };
  if (v2 !== v) out['v'] = v2;
  if (t2 !== t) out['t'] = t2;
  if (p2 !== p) out['p'] = p2;
  if (q2 !== q) out['q'] = q2;
  if (m2 !== m) out['m'] = m2;
  return out as unknown as TradeRecord;
}

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
