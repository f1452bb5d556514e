/**
 * The life of a {@link Connection}, as published on `status$`. `epoch` counts successful opens over the
 * connection's lifetime (first open = 1; 0 before any): messages of different epochs came over different
 * sockets, and anything the service sent between them is lost.
 *
 * - `connecting`: a socket is being opened; `attempt` is 0 for a first connect, n for the n-th retry.
 * - `open`: epoch `epoch` is live since `since` (local ms). `downSince` (set from the second epoch on) is the
 *   local time of the last frame received on the previous epoch's socket (any frame, pongs included; its open
 *   time if none came), whatever ended it (close, error, heartbeat timeout): delivery stopped there, so
 *   `[downSince, since)` is the gap to fill (resync a book, refetch orders "since downSince"). Where frames say
 *   when the service wrote them (a public pong's server time; on `marketStreams` also a message's `sendTime`, or a
 *   trade's or book's `t`), it is the earlier of that last frame's arrival and when the service wrote the last
 *   such frame (on the local clock, at the earliest: the server time minus `serverClock`'s offset and how far off
 *   it can be), but not before that socket opened: a frame read late (a busy process, a slow network) was written
 *   earlier, and what the service wrote after it was lost with the socket.
 * - `reconnecting`: the socket ended with `cause`; the next attempt starts in `delayMs`.
 * - `closed`: no socket and none coming: the last subscriber left (no `cause`), or reconnection gave up
 *   (`cause`: a `ConfigError` by default; whatever a custom `shouldReconnect` or `maxRetries` stopped on).
 *
 * @example
 * ```ts
 * import { connection } from 'ex-streams/connection';
 * const conn = connection({ url: 'wss://example.test/quote/ws/v1' });
 * conn.status$.subscribe((s) => {
 *   if (s.type === 'open' && s.downSince !== undefined) console.log(`gap ${s.since - s.downSince} ms`);
 * });
 * ```
 */
export type ConnectionStatus =
  | { readonly type: 'connecting'; readonly epoch: number; readonly attempt: number }
  | { readonly type: 'open'; readonly epoch: number; readonly since: number; readonly downSince?: number }
  | {
      readonly type: 'reconnecting';
      readonly epoch: number;
      readonly attempt: number;
      readonly delayMs: number;
      readonly cause: Error;
    }
  | { readonly type: 'closed'; readonly epoch: number; readonly cause?: Error };
