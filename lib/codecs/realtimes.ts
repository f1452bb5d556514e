import * as t from 'io-ts';
import { PublicEnvelopeCodec, type PublicEnvelope } from './envelope';
import { DecimalString, IdFromNumberOrString, IntFromNumberOrString } from './primitives';
import { struct } from './struct';

/**
 * One 24-hour ticker record of the `realtimes` topic (SPEC, realtimes record).
 *
 * Required: `t` (ms), `o`, `h`, `l`, `c` (prices), `v` (base volume), decimal text. Optional: `s` (pair
 * id), `sn` (pair name), `qv` (quote volume, decimal), `m` (24-hour range, decimal text), `e` (exchange
 * id, as text). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { RealtimesRecordCodec } from 'ex-streams';
 * RealtimesRecordCodec.decode({ t: 1626249138535, s: 'BTCUSDT', sn: 'BTCUSDT', c: '32902.6', h: '33500', l: '32100',
 *   o: '32500', v: '1520.3', qv: '49988321.1', m: '0.0124', e: 301 });
 * // right({ ..., m: '0.0124', e: '301' })
 * ```
 */
export const RealtimesRecordCodec = struct(
  'RealtimesRecord',
  { t: IntFromNumberOrString, o: DecimalString, h: DecimalString, l: DecimalString, c: DecimalString, v: DecimalString },
  { s: t.string, sn: t.string, qv: DecimalString, m: DecimalString, e: IdFromNumberOrString },
);
/**
 * A decoded realtimes record.
 *
 * @example
 * ```ts
 * import type { RealtimesRecord } from 'ex-streams';
 *
 * const ticker: RealtimesRecord = { t: 1700000000000, s: 'ETHUSDT', o: '2000', h: '2050', l: '1990', c: '2012.5', v: '812.3', qv: '1634512.2', m: '0.0062' };
 * ```
 */
export type RealtimesRecord = t.TypeOf<typeof RealtimesRecordCodec>;

/**
 * A realtimes data message: {@link PublicEnvelopeCodec} over {@link RealtimesRecordCodec}.
 *
 * @example
 * ```ts
 * import { RealtimesEnvelopeCodec } from 'ex-streams';
 * RealtimesEnvelopeCodec.name; // 'PublicEnvelope<RealtimesRecord>'
 * ```
 */
export const RealtimesEnvelopeCodec = PublicEnvelopeCodec(RealtimesRecordCodec);
/**
 * A decoded realtimes data message.
 *
 * @example
 * ```ts
 * import type { RealtimesEnvelope } from 'ex-streams';
 *
 * const lastPrice = (message: RealtimesEnvelope): string | undefined => message.data[0]?.c;
 * ```
 */
export type RealtimesEnvelope = PublicEnvelope<RealtimesRecord>;
