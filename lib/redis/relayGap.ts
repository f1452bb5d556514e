/**
 * Why a {@link RelayGap} was signalled:
 * - `sequence`: entries of the shard are missing (trimmed by the retention before this consumer read them, or lost
 *   by a Redis that restarted without them);
 * - `gateway-restart`: the gateway started again (a `start` entry): what its venue sent in between is missing;
 * - `venue-closed`: the gateway's venue connection closed (an `epoch` entry): what the venue sent until it reopens is missing;
 * - `gateway-dropped`: the gateway could not write some frames to Redis (a `gap` entry: `fromMs`, `toMs`, `dropped`);
 * - `venue-trade-gap`: the gateway's own `marketStreams` saw a trade gap (`symbols` names the pair); the data itself
 *   shows it too (the venue's replay reaches this consumer), so the socket is not reset for it;
 * - `unreadable`: an entry that is not one of the relay's (written by another client, or damaged): skipped, and said on
 *   `errors$` (once per run of them). The entries around it are intact, so the socket is not reset for it: a lost frame
 *   of the relay's shows as well in the sequence (`sequence`) or a trade topic's chain (a `TradeGap` on `gaps$`);
 * - `rewound`: the stream is behind this consumer's cursor (Redis restarted empty, a failover lost entries, a
 *   `resumeFrom` cursor from elsewhere or ahead of the stream): it reads on from the stream's newest entry, as a late
 *   joiner; what lies between is in this gap.
 *
 * @example
 * ```ts
 * import type { RelayGapReason } from 'ex-streams/redis';
 *
 * const resetsBooks = (reason: RelayGapReason): boolean => reason !== 'venue-trade-gap' && reason !== 'unreadable';
 * ```
 */
export type RelayGapReason = 'sequence' | 'gateway-restart' | 'venue-closed' | 'gateway-dropped' | 'venue-trade-gap' | 'unreadable' | 'rewound';

/**
 * A stretch of a shard's entries a Redis consumer could not follow. Each one also (except `venue-trade-gap` and `unreadable`) closes
 * the consumer's Redis-backed socket: its `marketStreams` starts a new epoch and subscribes again, so books start
 * over from a whole snapshot and `trades()` runs its replay logic, as after a lost venue socket.
 *
 * @example
 * ```ts
 * import { redisMarketStreams, type RelayGap } from 'ex-streams/redis';
 *
 * const market = redisMarketStreams({ redis: 'redis://127.0.0.1:6379' });
 * market.relayGaps$.subscribe((gap: RelayGap) => console.warn(`shard ${gap.shard} ${gap.reason}: ${gap.symbols.join(',')}`));
 * ```
 */
export interface RelayGap {
  /** The shard whose stream showed it. */
  readonly shard: number;
  /** Why (see {@link RelayGapReason}). */
  readonly reason: RelayGapReason;
  /** The symbols this consumer followed in that shard (for `venue-trade-gap`: the pair concerned). */
  readonly symbols: readonly string[];
  /** The id of the entry where it was seen. */
  readonly entryId: string;
  /** Entries (`sequence`) or frames (`gateway-dropped`) missing, when known. */
  readonly missing?: number | undefined;
  /** The gateway's receive times bounding what is missing (ms), when known. */
  readonly fromMs?: number | undefined;
  /** See `fromMs`. */
  readonly toMs?: number | undefined;
}
