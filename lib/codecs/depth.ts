import * as t from 'io-ts';
import { PublicEnvelopeCodec, type PublicEnvelope } from './envelope';
import { DecimalString, IdFromNumberOrString, IntFromNumberOrString } from './primitives';
import { withFastCheck } from './fastCheck';
import { declaredAs, struct } from './struct';
import type { DecimalText } from '../decimal';

/**
 * The codec of {@link DepthLevel}, one order book level `[price, quantity]`, decimal text (numbers are
 * turned into text). Extra elements after the second are dropped; a missing one fails. (`t.tuple` with its
 * derived fast check: `validate` tries it first.)
 *
 * @example
 * ```ts
 * import { DepthLevelCodec } from 'ex-streams/codecs';
 * DepthLevelCodec.decode(['34924.15', 0.5]); // right(['34924.15', '0.5'])
 * ```
 */
export const DepthLevelCodec: t.Type<DepthLevel, DepthLevel, unknown> = withFastCheck(t.tuple([DecimalString, DecimalString], 'DepthLevel'));
/**
 * One order book level `[price, quantity]`: both {@link DecimalText}; price in quote asset per unit of base
 * asset, quantity in base asset units. A level's price goes into an order as it is.
 *
 * @example
 * ```ts
 * import type { DepthLevel, NewOrderRequest } from 'ex-streams';
 *
 * const [price, quantity]: DepthLevel = ['30000.5', '0.25'];
 * const order: NewOrderRequest = { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price, quantity };
 * ```
 */
export type DepthLevel = [price: DecimalText, quantity: DecimalText];

/**
 * A decoded order book record of the `depth` topic (SPEC, depth record): a snapshot of up to 200 levels a
 * side, as the service sends them (use `orderBook()` for a checked, sorted view).
 *
 * @example
 * ```ts
 * import type { DepthRecord } from 'ex-streams';
 *
 * const book: DepthRecord = { t: 1700000000000, s: 'BTCUSDT', a: [['30001', '0.5']], b: [['30000', '1.2']] };
 * ```
 */
export interface DepthRecord {
  /** Data time: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly t: number;
  /** Ask (sell) levels `[price, quantity]`, decimal text; may be empty. */
  readonly a: DepthLevel[];
  /** Bid (buy) levels `[price, quantity]`, decimal text; may be empty. */
  readonly b: DepthLevel[];
  /** Currency pair (text), when sent. */
  readonly s?: string;
  /** Exchange id: text (a number on the wire is turned into text), when sent. */
  readonly e?: string;
  /** "Ignore" in the SPEC: kept as text when sent, so a 64-bit value cannot fail the book. */
  readonly v?: string;
  /** "Ignore" in the SPEC: kept as text when sent (a number is turned into text). */
  readonly o?: string;
}

/**
 * The codec of {@link DepthRecord}, the order book record of the `depth` topic (SPEC, depth record), up
 * to 200 levels a side.
 *
 * Required: `t` (ms), `a` (asks) and `b` (bids), arrays of {@link DepthLevelCodec} (either may be empty).
 * Optional: `s` (pair), `e` (exchange id), `v` and `o` ("ignore" in the SPEC; kept as id text when present
 * so a 64-bit value cannot fail the book). Extra fields are ignored.
 *
 * @example
 * ```ts
 * import { DepthRecordCodec } from 'ex-streams/codecs';
 * DepthRecordCodec.decode({ e: 301, s: 'BTCUSDT', t: 1626249138535, v: '6583_18', o: 0,
 *   a: [['34924.15', '0.5']], b: [] });
 * // right({ e: '301', s: 'BTCUSDT', t: 1626249138535, v: '6583_18', o: '0', a: [['34924.15', '0.5']], b: [] })
 * ```
 */
export const DepthRecordCodec = declaredAs<DepthRecord>()(
  struct(
    'DepthRecord',
    { t: IntFromNumberOrString, a: t.array(DepthLevelCodec), b: t.array(DepthLevelCodec) },
    { s: t.string, e: IdFromNumberOrString, v: IdFromNumberOrString, o: IdFromNumberOrString },
  ),
);

/**
 * A depth data message: {@link PublicEnvelopeCodec} over {@link DepthRecordCodec}.
 *
 * @example
 * ```ts
 * import { DepthEnvelopeCodec } from 'ex-streams/codecs';
 * DepthEnvelopeCodec.name; // 'PublicEnvelope<DepthRecord>'
 * ```
 */
export const DepthEnvelopeCodec = PublicEnvelopeCodec(DepthRecordCodec);
/**
 * A decoded depth data message.
 *
 * @example
 * ```ts
 * import type { DepthEnvelope } from 'ex-streams/codecs';
 *
 * const bestBid = (message: DepthEnvelope): string | undefined => message.data[0]?.b[0]?.[0];
 * ```
 */
export type DepthEnvelope = PublicEnvelope<DepthRecord>;
