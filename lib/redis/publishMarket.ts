import { asyncScheduler, BehaviorSubject, combineLatest, filter, firstValueFrom, map, type Observable, race, type SchedulerLike, Subject, Subscription, timer } from 'rxjs';
import { ConfigError } from '../errors';
import type { KlineInterval } from '../market/klineInterval';
import { type ForwardingMarketStreams, forwardingMarketStreams, type MarketStreamsConfig } from '../market/marketStreams';
import { nodeWebSocket } from '../node/nodeWebSocket';
import type { RestCalls } from '../rest/callTypes';
import type { ConnectionStatus } from '../socket/connectionStatus';
import type { WebSocketCtor } from '../socket/webSocketLike';
import { EntryWriter } from './internal/entryWriter';
import { tapWebSocketCtor } from '../node/internal/tapWebSocketCtor';
import { frameRoute } from './internal/frameRoute';
import { envelopeHead } from '../market/internal/envelopeHead';
import { dialectOf } from '../market/internal/marketConfig';
import { checkTarget, openRedis, type RedisClient } from './internal/openRedis';
import { shardOf, streamKey } from './marketKeys';
import { ErrorEpisodes } from './internal/errorEpisodes';
import { NOT_CONNECTED_REASON, RedisRelayError, relayError, targetSecrets } from './redisRelayError';
import type { RedisTarget } from './redisTarget';

/**
 * A topic the gateway publishes: `trade`, `depth`, `realtimes`, `kline_<interval>`, or `bbo` (the V2 stream's best
 * bid and offer: a gateway of the V2 stream only).
 *
 * @example
 * ```ts
 * import type { RelayTopic } from 'ex-streams/redis';
 *
 * const topics: RelayTopic[] = ['trade', 'depth', 'kline_1m'];
 * ```
 */
export type RelayTopic = 'trade' | 'depth' | 'realtimes' | 'bbo' | `kline_${KlineInterval}`;

/**
 * Configuration of {@link publishMarket}. `redis`, `url`, `symbols` and `topics` are required.
 *
 * @example
 * ```ts
 * import type { PublishMarketConfig } from 'ex-streams/redis';
 *
 * const config: PublishMarketConfig = {
 *   redis: 'redis://gateway:s3cret@127.0.0.1:6379',
 *   url: 'wss://stream.example.com/quote/ws/v1',
 *   symbols: ['BTCUSDT', 'ETHUSDT'],
 *   topics: ['trade', 'depth', 'realtimes', 'kline_1m'],
 *   maxLen: 200_000,
 * };
 * ```
 */
