import type { StreamStatus } from '../socket/streamStatus';

/**
 * The counters of a {@link UserStatus}, since the `userStream` was created (across every start, stop and
 * listen key), and whether the state in hand is authoritative.
 *
 * @example
 * ```ts
 * import { userStream, type UserCounters } from 'ex-streams';
 * import type { ListenKeyApi } from 'ex-streams/connection';
 * declare const url: string, rest: ListenKeyApi;
 * const dropped = (c: UserCounters): number => c.decodeErrors + c.outOfRangeEvents;
 * userStream({ url, rest }).status$.subscribe((s) => console.log(s.gaps, dropped(s), s.authoritative)); // 0 0 false
 * ```
 */
export interface UserCounters {
  /** Reconnections (and key changes) after an open whose missed interval was reported on `gaps$`. */
  readonly gaps: number;
  /** Times the socket moved to a new listen key (recreated after a rejection, or a new one from `listenKey$`). */
  readonly keyChanges: number;
  /** Listen-key calls that failed or were refused (a creation or an extension; each retried), also on `errors$`. */
  readonly keyErrors: number;
  /** `DecodeError`s reported on `errors$`: one per frame however many of its events failed (the others arrived). */
  readonly decodeErrors: number;
  /** Events dropped because their time `E` was further than `maxEventTimeSkewMs` from the clock (`EventTimeOutOfRangeError`). */
  readonly outOfRangeEvents: number;
  /**
   * Events that arrived after a later-stamped one had already been emitted (the reorder buffer's `onLate`:
   * emitted anyway by default, dropped with `reorder.late: 'drop'`).
   */
  readonly lateEvents: number;
  /**
   * Whether `orders$` and `balances$` are authoritative now (see `StateSync`): `true` from the merge of the
   * REST snapshots taken after the current connection opened until that connection is lost; always `false`
   * without REST snapshots.
   */
  readonly authoritative: boolean;
  /** Epoch (as on `connection`) of the connection the last merged snapshot was taken after; absent before the first (and after a stop). */
  readonly syncedEpoch?: number;
}

/**
 * The state of a `userStream`: the connection's status (epochs counted across listen keys; never shows a
 * listen key) plus the counters of {@link UserCounters}. The same shape as `MarketStatus` (see `StreamStatus`),
 * emitted by the same rule (see `UserStream.status$`).
 *
 * @example
 * ```ts
 * import { userStream } from 'ex-streams';
 * import type { ListenKeyApi } from 'ex-streams/connection';
 * declare const url: string, rest: ListenKeyApi;
 * userStream({ url, rest }).status$.subscribe((s) => console.log(s.connection.type, s.connection.epoch, s.gaps));
 * // 'closed' 0 0, then 'connecting' 0 0, 'open' 1 0
 * ```
 */
export type UserStatus = StreamStatus<UserCounters>;
