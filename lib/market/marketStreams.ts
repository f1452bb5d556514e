// Data path, market side (notes/architecture.md, "The data path"): step 7, the public streams built on the topics (step 6).
import {
  throwError,
  merge,
  Observable,
  Subject,
} from 'rxjs';
import { type DepthRecord, DepthRecordCodec } from '../codecs/depth';
import { type BboRecord, BboRecordCodec } from '../codecs/bbo';
import { type KlineRecord, KlineRecordCodec } from '../codecs/kline';
import { type RealtimesRecord, RealtimesRecordCodec } from '../codecs/realtimes';
import { type TradeRecord, TradeRecordCodec } from '../codecs/trade';
import { ConfigError } from '../errors';
import { distinctTrades, type TradeGap } from '../operators/distinctTrades';
import type { ServerClock } from '../socket/serverClock';
import { streamStatus } from '../socket/streamStatus';
import { lightShare } from '../internal/lightShare';
import type { MarketFrameReader } from './internal/marketFrameReader';
import { ForwardedRecordCodec, forwardingFrameReader } from './internal/forwardingFrameReader';
import { marketConfig, mergedParams } from './internal/marketConfig';
import { klineHistoryOf, tradeBackfillOf } from './internal/marketHistory';
import { marketContext } from './internal/marketContext';
import { incrementalBookStream } from './internal/incrementalBookStream';
import { MarketTopics, type NamedDecoder, records } from './internal/marketTopics';
import type { CustomKlineInterval, KlineInterval } from './klineInterval';
import type { KlineGap } from './klineGap';
import type { DepthOptions, MarketMessage, MergedDepthOptions, TopicOptions } from './marketMessage';
import type { BookGap } from '../operators/incrementalBook';
import type { OrderBook } from '../operators/orderBook';
import type { SubscriptionExtraParams } from '../codecs/requests';
import type { MarketStatus } from './marketStatus';

import type { MarketStreamsConfig } from './marketStreamsConfig';

export type { MarketStreamsConfig };

/**
 * The public market streams of one connection; see {@link marketStreams}.
 *
 * @example
 * ```ts
 * import { marketStreams, type MarketStreams } from 'ex-streams';
 *
 * const market: MarketStreams = marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' });
 * market.klines('BTCUSDT', '1m').subscribe((candle) => console.log(candle.t, candle.c));
 * market.status$.subscribe((s) => console.log(s.connection.type, s.topics)); // 'open' 1
 * ```
 */
