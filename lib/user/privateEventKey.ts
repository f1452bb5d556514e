import type { PrivateEvent } from '../codecs/privateEvents';

/**
 * The identity of a private event, used by {@link userStream} to drop the duplicates the service may push.
 *
 * - `executionReport`: `er:{i}:{X}:{z}:{U}` — order id, status, cumulative filled quantity and update time
 *   (`E` when `U` is absent): one report per state of an order;
 * - `ticketInfo`: `tk:{T}` — the ticket id;
 * - `outboundAccountInfo`: `ac:{E}:{a}={f}/{l},…` — event time plus every listed balance, so two different
 *   updates with the same `E` are both kept.
 *
 * @example
 * ```ts
 * import { privateEventKey, type ExecutionReport } from 'ex-streams';
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
    default: {
      const never: never = event;
      return String(never);
    }
  }
}
