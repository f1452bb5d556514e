import * as t from 'io-ts';
import { OrderSideCodec, type OrderSide } from './executionReport';
import {
  BooleanFromStringOrBoolean,
  DecimalString,
  IdFromNumberOrString,
  IntFromNumberOrString,
  TextFromNumberOrString,
} from './primitives';
import { declaredAs, struct } from './struct';
import type { DecimalText } from '../decimal';

/**
 * A decoded trade ticket: the private `ticketInfo` event, one fill of one of the account's orders (SPEC,
 * Private stream payloads). Ids are text (64-bit); amounts are decimal text.
 *
 * @example
 * ```ts
 * import type { TicketInfo } from 'ex-streams';
 *
 * const fill = (t: TicketInfo): string => `${t.S} ${t.q} ${t.s} @ ${t.p} (ticket ${t.T}, order ${t.o})`;
 * ```
 */
export interface TicketInfo {
  /** Event type, always `'ticketInfo'`. */
  readonly e: 'ticketInfo';
  /** Event time: milliseconds since the Unix epoch (number; the SPEC sends text, turned into a number). */
  readonly E: number;
  /** Symbol (currency pair), text. */
  readonly s: string;
  /** Filled quantity: decimal text, in base asset units. */
  readonly q: DecimalText;
  /** Order matching time: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly t: number;
  /** Fill price: decimal text, quote asset per unit of base asset. */
  readonly p: DecimalText;
  /** Ticket (fill) id: text, 64-bit, compare as text. */
  readonly T: string;
  /** Order id of the account's order: text, 64-bit (matches `ExecutionReport.i`). */
  readonly o: string;
  /** Side of the account's order: `'BUY'` or `'SELL'`. */
  readonly S: OrderSide;
  /** Client order id: text, may be `''`, when sent. */
  readonly c?: string;
  /** Match order id (the other side's order): text, 64-bit, when sent. */
  readonly O?: string;
  /** Account id: text, 64-bit, when sent. */
  readonly a?: string;
  /** Whether the account's order was the maker (resting) side of this fill, when sent. */
  readonly m?: boolean;
}

/**
 * The codec of {@link TicketInfo}, the private `ticketInfo` event: one trade ticket (fill) of an order
 * (SPEC, Private stream payloads).
 *
 * Required: `e` (`'ticketInfo'`), `E` (event time, ms; the SPEC sends text), `s` (symbol), `q`, `p`
 * (decimal text), `t` (matching time, ms), `T` (ticket id), `o` (order id), `S` (side). Optional: `c`
 * (client order id), `O` (match order id), `a` (account id) — all ids as text — and `m` (maker flag).
 * `A` ("ignore") and extra fields are ignored.
 *
 * @example
 * ```ts
 * import { TicketInfoCodec } from 'ex-streams/codecs';
 * TicketInfoCodec.decode({ e: 'ticketInfo', E: '1668693440976', s: 'BTCUSDT', q: '0.001', t: '1668693440899',
 *   p: '16699.1', T: '1291488620385157122', o: '1291488620167835136', c: '1668693440093', O: '1291354061800376576',
 *   a: '1286424214388204801', A: '1286424214379845376', m: true, S: 'BUY' });
 * // right({ e: 'ticketInfo', E: 1668693440976, t: 1668693440899, T: '1291488620385157122', ... })
 * ```
 */
export const TicketInfoCodec = declaredAs<TicketInfo>()(
  struct(
    'TicketInfo',
    {
      e: t.literal('ticketInfo'),
      E: IntFromNumberOrString,
      s: t.string,
      q: DecimalString,
      t: IntFromNumberOrString,
      p: DecimalString,
      T: IdFromNumberOrString,
      o: IdFromNumberOrString,
      S: OrderSideCodec,
    },
    { c: TextFromNumberOrString, O: IdFromNumberOrString, a: IdFromNumberOrString, m: BooleanFromStringOrBoolean },
  ),
);
