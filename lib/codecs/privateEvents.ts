import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { DecodeError } from '../errors';
import { decodeWith, rawExcerpt, showValue } from './decode';
import { ExecutionReportCodec, type ExecutionReport } from './executionReport';
import { OtherPrivateEventCodec, type OtherPrivateEvent } from './otherPrivateEvent';
import { OutboundAccountInfoCodec, type OutboundAccountInfo } from './outboundAccountInfo';
import { TicketInfoCodec, type TicketInfo } from './ticketInfo';
import { isRecord } from '../internal/guards';
import { taggedUnion } from './taggedUnion';

export { ExecutionReportCodec, isFinalOrderStatus, KnownOrderStatusCodec, OrderSideCodec, OrderStatusCodec } from './executionReport';
export type { ExecutionReport, KnownOrderStatus, OrderSide, OrderStatus } from './executionReport';
export { OtherPrivateEventCodec } from './otherPrivateEvent';
export type { OtherPrivateEvent } from './otherPrivateEvent';
export { BalanceCodec, OutboundAccountInfoCodec } from './outboundAccountInfo';
export type { Balance, OutboundAccountInfo } from './outboundAccountInfo';
export { TicketInfoCodec } from './ticketInfo';
export type { TicketInfo } from './ticketInfo';

/**
 * One event of the private stream, tagged by `e`: the three the library models, or an {@link OtherPrivateEvent}
 * (`e: 'other'`, its own type in `type`) for any other `e` the service sends.
 *
 * @example
 * ```ts
 * import type { PrivateEvent } from 'ex-streams';
 *
 * const summary = (event: PrivateEvent): string => {
 *   switch (event.e) {
 *     case 'executionReport':
 *       return `order ${event.i} ${event.X}`;
 *     case 'outboundAccountInfo':
 *       return `${event.B.length} balances changed`;
 *     case 'ticketInfo':
 *       return `fill ${event.T}: ${event.q} @ ${event.p}`;
 *     case 'other':
 *       return `${event.type || '(no type)'}: ${event.text ?? JSON.stringify(event.raw)}`;
 *   }
 * };
 * ```
 */
export type PrivateEvent = OutboundAccountInfo | ExecutionReport | TicketInfo | OtherPrivateEvent;

/**
 * Any private stream event, dispatched on its `e` field to {@link OutboundAccountInfoCodec},
 * {@link ExecutionReportCodec} or {@link TicketInfoCodec}. Only the selected codec runs, so a failure
 * names exactly the bad field: `: PrivateEvent/executionReport: ExecutionReport/i: IdFromNumberOrString`.
 * Any other `e` that is text (`''` too) decodes as an {@link OtherPrivateEvent} (`e: 'other'`, the element
 * itself in `raw`): never an error. A missing or non-text `e` fails at
 * `: PrivateEvent/e: "outboundAccountInfo" | "executionReport" | "ticketInfo" | string` with the offending value; a
 * non-object fails at `: PrivateEvent`. Built by `taggedUnion` (one declaration: its fast check is the selected
 * event's, derived from the event codecs).
 *
 * @example
 * ```ts
 * import { PrivateEventCodec } from 'ex-streams/codecs';
 * const r = PrivateEventCodec.decode({ e: 'ticketInfo', E: '1668693440976', s: 'BTCUSDT', q: '0.001', t: '1668693440899',
 *   p: '16699.1', T: '1291488620385157122', o: '1291488620167835136', S: 'BUY' });
 * if (r._tag === 'Right' && r.right.e === 'ticketInfo') console.log(r.right.T); // '1291488620385157122'
 * ```
 */
export const PrivateEventCodec: t.Type<PrivateEvent, unknown, unknown> = taggedUnion(
  'PrivateEvent',
  'e',
  {
    outboundAccountInfo: OutboundAccountInfoCodec,
    executionReport: ExecutionReportCodec,
    ticketInfo: TicketInfoCodec,
  },
  { codec: OtherPrivateEventCodec, otherTag: 'other' },
);

const PrivateFrameName = 'PrivateFrame';

/**
 * Decodes one private stream frame (already parsed JSON): an array of events, or a single event object.
 * Each element is decoded on its own, so one bad element yields one `Left` and the others still arrive, in
 * order. Anything else (a number, text, `null`) yields a single `Left` (`: PrivateFrame`). Heartbeat frames
 * (`{ ping, channelId }`, `{ pong, channelId }`) are not events: filter them out before calling.
 * Never throws.
 *
 * @example
 * ```ts
 * import { decodePrivateFrame } from 'ex-streams/codecs';
 * const results = decodePrivateFrame([{ e: 'outboundAccountInfo', E: 1, B: [] }, { e: 'outboundFiatAccountInfo' }, { E: 1 }]);
 * results.map((r) => r._tag); // ['Right', 'Right', 'Left']: an event of another type is an OtherPrivateEvent
 * ```
 */
export function decodePrivateFrame(json: unknown): Array<E.Either<DecodeError, PrivateEvent>> {
  if (Array.isArray(json)) return json.map((element) => decodeWith(PrivateEventCodec, element));
  if (isRecord(json)) return [decodeWith(PrivateEventCodec, json)];
  return [
    E.left(
      new DecodeError(
        'codec',
        `${PrivateFrameName} failed to decode: expected an array of events or one event object`,
        [`Invalid value ${showValue(json)} supplied to : ${PrivateFrameName}`],
        rawExcerpt(json),
      ),
    ),
  ];
}
