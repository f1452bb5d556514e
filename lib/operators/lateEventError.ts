/**
 * An event reached {@link reorderByEventTime} (with `late: 'error'`) after an event with a later event time
 * had already been emitted, so it cannot be placed in order any more.
 *
 * @example
 * ```ts
 * import { LateEventError } from 'ex-streams/folds';
 * new LateEventError(1000, 1500).message; // 'event time 1000 is before the last emitted event time 1500'
 * ```
 */
export class LateEventError extends Error {
  override readonly name = 'LateEventError';
  constructor(
    /** Event time of the late event (ms). */
    readonly eventTime: number,
    /** Event time of the last event emitted in order (ms). */
    readonly watermark: number,
  ) {
    super(`event time ${eventTime} is before the last emitted event time ${watermark}`);
  }
}