export interface MarketStreams {
  /**
   * Candles of `kline_<interval>`: the open candle repeats as it updates (pipe `closedCandles()` for closed ones).
   * `interval` is one of the service's (`KlineInterval`), or `customKlineInterval('…')` for one this list lacks.
   *
   * `options.history` (a positive integer, default none): emit the last `history` closed candles first, oldest
   * first, from `GET /quote/v1/klines` (pages of 1000), then the live ones. The history is the candles that opened
   * before the first live candle, so no open time comes twice (the live one wins) and none is skipped at the seam;
   * live candles that come meanwhile are held, then follow in order. Needs `klineHistory` in the config (else the
   * observable errors with a `ConfigError`, option `history`). Observers subscribing at once with the same
   * `history` (or less) share one fetch.
   *
   * With `klineHistory` in the config (with or without `history`), a break is filled: when a new epoch of the
   * topic starts (a reconnect, a topic subscribed again) with a candle that opened after the last one emitted, the
   * candles opening from that last one to the new first one are fetched and emitted first, oldest first: the last
   * one again, in its final (closed) version, when that differs from the one emitted (it may have been open then),
   * then the candles missed, then the new ones (held meanwhile). `closedCandles()` downstream thus emits every
   * candle once, in its final version. Without a break nothing is fetched and the output is the stream's.
   *
   * A fetch that fails (a rate limit, `timeoutMs`, a refusal) is reported on `errors$` and signalled on
   * `klineGaps$` (a `KlineGap` with the range that may be missing), and the live candles flow on.
   *
   * @example
   * ```ts
   * import { marketStreams, restClient } from 'ex-streams';
   * import { closedCandles } from 'ex-streams/history';
   *
   * const rest = restClient({ baseUrl: 'https://api.example.com' });
   * const market = marketStreams({ url: 'wss://stream.example.com/quote/ws/v1', klineHistory: { rest } });
   * // 200 closed candles, then every minute once, across reconnects
   * market.klines('BTCUSDT', '1m', { history: 200 }).pipe(closedCandles()).subscribe((c) => console.log(c.t, c.c));
   * market.klineGaps$.subscribe((g) => console.warn(`${g.missing} candles in [${g.from}, ${g.to}) missing`, g.error));
   * ```
   */
  klines(
    symbol: string,
    interval: KlineInterval | CustomKlineInterval,
    options?: TopicOptions & { readonly history?: number | undefined },
  ): Observable<KlineRecord>;
  /** 24-hour ticker records. */
  realtimes(symbol: string, options?: TopicOptions): Observable<RealtimesRecord>;
  /**
   * Public trades, each id once and in id order across reconnects (see `distinctTrades`); gaps go to `gaps$`, or,
   * with `tradeBackfill`, are filled over HTTP when they can be.
   */
  trades(symbol: string, options?: TopicOptions): Observable<TradeRecord>;
  /**
   * Order book snapshots, up to 200 levels a side (`options.limit`: fewer), every 300 ms (pipe `orderBook()` for a
   * checked view).
   */
  depth(symbol: string, options?: DepthOptions): Observable<DepthRecord>;
  /**
   * Order book snapshots with levels merged to `options.dumpScale` decimals (topic `mergedDepth`; bids rounded down,
   * asks up, quantities summed), as `depth` delivers them (pipe `orderBook()`).
   */
  mergedDepth(symbol: string, options: MergedDepthOptions): Observable<DepthRecord>;
  /**
   * The incremental merged book as sent (topic `diffMergedDepth`): a snapshot (`o` `'0'`), then only the levels that
   * changed (a quantity of zero deletes one), `o` one more each time. Pipe `incrementalBook()` to keep the book, or
   * use {@link MarketStreams.incrementalBook}, which also subscribes again when the sequence breaks.
   */
  diffMergedDepth(symbol: string, options: Omit<MergedDepthOptions, 'limit'>): Observable<DepthRecord>;
  /**
   * The book kept from `diffMergedDepth` (see `incrementalBook()`), with the output of `orderBook()`: after each
   * record, the whole book. A skipped or repeated `o` (or a delta before any snapshot) is a `BookGap` on `bookGaps$`;
   * no book is emitted until the fresh snapshot the topic is subscribed again for (`cancel`, then `sub`). Observers
   * share one book, and one joining gets the current book at once. `options.levels`: the best levels a side in each
   * book (default all).
   */
  incrementalBook(symbol: string, options: Omit<MergedDepthOptions, 'limit'> & { readonly levels?: number | undefined }): Observable<OrderBook>;
  /** Kline messages with their envelope facts (`first`, `sendTime`, `epoch`). */
  klineMessages(symbol: string, interval: KlineInterval | CustomKlineInterval, options?: TopicOptions): Observable<MarketMessage<KlineRecord>>;
  /** Realtimes messages with their envelope facts. */
  realtimesMessages(symbol: string, options?: TopicOptions): Observable<MarketMessage<RealtimesRecord>>;
  /** Trade messages as sent: the first of each (re)subscription repeats the last 60 trades (no de-duplication). */
  tradeMessages(symbol: string, options?: TopicOptions): Observable<MarketMessage<TradeRecord>>;
  /** Depth messages with their envelope facts. */
  depthMessages(symbol: string, options?: DepthOptions): Observable<MarketMessage<DepthRecord>>;
  /**
   * Best bid and offer (V2 topic `bbo`: `{ s, t, b, bz, a, az }`). On a V1 stream it errors with a `ConfigError`
   * (option `dialect`): V1 has no such topic.
   */
  bbo(symbol: string): Observable<BboRecord>;
  /**
   * Connection status, counters and the age of the data in hand (replays the current one at once). Emits only
   * when something shown changes: every connection transition (type, epoch) at once; counter changes
   * coalesced, one emission per burst (a dozen topics subscribed in a row move `topics` once, at the end of the
   * burst) and none when the counters end where they were; `dataAgeMs` at most once a second, by a step (see
   * `MarketStatus`). A 12-topic startup emits 4 times before the first data: closed, connecting, 12 topics,
   * open. Does not open the socket; never errors, never completes.
   */
  readonly status$: Observable<MarketStatus>;
  /**
   * Non-fatal errors: `DecodeError`s (frames, envelopes, records, anything thrown while handling a frame), the
   * cause of each lost socket (every one is retried) and the subscriptions the service refused for now
   * (`SubscriptionRetriedError`: a rate limit, a busy service, an unknown code; sent again after a backoff).
   * Never errors, never completes.
   */
  readonly errors$: Observable<Error>;
  /**
   * Trade gaps: a resubscription's first message did not reach back to the last trade seen, or a replay showed
   * trades that were never delivered (lost on a socket that stayed open) and can no longer be emitted in order. Hot.
   */
  readonly gaps$: Observable<TradeGap>;
  /**
   * Candles `klines` could not deliver: a history (`klines(…, { history })`) or the candles a break hid that could
   * not be fetched, each once however many observers share the fetch (see {@link KlineGap}); counted in
   * `status$.klineGaps`. Hot.
   */
  readonly klineGaps$: Observable<KlineGap>;
  /**
   * Breaks of the incremental books (`incrementalBook()`): a skipped or repeated sequence number, or a delta before
   * any snapshot; each is followed by a fresh subscription and its snapshot. Hot.
   */
  readonly bookGaps$: Observable<BookGap>;
  /** Estimate of `serverTime - localTime` from the heartbeats. */
  readonly serverClock: ServerClock;
}