export interface PublishMarketConfig {
  /** The Redis to write to (see {@link RedisTarget}). */
  readonly redis: RedisTarget;
  /** The venue's public stream address (as `marketStreams`' `url`). */
  readonly url: string;
  /** The symbols to publish, or `'all'`: every symbol of `rest.exchangeInfo()` (read once, at start). */
  readonly symbols: readonly string[] | 'all';
  /** The topics to publish for each symbol. */
  readonly topics: readonly RelayTopic[];
  /** For `symbols: 'all'`: anything with the REST client's `exchangeInfo` call. */
  readonly rest?: Pick<RestCalls, 'exchangeInfo'> | undefined;
  /** Key prefix: streams are `${prefix}{${shard}}`. Default `'xs:md:'`. */
  readonly prefix?: string | undefined;
  /** Streams the symbols are spread over (a stable hash of the symbol). Consumers must use the same. Default 4. */
  readonly shards?: number | undefined;
  /** Retention per shard stream, entries (`XADD ... MAXLEN ~ maxLen`; see docs/scaling.md for sizing). Default 100 000. */
  readonly maxLen?: number | undefined;
  /** Entries held in memory while Redis cannot be written; later frames are dropped, counted and written as a gap. Default 5 000. */
  readonly maxQueued?: number | undefined;
  /**
   * Longest wait for Redis's answer to a write, ms: past it the link is taken for dead (a dead NAT entry answers
   * nothing and closes nothing) and the connection made again; the entries are written again, none twice. Default 5 000.
   */
  readonly answerTimeoutMs?: number | undefined;
  /**
   * Also `PUBLISH` each entry on a channel named as its stream, for consumers that read by push (`read: 'push'`, their
   * default): a single Redis only (ignored on a cluster). Its ACL user then needs `+publish` and the channels
   * (`&${prefix}*`). Default `true`.
   */
  readonly push?: boolean | undefined;
  /** Further `marketStreams` options of the venue connection (pacing, reconnects, heartbeats). Default `{}`. */
  readonly market?: Omit<MarketStreamsConfig, 'url' | 'WebSocketCtor' | 'scheduler' | 'binary'> | undefined;
  /** The venue websocket constructor, wrapped by the gateway's tap. Default: `ws` (`nodeWebSocket`). */
  readonly WebSocketCtor?: WebSocketCtor | undefined;
  /** Clock (receive times, ids) and timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
}

/**
 * What a gateway shows on `status$`: its venue connection, its Redis connection, and counters since it started.
 *
 * @example
 * ```ts
 * import type { PublishMarketStatus } from 'ex-streams/redis';
 *
 * const line = (s: PublishMarketStatus): string => `${s.venue.type} ${s.redis} written ${s.written} dropped ${s.dropped}`;
 * ```
 */
export interface PublishMarketStatus {
  /** The venue connection's status (as `marketStreams`' `status$.connection`). */
  readonly venue: ConnectionStatus;
  /** The Redis connection: `connecting` (first connect), `ready`, or `down` (reconnecting). */
  readonly redis: 'connecting' | 'ready' | 'down';
  /** Entries written to Redis (data and control). */
  readonly written: number;
  /** Frames dropped because the queue was full while Redis could not be written. */
  readonly dropped: number;
  /** Entries waiting to be written. */
  readonly queued: number;
  /** Symbols published. */
  readonly symbols: number;
}

/**
 * A running gateway; see {@link publishMarket}.
 *
 * @example
 * ```ts
 * import { publishMarket, type MarketGateway } from 'ex-streams/redis';
 *
 * const gateway: MarketGateway = publishMarket({
 *   redis: 'redis://127.0.0.1:6379', url: 'ws://127.0.0.1:8080/quote/ws/v1', symbols: ['BTCUSDT'], topics: ['depth'],
 * });
 * gateway.status$.subscribe((s) => console.log(s.venue.type, s.redis, s.written)); // open ready 42
 * await gateway.stop();
 * ```
 */
export interface MarketGateway {
  /** The gateway's state (replays the current one). Never errors, never completes before `stop()`. */
  readonly status$: Observable<PublishMarketStatus>;
  /** Non-fatal errors: Redis failures (redacted), the venue connection's errors, topics the venue refused. Hot. */
  readonly errors$: Observable<Error>;
  /** Cancels the topics, closes the venue connection, writes what is queued (at most `timeoutMs`, default 2000) and closes Redis. */
  stop(timeoutMs?: number): Promise<void>;
}

/** Longest wait for the first Redis connect before the gateway starts anyway (its entries wait in the queue), ms. */
const START_WAIT_MS = 2000;

/** Whether `topic` is one the gateway can publish. */
const KNOWN_TOPIC = /^(trade|depth|realtimes|bbo|kline_\w+)$/;

/**
 * The gateway of the Redis relay: one venue connection (`marketStreams`) whose every data frame of the configured
 * topics is written, verbatim, to Redis Streams, for any number of {@link redisMarketStreams} consumers on other
 * processes or machines (docs/scaling.md).
 *
 * - A tap on the `WebSocketCtor` seam sees each text frame before the connection handles it: its symbol and topic are
 *   read (the envelope's keys, not its records), and the frame's text is written as it came (exact decimal text,
 *   64-bit ids). The gateway holds the topics with `marketStreams`' own subscription machinery (reconnects,
 *   resubscription, pacing, quarantine) without decoding their records: that is each consumer's `marketStreams`'
 *   job, as it would be a direct subscriber's. Pongs and error frames are not published.
 * - Keys: symbols spread over `shards` streams `${prefix}{${shard}}` (FNV-1a of the symbol modulo `shards`), each
 *   entry `s` symbol, `c` topic, `n` per-shard sequence, `r` receive time, `f` frame; retention `MAXLEN ~ maxLen`;
 *   the id of each topic's newest entry in `${prefix}{${shard}}:last` (late joiners start from it). With `push`
 *   (default; a single Redis), each entry is also published on a channel named as its stream, for consumers to get it
 *   without a read of their own (the stream stays what they resume and catch up from).
 * - In band, on every shard: `k=start` when the gateway starts (its sequence restarts), `k=epoch` when its venue
 *   socket opens or closes, `k=gap` for frames it had to drop. A venue trade gap is judged by each consumer's
 *   `trades()` from the venue's replay, which reaches it through the relay as it reached the gateway.
 * - Writes of one event-loop turn leave in one batch of commands per shard. While Redis is down, up to `maxQueued` entries
 *   wait; later frames are dropped and counted, and a `gap` entry is written when Redis is back. The gateway never
 *   stops on a Redis failure: the client reconnects, failures go to `errors$` as `RedisRelayError`s with a plain
 *   reason (redacted), once per episode.
 * - An id in a stream above the gateway's (another client's entry, a clock stepped back): Redis refuses the gateway's
 *   next ids; it reads the stream's newest id, says so on `errors$`, and writes those entries and the later ones above it.
 *
 * Throws a `ConfigError` at once for a bad `redis` URL, no topics, an unknown topic, a non-positive `shards`,
 * `maxLen` or `maxQueued`, `symbols: 'all'` without `rest`, or `bbo` on the V1 stream. The V2 stream (`/quote/ws/v2`, or
 * `market.dialect: 'v2'`) is relayed as it is sent: its consumers read it with `market: { dialect: 'v2' }`.
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import { publishMarket } from 'ex-streams/redis';
 *
 * const gateway = publishMarket({
 *   redis: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
 *   url: 'wss://stream.example.com/quote/ws/v1',
 *   rest: restClient({ baseUrl: 'https://api.example.com', apiKey: '', secretKey: '' }),
 *   symbols: 'all',
 *   topics: ['trade', 'depth', 'realtimes', 'kline_1m'],
 * });
 * gateway.errors$.subscribe((e) => console.warn(e.message));
 * process.on('SIGTERM', () => void gateway.stop());
 * ```
 */
export function publishMarket(config: PublishMarketConfig): MarketGateway {
  const settings = gatewaySettings(config);
  const { target, prefix, shards, maxLen, maxQueued, push, answerTimeoutMs, scheduler } = settings;
  const secrets = targetSecrets(target);
  const errors = new Subject<Error>();
  // Once per episode (a Redis restart is one error, not one per reconnect attempt): see `ErrorEpisodes`.
  const episodes = new ErrorEpisodes((e) => errors.next(e));
  const report = (operation: string, error: unknown): void => episodes.report(relayError(operation, error, secrets));
  const client = openRedis(target, 'ex-streams-gateway');
  const counters = new BehaviorSubject({ written: 0, dropped: 0, queued: 0, symbols: 0 });
  const state = { stopped: false, symbols: 0 };
  const writer: EntryWriter = new EntryWriter({
    client,
    prefix,
    shards,
    maxLen,
    maxQueued,
    scheduler,
    push,
    answerTimeoutMs,
    onError: report,
    onChange: () => counters.next({ written: writer.written, dropped: writer.dropped, queued: writer.queued, symbols: state.symbols }),
    onRecovered: () => episodes.recovered(),
  });
  const redisState = followRedis(client, writer, episodes, report);
  const venue = tapVenue(settings.WebSocketCtor, writer, shards, scheduler);
  // The topics are held (subscribed, resubscribed, paced, quarantined as by `marketStreams`) without reading their
  // records: the frames are the consumers' to decode. A venue trade gap is judged by each consumer's `trades()`, from
  // the venue's replay that reaches it as it reached the gateway.
  const market = forwardingMarketStreams({ ...settings.marketOptions, url: settings.url, WebSocketCtor: venue.WebSocketCtor, scheduler, binary: false }, venue.envelopeOf);
  const subscriptions = new Subscription();
  subscriptions.add(market.errors$.subscribe(errors));
  const gateway: Gateway = { settings, client, writer, market, redisState, counters, errors, subscriptions, report, venueClosed: venue.closed, state };
  void startGateway(gateway);
  return {
    status$: combineLatest([market.status$, redisState, counters]).pipe(
      map(([status, redis, c]) => ({ venue: status.connection, redis, ...c })),
    ),
    errors$: errors.asObservable(),
    stop: (timeoutMs = 2000) => stopGateway(gateway, timeoutMs),
  };
}

/** {@link PublishMarketConfig} with its defaults applied, checked (a `ConfigError` at once for a value that cannot work). */
function gatewaySettings(config: PublishMarketConfig) {
  const {
    redis: target,
    url,
    symbols: wanted,
    topics,
    rest,
    prefix = 'xs:md:',
    shards = 4,
    maxLen = 100_000,
    maxQueued = 5_000,
    push = true,
    answerTimeoutMs = 5_000,
    market: marketOptions = {},
    WebSocketCtor = nodeWebSocket,
    scheduler = asyncScheduler,
  } = config;
  checkTarget(target);
  if (topics.length === 0) throw new ConfigError('topics', 'must name at least one topic');
  for (const topic of topics) if (!KNOWN_TOPIC.test(topic)) throw new ConfigError('topics', `has an unknown topic: ${topic.slice(0, 40)}`);
  for (const [name, value] of [['shards', shards], ['maxLen', maxLen], ['maxQueued', maxQueued], ['answerTimeoutMs', answerTimeoutMs]] as const) {
    if (!(Number.isInteger(value) && value > 0)) throw new ConfigError(name, 'must be a positive integer');
  }
  // The relay carries the frames of the stream it reads, V1's or V2's (their consumers say `market: { dialect: 'v2' }`).
  if (dialectOf(marketOptions.dialect, url) !== 'v2' && topics.includes('bbo')) throw new ConfigError('topics', 'has bbo, a topic of the V2 stream (/quote/ws/v2) only');
  if (wanted === 'all' && rest === undefined) throw new ConfigError('rest', "is needed for symbols: 'all' (exchangeInfo lists them)");
  return { target, url, wanted, topics, rest, prefix, shards, maxLen, maxQueued, push, answerTimeoutMs, marketOptions, WebSocketCtor, scheduler };
}

/** A running gateway's parts, which its start and its stop share. */
interface Gateway {
  readonly settings: ReturnType<typeof gatewaySettings>;
  readonly client: RedisClient;
  readonly writer: EntryWriter;
  readonly market: ForwardingMarketStreams;
  readonly redisState: BehaviorSubject<PublishMarketStatus['redis']>;
  readonly counters: BehaviorSubject<Omit<PublishMarketStatus, 'venue' | 'redis'>>;
  readonly errors: Subject<Error>;
  /** The topics held, and the venue connection's errors forwarded. */
  readonly subscriptions: Subscription;
  /** A Redis failure, said on `errors$` once per episode. */
  readonly report: (operation: string, error: unknown) => void;
  /** The venue socket is closed: its `epoch` entry, in band, once. */
  readonly venueClosed: () => void;
  /** `stop()` was called (no topic is subscribed from then on); the symbols whose topics are held. */
  readonly state: { stopped: boolean; symbols: number };
}

/** The Redis connection's state, from the client's events: the queue is written when it is ready again, a loss said once. */
function followRedis(client: RedisClient, writer: EntryWriter, episodes: ErrorEpisodes, report: (operation: string, error: unknown) => void): BehaviorSubject<PublishMarketStatus['redis']> {
  const redisState = new BehaviorSubject<PublishMarketStatus['redis']>('connecting');
  client.on('error', (e: unknown) => report('connection', e));
  client.on('ready', () => {
    episodes.recovered();
    redisState.next('ready');
    writer.kick();
  });
  client.on('reconnecting', () => redisState.next('down'));
  client.on('close', () => {
    if (redisState.value !== 'ready') return;
    redisState.next('down');
    // Said once: the reconnect attempts' own failures (refused, reset) are this episode's, not new ones.
    episodes.report(new RedisRelayError('connection', 'lost; reconnecting (entries wait in the queue meanwhile)'), NOT_CONNECTED_REASON);
  });
  return redisState;
}

/**
 * The venue socket, tapped as the recorder taps it: each text frame is published before the gateway's own connection
 * handles it; its open and close are the in-band epochs. `envelopeOf` hands the connection the envelope the tap read.
 */
function tapVenue(WebSocketCtor: WebSocketCtor, writer: EntryWriter, shards: number, scheduler: SchedulerLike) {
  let epoch = 0;
  let venueOpen = false;
  const closed = (): void => {
    if (!venueOpen) return;
    venueOpen = false;
    writer.control((seq) => ({ kind: 'epoch', seq, receivedAt: 0, epoch, open: false }), scheduler.now());
  };
  const Tapped = tapWebSocketCtor(WebSocketCtor, {
    created: () => undefined,
    frame: (data) => {
      if (typeof data !== 'string') return;
      const text = data;
      const head = envelopeHead(text);
      // The connection reads the same frame next (the tap hands it on after this call): it takes this envelope.
      routed = head === undefined ? undefined : { text, head };
      const route = frameRoute(text, head);
      if (route !== undefined) writer.message(shardOf(route.symbol, shards), route.symbol, route.topic, text, scheduler.now());
    },
    opened: () => {
      const e = ++epoch;
      venueOpen = true;
      writer.control((seq) => ({ kind: 'epoch', seq, receivedAt: 0, epoch: e, open: true }), scheduler.now());
    },
    closed: () => closed(),
  });
  // The envelope the tap read to route a frame, for the connection's own read of that frame (one parse a frame; the
  // route is taken before the connection's check writes into it).
  let routed: { readonly text: string; readonly head: Record<string, unknown> } | undefined;
  const envelopeOf = (text: string): Record<string, unknown> | undefined => {
    const last = routed;
    routed = undefined;
    return last !== undefined && last.text === text ? last.head : envelopeHead(text);
  };
  return { WebSocketCtor: Tapped, envelopeOf, closed };
}

/** Holds `symbols`' topics (their frames are the tap's). */
function subscribeTopics(g: Gateway, symbols: readonly string[]): void {
  g.state.symbols = symbols.length;
  const ignore = { next: () => undefined, error: (e: unknown) => g.errors.next(e instanceof Error ? e : new Error(String(e))) };
  for (const symbol of symbols) {
    for (const topic of g.settings.topics) {
      g.subscriptions.add(g.market.hold(symbol, topic).subscribe(ignore));
    }
  }
}

/** Reads each shard's newest id (so ids only grow across restarts), writes `start`, then subscribes the topics. */
async function startGateway(g: Gateway): Promise<void> {
  const { client, writer, settings } = g;
  const { shards, prefix, scheduler, wanted, rest } = settings;
  // The first connect (or 2 s): the newest ids are read before the first entry is written.
  await firstValueFrom(race(g.redisState.pipe(filter((s) => s !== 'connecting')), timer(START_WAIT_MS, scheduler)), { defaultValue: 0 });
  try {
    const tops = await Promise.all(Array.from({ length: shards }, (_, shard) => client.xrevrange(streamKey(prefix, shard), '+', '-', 'COUNT', 1)));
    tops.forEach((top, shard) => {
      const id = top[0]?.[0];
      if (id !== undefined) writer.raiseFloor(shard, id);
    });
  } catch (e) {
    g.report('xrevrange', e);
  }
  writer.control((seq) => ({ kind: 'start', seq, receivedAt: 0 }), scheduler.now(), true);
  if (g.state.stopped) return;
  if (wanted !== 'all') return subscribeTopics(g, wanted);
  try {
    const info = await firstValueFrom(rest!.exchangeInfo());
    if (!g.state.stopped) subscribeTopics(g, info.symbols.map((s) => s.symbol));
  } catch (e) {
    g.errors.next(e instanceof Error ? e : new Error(String(e)));
  }
}

/** `MarketGateway.stop`: the topics cancelled, the venue socket closed, the queue written (within `timeoutMs` in all), Redis closed. */
async function stopGateway(g: Gateway, timeoutMs: number): Promise<void> {
  const { client, writer, market, counters, settings } = g;
  if (g.state.stopped) return;
  g.state.stopped = true;
  g.subscriptions.unsubscribe();
  g.venueClosed(); // in band now: the socket's own close event may come after Redis is closed
  // The venue socket's close (its `epoch` entry), then the queue written, within `timeoutMs` in all.
  const deadline = timer(timeoutMs, settings.scheduler);
  await firstValueFrom(race(market.status$.pipe(filter((s) => s.connection.type === 'closed')), deadline), { defaultValue: 0 });
  await firstValueFrom(race(counters.pipe(filter(() => writer.queued === 0 || client.status !== 'ready')), deadline), { defaultValue: 0 });
  writer.stop();
  g.redisState.complete();
  counters.complete();
  g.errors.complete();
  try {
    if (client.status === 'ready') await client.quit();
    else client.disconnect();
  } catch {
    client.disconnect();
  }
}
