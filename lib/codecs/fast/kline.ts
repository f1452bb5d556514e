import type * as t from 'io-ts';
import { KlineEnvelopeCodec, KlineRecordCodec, type KlineEnvelope, type KlineRecord } from '../kline';
import { fastEnvelope } from './envelope';
import { fastCodec } from './fastCodec';
import { isRecord } from '../../internal/guards';
import { isDecimalText } from '../../internal/decimal';
import { FAIL, type Fast, fastDecimal, fastInt } from './scalars';

/** A `DecimalString` field: the common text case inline, {@link fastDecimal} otherwise. */
const decimal = (u: unknown): unknown => (typeof u === 'string' && isDecimalText(u) ? u : fastDecimal(u));

/**
 * `fastStruct({ t: fastInt, o, h, l, c, v: fastDecimal }, { s, sn: fastString })` written out: monomorphic
 * named loads. Same output (the input, or a shallow copy with the converted fields).
 */
function fastKlineRecord(u: unknown): Fast<KlineRecord> {
  if (!isRecord(u)) return FAIL;
  const t = u['t'];
  const t2 = typeof t === 'number' && Number.isSafeInteger(t) ? t : fastInt(t);
  if (t2 === FAIL) return FAIL;
  const o = u['o'];
  const o2 = decimal(o);
  if (o2 === FAIL) return FAIL;
  const h = u['h'];
  const h2 = decimal(h);
  if (h2 === FAIL) return FAIL;
  const l = u['l'];
  const l2 = decimal(l);
  if (l2 === FAIL) return FAIL;
  const c = u['c'];
  const c2 = decimal(c);
  if (c2 === FAIL) return FAIL;
  const v = u['v'];
  const v2 = decimal(v);
  if (v2 === FAIL) return FAIL;
  const s = u['s'];
  if (s !== undefined && typeof s !== 'string') return FAIL;
  const sn = u['sn'];
  if (sn !== undefined && typeof sn !== 'string') return FAIL;
  if (t2 === t && o2 === o && h2 === h && l2 === l && c2 === c && v2 === v) return u as unknown as KlineRecord;
  const out: Record<string, unknown> = { ...u };
  if (t2 !== t) out['t'] = t2;
  if (o2 !== o) out['o'] = o2;
  if (h2 !== h) out['h'] = h2;
  if (l2 !== l) out['l'] = l2;
  if (c2 !== c) out['c'] = c2;
  if (v2 !== v) out['v'] = v2;
  return out as unknown as KlineRecord;
}

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