/**
 * Typed, reference-counted public market streams over one websocket.
 *
 * - Cold: the socket opens with the first subscriber of any topic and closes after the last one leaves.
 * - Each `(symbol, topic)` is one server subscription however many observers share it: `sub` on the first
 *   subscriber, `cancel` after the last leaves. The service keeps one subscription per symbol and topic, so
 *   `binary` is a transport choice made by the observer that starts the subscription (zip frames are decoded
 *   transparently; the records are the same).
 * - Requests are batched: topics of the same request topic waiting together leave in one frame, symbols
 *   comma-joined (`maxSymbolsPerFrame`, 20), cancels likewise; every frame has its own numeric `id`. Frames are
 *   paced (`subscribeBurst` at once, then `resubscribeRatePerSecond`); a topic left before its frame went out
 *   sends nothing and gives its slot back.
 * - After a reconnect every live topic is subscribed again (batched, paced); topics whose observers left
 *   meanwhile are not.
 * - Symbols are checked before anything is sent (`symbolPattern`, `symbols`): a bad one errors its observable
 *   with a `ConfigError`.
 * - Messages are routed by echoed `id` (of a frame naming one topic), else by `(symbol, topic, klineType)`; the
 *   envelope is decoded once, records with the topic's codec. A record or frame that fails goes to `errors$`;
 *   the stream goes on.
 * - The service's error frames are read with its table of codes (docs/market-streams.md): a rejection of the
 *   request (unknown symbol or topic, a bad parameter) errors that topic alone with a
 *   `SubscriptionRejectedError` (a refused batch, or the bare `{ code, desc }` naming nothing, is split until
 *   the culprit stands alone); a rate limit, a busy service or an unknown code is reported on `errors$`
 *   (`SubscriptionRetriedError`) and the topics are subscribed again after a backoff.
 * - A topic whose lone `sub` was followed by a lost socket (before any data) `quarantineAfterCloses` (3) times
 *   in a row errors with a `TopicQuarantinedError`; the other topics are subscribed without it.
 *
 * - A `sub` that brings no message within `subscribeTimeoutMs` (10 s) is sent again, then after `reconnect`'s
 *   jittered backoff (the service does not acknowledge it, and one lost on the way would leave the topic silent
 *   on a healthy socket).
 * - A topic that goes silent for its `staleAfterMs` (depth 30 s, realtimes 60 s, kline 2 intervals, trades
 *   never) is cancelled and subscribed again, counted in `status$.staleResubscribes`.
 * - The service's word never ends a stream: every lost socket (any close code, a network error, a dead peer)
 *   is reported on `errors$` and `status$` and retried with backoff until the last observer leaves. Only the
 *   user's own mistakes end an observable: a `ConfigError`, or a `SubscriptionRejectedError` (unknown symbol or
 *   topic) or `TopicQuarantinedError` on that topic alone.
 * - `status$.dataAgeMs` shows how old the data in hand was when it was delivered (a slow consumer sees it grow).
 * - With `rest`, the REST client's signing clock follows this stream's pongs while a topic is subscribed.
 *
 * Throws a `ConfigError` at once for a non-positive `resubscribeRatePerSecond`, `subscribeBurst`,
 * `maxSymbolsPerFrame`, `quarantineAfterCloses`, `subscribeTimeoutMs` or `staleAfterMs` value, a
 * `symbolPattern` that is not a `RegExp`, or `symbols` that are not an iterable.
 *
 * @example
 * ```ts
 * import { marketStreams, orderBook } from 'ex-streams';
 * const market = marketStreams({ url: 'wss://example.invalid/quote/ws/v1' });
 * market.trades('BTCUSDT').subscribe((t) => console.log(t.v, t.p, t.q, t.m));
 * market.depth('ETHUSDT', { binary: true }).pipe(orderBook()).subscribe((b) => console.log(b.spread));
 * market.gaps$.subscribe((g) => console.warn(`${g.symbol}: trades after ${g.lastSeenId} may be missing`));
 * ```
 */
