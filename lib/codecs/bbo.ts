import * as t from 'io-ts';
import { DecimalString, IntFromNumberOrString } from './primitives';
import { declaredAs, struct } from './struct';
import type { DecimalText } from '../decimal';

/**
 * A decoded best bid and offer of the V2 stream's `bbo` topic (HashKey's "Public Stream (WS v2)"): the top level of
 * each side, `{ s, t, b, bz, a, az }`.
 *
 * @example
 * ```ts
 * import type { BboRecord } from 'ex-streams';
 *
 * const top: BboRecord = { s: 'BTCUSDT', t: 1700000000000, b: '30000.1', bz: '0.5', a: '30000.3', az: '1.2' };
 * ```
 */
export interface BboRecord {
  /** Currency pair. */
  readonly s: string;
  /** Data time: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly t: number;
  /** Best bid price: decimal text. */
  readonly b: DecimalText;
  /** Quantity at the best bid: decimal text. */
  readonly bz: DecimalText;
  /** Best ask price: decimal text. */
  readonly a: DecimalText;
  /** Quantity at the best ask: decimal text. */
  readonly az: DecimalText;
}

/**
 * The codec of {@link BboRecord}. All fields are required: `s` (pair), `t` (ms; number or text), `b`, `bz`, `a`, `az`
 * (decimal text; numbers are turned into text). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { BboRecordCodec } from 'ex-streams/codecs';
 * BboRecordCodec.decode({ s: 'BTCUSDT', t: 1700000000000, b: '30000.1', bz: '0.5', a: '30000.3', az: 1.2 });
 * // right({ s: 'BTCUSDT', t: 1700000000000, b: '30000.1', bz: '0.5', a: '30000.3', az: '1.2' })
 * ```
 */
export const BboRecordCodec = declaredAs<BboRecord>()(
  struct('BboRecord', { s: t.string, t: IntFromNumberOrString, b: DecimalString, bz: DecimalString, a: DecimalString, az: DecimalString }, {}),
);
