import type { StreamStatus } from '../socket/streamStatus';

/**
 * The counters of a {@link MarketStatus}: since the streams were created, plus the age of the data in hand.
 *
 * @example
 * ```ts
 * import { marketStreams, type MarketCounters } from 'ex-streams';
 * const market = marketStreams({ url: 'wss://example.invalid/quote/ws/v1' });
 * const refused = (c: MarketCounters): number => c.decodeErrors + c.rejections;
 * market.status$.subscribe((s) => console.log(refused(s), s.klineRefetches, s.klineGaps)); // 0 0 0
 * ```
 */
export interface MarketCounters {
  /** Topic subscriptions live now (each `(symbol, topic, binary)` once, however many observers share it). */
  readonly topics: number;
  /** Trade gaps detected (see `gaps$`). */
  readonly tradeGaps: number;
  /**
   * Fetches of the closed candles missed over a break (a reconnect, a topic subscribed again) made for `klines`
   * (see `klineHistory`): one per fetch, however many observers share it (a fetch may take several pages).
   */
  readonly klineRefetches: number;
  /** Candles that could not be delivered (see `klineGaps$`): each `KlineGap` emitted. */
  readonly klineGaps: number;
  /** Breaks of the incremental books (see `bookGaps$`): each `BookGap` emitted; absent until the first. */
  readonly bookGaps?: number;
  /** Messages or records reported on `errors$` as `DecodeError`s. */
  readonly decodeErrors: number;
  /** Subscriptions the service refused for good (`SubscriptionRejectedError`) or that were quarantined (`TopicQuarantinedError`). */
  readonly rejections: number;
  /** `sub` frames sent again because the previous one brought no message within `subscribeTimeoutMs`. */
  readonly resubscribes: number;
  /** Topics cancelled and subscribed again because they delivered nothing for their `staleAfterMs`. */
  readonly staleResubscribes: number;
  /**
   * How old the newest delivered value was when it was handed over: its arrival time, on the server-corrected
   * clock (`serverClock`), minus its `sendTime` (or, without one, the last record's `t` for trades and depth),
   * in ms, at least 0. Absent until a value with a time was delivered. A consumer slower than the feed holds
   * the socket back (TCP backpressure) and sees it grow; a quiet market does not make it grow. Recomputed at
   * most once a second (on a delivery, or by a timer when the feed pauses) and published only when it moved by
   * at least 250 ms and 10 % of the published value, so `status$` does not emit per message.
   */
  readonly dataAgeMs?: number;
}

/**
 * The state of a `marketStreams` connection: the socket core's status (with its epoch) plus counters
 * since the streams were created, and the age of the data in hand (see {@link MarketCounters}). The same
 * shape as `UserStatus` (see `StreamStatus`). Emitted when the connection changes, and for counter changes
 * once per burst (see `MarketStreams.status$`).
 *
 * @example
 * ```ts
 * import { marketStreams } from 'ex-streams';
 * const market = marketStreams({ url: 'wss://example.invalid/quote/ws/v1' });
 * market.status$.subscribe((s) => console.log(s.connection.type, s.connection.epoch, s.topics, s.tradeGaps));
 * // 'open' 1 4 0
 * ```
 */
export type MarketStatus = StreamStatus<MarketCounters>;
