import type * as t from 'io-ts';
import { DepthEnvelopeCodec, DepthRecordCodec, type DepthEnvelope, type DepthLevel, type DepthRecord } from '../depth';
import { fastEnvelope } from './envelope';
import { fastCodec } from './fastCodec';
import { fastArray, fastPair, fastStruct } from './fastStruct';
import { isDecimalText } from '../../internal/decimal';
import { FAIL, type Fast, fastDecimal, fastId, fastInt, fastString } from './scalars';

const slowLevels = fastArray(fastPair(fastDecimal, fastDecimal));

/**
 * The levels of one side, `t.array(DepthLevelCodec)`. The common case (every level exactly two decimal
 * texts) is one loop that allocates nothing and returns the input array; anything else takes the general
 * check (numbers turned into text, extra elements dropped).
 */
function fastLevels(u: unknown): Fast<DepthLevel[]> {
  if (!Array.isArray(u)) return FAIL;
  const n = u.length;
  for (let i = 0; i < n; i++) {
    const level: unknown = u[i];
    if (!Array.isArray(level) || level.length !== 2) return slowLevels(u);
    const price: unknown = level[0];
    const qty: unknown = level[1];
    if (typeof price !== 'string' || typeof qty !== 'string' || !isDecimalText(price) || !isDecimalText(qty)) {
      return slowLevels(u);
    }
  }
  return u as DepthLevel[];
}

const fastDepthRecord = fastStruct<DepthRecord>(
  { t: fastInt, a: fastLevels, b: fastLevels },
  { s: fastString, e: fastId, v: fastId, o: fastId },
);

/**
 * `DepthRecordCodec` with a hand-written fast path (same name, values and errors): a 200-level book is
 * checked in one allocation-free loop per side.
 *
 * @example
 * ```ts
 * import { FastDepthRecordCodec } from 'ex-streams';
 * FastDepthRecordCodec.decode({ e: 301, t: 1626249138535, a: [['34924.15', '0.5']], b: [] });
 * // right({ e: '301', t: 1626249138535, a: [['34924.15', '0.5']], b: [] })
 * ```
 */
export const FastDepthRecordCodec: t.Type<DepthRecord, DepthRecord, unknown> = fastCodec(DepthRecordCodec, fastDepthRecord);

/**
 * `DepthEnvelopeCodec` with a hand-written fast path (same name, values and errors).
 *
 * @example
 * ```ts
 * import { FastDepthEnvelopeCodec } from 'ex-streams';
 * FastDepthEnvelopeCodec.name; // 'PublicEnvelope<DepthRecord>'
 * ```
 */
export const FastDepthEnvelopeCodec: t.Type<DepthEnvelope, DepthEnvelope, unknown> = fastCodec(
  DepthEnvelopeCodec,
  fastEnvelope(fastDepthRecord),
);
