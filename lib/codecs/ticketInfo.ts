import * as t from 'io-ts';
import { OrderSideCodec } from './executionReport';
import {
  BooleanFromStringOrBoolean,
  DecimalString,
  IdFromNumberOrString,
  IntFromNumberOrString,
  TextFromNumberOrString,
} from './primitives';
import { struct } from './struct';

/**
 * The private `ticketInfo` event: one trade ticket (fill) of an order (SPEC, Private stream payloads).
 *
 * Required: `e` (`'ticketInfo'`), `E` (event time, ms; the SPEC sends text), `s` (symbol), `q`, `p`
 * (decimal text), `t` (matching time, ms), `T` (ticket id), `o` (order id), `S` (side). Optional: `c`
 * (client order id), `O` (match order id), `a` (account id) — all ids as text — and `m` (maker flag).
 * `A` ("ignore") and extra fields are ignored.
 *
 * @example
 * ```ts
 * import { TicketInfoCodec } from 'ex-streams';
 * TicketInfoCodec.decode({ e: 'ticketInfo', E: '1668693440976', s: 'BTCUSDT', q: '0.001', t: '1668693440899',
 *   p: '16699.1', T: '1291488620385157122', o: '1291488620167835136', c: '1668693440093', O: '1291354061800376576',
 *   a: '1286424214388204801', A: '1286424214379845376', m: true, S: 'BUY' });
 * // right({ e: 'ticketInfo', E: 1668693440976, t: 1668693440899, T: '1291488620385157122', ... })
 * ```
 */
export const TicketInfoCodec = struct(
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
);
/**
 * A decoded trade ticket.
 *
 * @example
 * ```ts
 * import type { TicketInfo } from 'ex-streams';
 *
 * const fill = (t: TicketInfo): string => `${t.S} ${t.q} ${t.s} @ ${t.p} (ticket ${t.T}, order ${t.o})`;
 * ```
 */
export type TicketInfo = t.TypeOf<typeof TicketInfoCodec>;
