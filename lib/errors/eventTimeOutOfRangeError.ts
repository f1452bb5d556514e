/**
 * An event whose event time `E` lies further from the (server-corrected) clock than the configured bound:
 * it is reported and dropped, so it neither moves the reorder buffer's watermark nor wins in the order and
 * balance state.
 *
 * @example
 * ```ts
 * import { EventTimeOutOfRangeError } from 'ex-streams';
 * const e = new EventTimeOutOfRangeError('outboundAccountInfo', 1_700_086_400_000, 1_700_000_000_000, 300_000);
 * e.message; // 'outboundAccountInfo event time 1700086400000 is 86400000 ms from the clock (bound 300000 ms): dropped'
 * ```
 */
export class EventTimeOutOfRangeError extends Error {
  override readonly name = 'EventTimeOutOfRangeError';
  constructor(
    /** The event type (`e`). */
    readonly eventType: string,
    /** The event's `E`. */
    readonly eventTime: number,
    /** The clock's time (server-corrected) when it arrived. */
    readonly clockTime: number,
    /** The bound in force, in ms. */
    readonly maxSkewMs: number,
  ) {
    super(
      `${eventType} event time ${eventTime} is ${Math.abs(eventTime - clockTime)} ms from the clock (bound ${maxSkewMs} ms): dropped`,
    );
  }
}