export function marketStreams(config: MarketStreamsConfig): MarketStreams {
  return openMarketStreams(config, undefined).api;
}

/**
 * The topics of one venue connection held for a gateway that forwards the frames themselves (the Redis relay's
 * `publishMarket`, which taps the socket): what {@link marketStreams} does for a topic (its `sub` on every socket,
 * pacing, batching, resends, staleness, rejection, quarantine), without reading the records. @internal
 */
export interface ForwardingMarketStreams {
  /**
   * Holds `symbol`'s request `topic` (`trade`, `depth`, `realtimes`, `kline_<interval>`) while subscribed: its
   * messages with their envelope facts and no records (`data` is empty). Errors as `depthMessages` and the like do.
   */
  hold(symbol: string, topic: string): Observable<MarketMessage<unknown>>;
  readonly status$: MarketStreams['status$'];
  readonly errors$: MarketStreams['errors$'];
}

/**
 * A connection whose topics are only held (see {@link ForwardingMarketStreams}): a data frame's envelope is read
 * from its text without its records (`forwardingFrameReader`), so a book costs a few µs rather than its parse and
 * level checks. @internal
 */
export function forwardingMarketStreams(
  config: MarketStreamsConfig,
  envelopeOf?: (text: string) => Record<string, unknown> | undefined,
): ForwardingMarketStreams {
  const { api, hold } = openMarketStreams(config, forwardingFrameReader(envelopeOf));
  return { hold, status$: api.status$, errors$: api.errors$ };
}

