import { asyncScheduler, BehaviorSubject, combineLatest, map, merge, type Observable, type SchedulerLike, Subject } from 'rxjs';
import { ConfigError } from '../errors';
import { marketStreams, type MarketStreams, type MarketStreamsConfig } from '../market/marketStreams';
import type { TradeGap } from '../operators/distinctTrades';
import { relaySocketCtor } from './internal/relaySocket';
import { RelayReader } from './internal/relayReader';
import { ErrorEpisodes } from './internal/errorEpisodes';
import { checkTarget } from './internal/openRedis';
import { type RedisRelayError, relayError, targetSecrets } from './redisRelayError';
import type { RedisTarget } from './redisTarget';
import type { RelayGap } from './relayGap';

/**
 * Configuration of {@link redisMarketStreams}. Only `redis` is required; `prefix` and `shards` must be the gateway's.
 *
 * @example
 * ```ts
 * import type { RedisMarketStreamsConfig } from 'ex-streams/redis';
 *
 * const config: RedisMarketStreamsConfig = {
 *   redis: 'rediss://md-reader:s3cret@redis.internal:6380',
 *   resumeFrom: { 0: '1700000000000-0', 1: '1700000000000-3' },
 * };
 * ```
 */
export interface RedisMarketStreamsConfig {
  /** The Redis the gateway writes to (see {@link RedisTarget}). */
  readonly redis: RedisTarget;
  /** The gateway's key prefix. Default `'xs:md:'`. */
  readonly prefix?: string | undefined;
  /** The gateway's shard count. Default 4. */
  readonly shards?: number | undefined;
  /**
   * Where to start reading, per shard: after this entry id (the value of `cursors()` saved by a consumer that
   * stopped), so a restarted consumer gets what it missed while Redis still holds it (a `sequence` gap when it
   * does not). Used once, by the first read of each shard. Default: none (each shard starts at its newest entry;
   * every topic gets its latest entry at once).
   */
  readonly resumeFrom?: Readonly<Record<number, string>> | undefined;
  /**
   * How new entries come: `'push'`, as the gateway publishes them (a single Redis, a gateway with `push` on; the
   * streams are read to start, to catch up after a reconnect or a lost push, and every `checkMs`), or `'xread'`, by a
   * blocking `XREAD` of its own per batch of entries (always on a cluster). `'push'` costs a consumer less CPU and
   * latency. When no push comes while entries do, its push connection is made again first; if pushes still do not
   * come, or its ACL refuses `SUBSCRIBE`, it falls back to `'xread'` for good (said once on `errors$`). Default `'push'`.
   */
  readonly read?: 'push' | 'xread' | undefined;
  /** `read: 'push'`: how often the streams are read for entries no push brought, ms. Default 500. */
  readonly checkMs?: number | undefined;
  /** Longest `XREAD BLOCK`, ms. Default 1000. */
  readonly blockMs?: number | undefined;
  /** Most entries one `XREAD` returns. Default 1000. */
  readonly readCount?: number | undefined;
  /**
   * Further `marketStreams` options (the symbol checks, `tradeBackfill`, `klineHistory`, stale and subscribe
   * timeouts, the connection's heartbeats and reconnects). Defaults here: pings every 5 s (answered once Redis
   * answers a `PING`), dead after 15 s, reconnects from 50 ms to 2 s.
   */
  readonly market?: Omit<MarketStreamsConfig, 'url' | 'WebSocketCtor' | 'scheduler'> | undefined;
  /** Clock and timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
}

/**
 * What {@link redisMarketStreams} returns: the {@link MarketStreams} surface, plus the relay's own signals.
 *
 * @example
 * ```ts
 * import { redisMarketStreams, type RedisMarketStreams } from 'ex-streams/redis';
 *
 * const market: RedisMarketStreams = redisMarketStreams({ redis: 'redis://127.0.0.1:6379' });
 * market.relayGaps$.subscribe((g) => console.warn(g.reason, g.symbols));
 * ```
 */
export interface RedisMarketStreams extends MarketStreams {
  /** Stretches of the relay this consumer could not follow (see {@link RelayGap}). Hot; never errors. */
  readonly relayGaps$: Observable<RelayGap>;
  /** The id of the last entry read, per shard being read (save it to start a later consumer with `resumeFrom`). */
  cursors(): Readonly<Record<number, string>>;
}

/** `quarantineAfterCloses` of the relay's `marketStreams` (its closes are never a topic's doing). */
const NO_QUARANTINE = 1_000_000;

/**
 * Market streams read from the Redis relay a {@link publishMarket} gateway writes, with the surface of
 * `marketStreams`: `klines`, `trades`, `realtimes`, `depth`, the `*Messages` streams, `status$`, `errors$`,
 * `gaps$`. A strategy written against `marketStreams` runs unchanged (`depth('BTCUSDT').pipe(orderBook())`).
 *
 * It is `marketStreams` itself over a Redis-backed socket: `sub` and `cancel` frames add and drop topics of
 * interest, and the venue's frames (from the entries of those topics) reach the same router, codecs and operators
 * as from the venue.
 * - New entries come as the gateway publishes them (`read: 'push'`, a single Redis), the streams read to start and to
 *   catch up; else by one blocking `XREAD` over every shard with a topic of interest, on a connection of its own; on a
 *   Redis Cluster one per shard (a command's keys share one slot). A shard is read from its first topic on, and no
 *   more after its last.
 * - A topic's latest entry is delivered at once on `sub` (a book at once for a late joiner), then every new one.
 * - After a Redis failure the loops read on from their last entry id: nothing is lost while Redis holds it.
 * - A hole in a shard's sequence (entries trimmed before they were read, lost by Redis), a gateway restart, the
 *   gateway's venue socket closing, or frames the gateway dropped: a {@link RelayGap} on `relayGaps$`, and the
 *   socket closes (code 4010), so `marketStreams` starts a new epoch and subscribes again (books start over from a
 *   whole snapshot). Nothing is lost silently.
 * - A stream behind a shard's cursor (Redis restarted empty, a failover lost entries, a `resumeFrom` cursor ahead of
 *   it), found when the shard brings nothing for `blockMs` (XREAD) or `checkMs` (push): a `rewound` gap, and the shard
 *   reads on from the stream's newest entry. An entry that is not the relay's (another client's, a damaged one) is
 *   skipped inside an `unreadable` gap, without a reset.
 * - Trades: each data entry names the previous frame of its topic (`p`), so a consumer knows when frames of a
 *   followed trade topic went missing on the way (trimmed, lost by Redis, dropped by the gateway) and signals a
 *   `TradeGap` on `gaps$` (counted in `status$.tradeGaps`) from the newest trade it delivered to the oldest of the
 *   next frame, as `marketStreams` does at the venue; after the gateway's own venue reconnect the venue's replay
 *   reaches `trades()`, which judges it as from the venue. No gap is signalled when no frame of the topic was lost.
 * - Redis failures are reported on `errors$` as {@link RedisRelayError}s with a plain reason (redacted; the client
 *   library's own words for a missing connection are never passed on), once per episode (until a read works again),
 *   never as an error of a stream; `status$` shows the socket's epochs as for the venue.
 *
 * Throws a `ConfigError` at once for a bad `redis` URL, an unknown `read`, or a non-positive `shards`, `blockMs`,
 * `readCount` or `checkMs`.
 *
 * @example
 * ```ts
 * import { orderBook } from 'ex-streams';
 * import { redisMarketStreams } from 'ex-streams/redis';
 *
 * const market = redisMarketStreams({ redis: 'redis://127.0.0.1:6379' });
 * market.depth('BTCUSDT').pipe(orderBook()).subscribe((b) => console.log(b.bestBid?.[0], b.bestAsk?.[0]));
 * market.trades('BTCUSDT').subscribe((t) => console.log(t.v, t.p, t.q)); // '929681067596857345' '34924.15' '0.00027'
 * ```
 */
export function redisMarketStreams(config: RedisMarketStreamsConfig): RedisMarketStreams {
  const {
    redis: target,
    prefix = 'xs:md:',
    shards = 4,
    resumeFrom = {},
    read = 'push',
    checkMs = 500,
    blockMs = 1000,
    readCount = 1000,
    market: marketOptions = {},
    scheduler = asyncScheduler,
  } = config;
  checkTarget(target);
  if (read !== 'push' && read !== 'xread') throw new ConfigError('read', "must be 'push' or 'xread'");
  for (const [name, value] of [['shards', shards], ['blockMs', blockMs], ['readCount', readCount], ['checkMs', checkMs]] as const) {
    if (!(Number.isInteger(value) && value > 0)) throw new ConfigError(name, 'must be a positive integer');
  }
  const start = new Map<number, string>();
  for (const [shard, id] of Object.entries(resumeFrom)) {
    if (!/^\d+-\d+$/.test(id) || !(Number(shard) < shards)) throw new ConfigError('resumeFrom', 'must map shard numbers to entry ids (ms-seq)');
    start.set(Number(shard), id);
  }
  const secrets = targetSecrets(target);
  const errors = new Subject<Error>();
  const relayGaps = new Subject<RelayGap>();
  const tradeGaps = new Subject<TradeGap>();
  const relayTradeGaps = new BehaviorSubject(0);
  // Once per episode: every loop's retries while Redis is down are one error, not one per retry (`ErrorEpisodes`).
  const episodes = new ErrorEpisodes((e) => errors.next(e));
  const reader = new RelayReader({
    target,
    prefix,
    shards,
    blockMs,
    count: readCount,
    read,
    checkMs,
    scheduler,
    resumeFrom: start,
    onGap: (gap) => relayGaps.next(gap),
    onTradeGap: (gap) => {
      relayTradeGaps.next(relayTradeGaps.value + 1);
      tradeGaps.next(gap);
    },
    onError: (operation, error) => episodes.report(relayError(operation, error, secrets)),
    onRecovered: () => episodes.recovered(),
  });
  const WebSocketCtor = relaySocketCtor(reader, scheduler, (e) => relayError('connect', e, secrets).message);
  const { connection = {} } = marketOptions;
  const market = marketStreams({
    // A relay socket closes for a gap or a Redis failure, never because of a topic: no quarantine by default.
    quarantineAfterCloses: NO_QUARANTINE,
    ...marketOptions,
    url: `redis-relay:${prefix}`,
    WebSocketCtor,
    scheduler,
    connection: {
      pingIntervalMs: 5_000,
      heartbeatTimeoutMs: 15_000,
      ...connection,
      reconnect: connection.reconnect === false ? false : { minDelayMs: 50, maxDelayMs: 2_000, ...connection.reconnect },
    },
  });
  return {
    ...market,
    errors$: merge(market.errors$, errors),
    // Trades lost on the relay's side (frames of a trade topic missing in Redis) are signalled and counted as
    // `marketStreams` signals those lost at the venue: on `gaps$`, in `status$.tradeGaps`.
    gaps$: merge(market.gaps$, tradeGaps),
    status$: combineLatest([market.status$, relayTradeGaps]).pipe(map(([s, n]) => (n === 0 ? s : { ...s, tradeGaps: s.tradeGaps + n }))),
    relayGaps$: relayGaps.asObservable(),
    cursors: () => Object.fromEntries(reader.snapshot()),
  };
}
