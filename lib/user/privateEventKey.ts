import type { PrivateEvent } from '../codecs/privateEvents';

/**
 * The identity of a private event, used by {@link index!userStream} to drop the duplicates the service may push.
 *
 * - `executionReport`: `er:{i}:{X}:{z}:{U}` — order id, status, cumulative filled quantity and update time
 *   (`E` when `U` is absent): one report per state of an order;
 * - `ticketInfo`: `tk:{T}` — the ticket id;
 * - `outboundAccountInfo`: `ac:{E}:{a}={f}/{l},…` — event time plus every listed balance, so two different
 *   updates with the same `E` are both kept;
 * - `other` (an event type the library does not model): `ot:{text}` — the element's exact text (or, decoded
 *   from a parsed value, its fields as JSON), so only a repeat of the very same element is a duplicate.
 *
 * @example
 * ```ts
 * import type { ExecutionReport } from 'ex-streams';
 * import { privateEventKey } from 'ex-streams/folds';
 * declare const report: ExecutionReport;
 * privateEventKey(report); // 'er:1470000001:FILLED:1:1700000000123'
 * ```
 */
export function privateEventKey(event: PrivateEvent): string {
  switch (event.e) {
    case 'executionReport':
      return `er:${event.i}:${event.X}:${event.z}:${event.U ?? event.E}`;
    case 'ticketInfo':
      return `tk:${event.T}`;
    case 'outboundAccountInfo':
      return `ac:${event.E}:${event.B.map((b) => `${b.a}=${b.f}/${b.l}`).join(',')}`;
    case 'other':
      return `ot:${event.text ?? JSON.stringify(event.raw)}`;
    default: {
      const never: never = event;
      return String(never);
    }
  }
}