/** The streams of `config`; `forwarding`: the frame reader of a forwarding connection (`forwardingFrameReader`, for `hold`). */
function openMarketStreams(
  config: MarketStreamsConfig,
  forwarding: MarketFrameReader | undefined,
): { readonly api: MarketStreams; hold(symbol: string, topic: string): Observable<MarketMessage<unknown>> } {
  const cfg = marketConfig(config);
  const { v2, tradeReplaySize, scheduler } = cfg;

  const errors = new Subject<Error>();
  const gaps = new Subject<TradeGap>();
  const klineGaps = new Subject<KlineGap>();
  const { conn, status, ctx } = marketContext(cfg, forwarding, errors);

  const topics = new MarketTopics(ctx, cfg);
  const bookGaps = new Subject<BookGap>();
  const messages = <R>(symbol: string, topic: string, codec: NamedDecoder<R>, options?: TopicOptions, params?: SubscriptionExtraParams) =>
    topics.messages(symbol, topic, codec, options, params);

  const onGap = (gap: TradeGap): void => {
    status.count((c) => ({ tradeGaps: c.tradeGaps + 1 }));
    gaps.next(gap);
  };

  const backfill = tradeBackfillOf(cfg, onGap, errors);
  const klineHistoryFor = klineHistoryOf(cfg, status, errors, klineGaps);

  const api: MarketStreams = {
    klineMessages: (symbol, interval, options) => messages(symbol, `kline_${interval}`, KlineRecordCodec, options),
    realtimesMessages: (symbol, options) => messages(symbol, 'realtimes', RealtimesRecordCodec, options),
    tradeMessages: (symbol, options) => messages(symbol, 'trade', TradeRecordCodec, options),
    bbo: (symbol) =>
      v2 ? records(messages(symbol, 'bbo', BboRecordCodec)) : throwError(() => new ConfigError('dialect', "bbo is a topic of the V2 stream (dialect 'v2', /quote/ws/v2)")),
    depthMessages: (symbol, options) => {
      const limit = options?.limit;
      if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 200)) return throwError(() => new ConfigError('limit', 'must be an integer from 1 to 200'));
      return messages(symbol, 'depth', DepthRecordCodec, options, limit === undefined ? undefined : { limit: String(limit) });
    },
    mergedDepth: (symbol, options) => {
      const params = mergedParams(options, true);
      return params instanceof ConfigError ? throwError(() => params) : records(messages(symbol, 'mergedDepth', DepthRecordCodec, options, params));
    },
    diffMergedDepth: (symbol, options) => {
      const params = mergedParams(options, false);
      return params instanceof ConfigError ? throwError(() => params) : records(messages(symbol, 'diffMergedDepth', DepthRecordCodec, options, params));
    },
    incrementalBook: (symbol, options) => incrementalBookStream(topics, status, bookGaps, symbol, options),
    klines: (symbol, interval, options) => {
      const history = options?.history;
      if (history !== undefined && !(Number.isInteger(history) && history > 0)) return throwError(() => new ConfigError('history', 'must be a positive integer'));
      if (klineHistoryFor === undefined) {
        if (history === undefined) return records(api.klineMessages(symbol, interval, options));
        return throwError(() => new ConfigError('history', 'needs `klineHistory: { rest }` in the marketStreams config (the candles come from GET /quote/v1/klines)'));
      }
      return api.klineMessages(symbol, interval, options).pipe(klineHistoryFor(symbol, interval, history ?? 0));
    },
    realtimes: (symbol, options) => records(api.realtimesMessages(symbol, options)),
    depth: (symbol, options) => records(api.depthMessages(symbol, options)),
    trades: (symbol, options) =>
      topics.checked(symbol, () =>
        topics.withBinary(
          `${symbol}|trade`,
          options,
          topics.memo(`${symbol}|trades`, () =>
            topics.sharedTopic(symbol, 'trade', TradeRecordCodec).pipe(
              backfill,
              distinctTrades<TradeRecord>({ onGap, replaySize: tradeReplaySize }),
              lightShare(),
            ),
          ),
        ),
      ),
    status$: streamStatus(conn.status$, status.counters, scheduler),
    errors$: merge(conn.errors$, errors),
    gaps$: gaps.asObservable(),
    klineGaps$: klineGaps.asObservable(),
    bookGaps$: bookGaps.asObservable(),
    serverClock: conn.serverClock,
  };
  return { api, hold: (symbol, topic) => messages(symbol, topic, ForwardedRecordCodec) };
}
