import type * as t from 'io-ts';
import { RealtimesRecordCodec, type RealtimesRecord } from '../realtimes';
import { fastCodec } from './fastCodec';
import { fastStruct } from './fastStruct';
import { fastDecimal, fastId, fastInt, fastString } from './scalars';

/**
 * `RealtimesRecordCodec` with a hand-written fast path (same name, values and errors).
 *
 * @example
 * ```ts
 * import { FastRealtimesRecordCodec } from 'ex-streams';
 * FastRealtimesRecordCodec.name; // 'RealtimesRecord'
 * ```
 */
export const FastRealtimesRecordCodec: t.Type<RealtimesRecord, RealtimesRecord, unknown> = fastCodec(
  RealtimesRecordCodec,
  fastStruct<RealtimesRecord>(
    { t: fastInt, o: fastDecimal, h: fastDecimal, l: fastDecimal, c: fastDecimal, v: fastDecimal },
    { s: fastString, sn: fastString, qv: fastDecimal, m: fastDecimal, e: fastId },
  ),
);
