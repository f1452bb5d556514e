/**
 * A hole in the private stream: the socket was down (or moved to a new listen key) between `downSince`
 * and `reconnectedAt`, and the service does not replay what it pushed meanwhile. Orders, balances and
 * tickets that changed in that interval must be fetched over REST to reconcile.
 *
 * Emitted on `UserStream.gaps$` when the new connection opens, before any event of that connection.
 *
 * @example
 * ```ts
 * import { userStream } from 'ex-streams';
 * import type { ListenKeyApi } from 'ex-streams/connection';
 * declare const url: string, rest: ListenKeyApi;
 * userStream({ url, rest }).gaps$.subscribe((g) =>
 *   console.log(`epoch ${g.epoch}: missed ${g.reconnectedAt - g.downSince} ms, reconcile over REST`),
 * );
 * ```
 */
export interface UserStreamGap {
  /** Epoch of the connection that just opened (counts every open of this subscription, first = 1). */
  readonly epoch: number;
  /**
   * Local time (scheduler clock, ms) at which the previous connection stopped delivering: its last frame received
   * (the events' time `E` on the local clock when that frame held events stamped earlier), or its open when it
   * gave none; not the time the loss was noticed.
   */
  readonly downSince: number;
  /** Local time (scheduler clock, ms) at which the new connection opened. */
  readonly reconnectedAt: number;
  /** Whether the listen key changed across the gap. */
  readonly keyChanged: boolean;
}
