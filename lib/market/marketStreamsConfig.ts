import type { SchedulerLike } from 'rxjs';
import type { RestCalls } from '../rest/callTypes';
import type { RestClient } from '../rest/types';
import type { ConnectionConfig } from '../socket/connection';
import type { WebSocketCtor } from '../socket/webSocketLike';
import type { VenuePreset } from '../venue/venuePreset';

/**
 * Configuration of {@link marketStreams}. Only `url` (or a `venue`) is required.
 *
 * @example
 * ```ts
 * import { marketStreams, type MarketStreamsConfig } from 'ex-streams';
 *
 * const config: MarketStreamsConfig = {
 *   url: 'wss://stream.example.com/quote/ws/v1',
 *   binary: true, // zip frames
 *   resubscribeRatePerSecond: 20,
 *   symbols: ['BTCUSDT', 'ETHUSDT'], // exchangeInfo's symbols: any other is refused before a frame leaves
 *   connection: { heartbeatTimeoutMs: 45_000, reconnect: { maxDelayMs: 10_000 } },
 * };
 * const market = marketStreams(config);
 * ```
 */
export interface MarketStreamsConfig {
  /**
   * Public stream address (path ends in `/quote/ws/v1`), or a function evaluated at every connect. Default: the
   * `venue`'s `publicStreamUrl`; one of the two is required (else a `ConfigError` on `url`).
   */
  readonly url?: string | (() => string) | undefined;
  /** A venue preset (e.g. `hashkey.global.production`) whose `publicStreamUrl` is the default `url`. Default none. */
  readonly venue?: VenuePreset | undefined;
  /**
   * The dialect of the public stream: `'v1'` (`/quote/ws/v1`, the specification's: comma-joined symbols, request ids,
   * zip frames on request, no acknowledgement) or `'v2'` (HashKey's `/quote/ws/v2`: one symbol a frame, every request
   * acknowledged, JSON only, `depth` every 100 ms, the `bbo` topic). Default: `'v2'` when `url` is a text whose path
   * ends in `/quote/ws/v2`, else `'v1'` (a `url` function is not called to decide: say `'v2'` here).
   */
  readonly dialect?: 'v1' | 'v2' | undefined;
  /**
   * The `site` of every subscription (`params.site`; HashKey MENA: `'MENA'`). Default: the `venue`'s `site`, else none.
   */
  readonly site?: string | undefined;
  /** Connection options (heartbeats, frame limits, reconnect policy). Default `{}` (the connection's defaults). */
  readonly connection?: Omit<ConnectionConfig, 'url' | 'scheduler' | 'WebSocketCtor'> | undefined;
  /**
   * Ask for zip binary frames unless a subscription says otherwise. Default `false` (JSON text). Observers
   * joining a live subscription share its encoding.
   */
  readonly binary?: boolean | undefined;
  /**
   * Pace of request frames (`sub` and `cancel`) once a burst is used up, per second. Default 10. Topics of the
   * same request topic waiting together share frames (`maxSymbolsPerFrame`), so a reconnect with 500 topics
   * sends about 25 frames: 10 at once, the rest within 1.5 s.
   */
  readonly resubscribeRatePerSecond?: number | undefined;
  /** Request frames that may leave at once before pacing applies. Default 10. */
  readonly subscribeBurst?: number | undefined;
  /**
   * Most symbols in one `sub` or `cancel` frame (`"symbol": "BTCUSDT,ETHUSDT"`, comma-joined): topics of the same
   * request topic and encoding that wait together leave in one frame. Default 20; 1 sends one frame per topic.
   */
  readonly maxSymbolsPerFrame?: number | undefined;
  /**
   * What a symbol must look like; any other is refused before anything is sent: its observable errors with a
   * `ConfigError` (option `symbol`) that says why. Whatever the pattern, a symbol never holds a comma (it would
   * subscribe other symbols) or a control character, and is at most 64 characters long. Default
   * `/^[A-Za-z0-9]{1,32}$/` (letters and digits, 1 to 32).
   */
  readonly symbolPattern?: RegExp | undefined;
  /**
   * The symbols the service lists (exchangeInfo's `symbols[].symbol`): a symbol outside them is refused like one
   * that does not match `symbolPattern`. Read once, when the streams are made. Default: none (any symbol that
   * matches the pattern goes out; an unknown one is refused by the service).
   */
  readonly symbols?: Iterable<string> | undefined;
  /**
   * A topic whose `sub` was followed by the connection closing (before any data, while it alone waited for an
   * answer) this many times in a row ends with a `TopicQuarantinedError`, so that the other topics stop losing
   * their socket with it. Default 3.
   */
  readonly quarantineAfterCloses?: number | undefined;
  /**
   * Trades the first message of a trade subscription replays (SPEC: the most recent 60). A replay that
   * is this long and does not reach back to the last trade seen signals a gap on `gaps$`. Default 60.
   */
  readonly tradeReplaySize?: number | undefined;
  /**
   * The service does not acknowledge a `sub`; its first message (the snapshot, or the last 60 trades) is the
   * answer and comes at once. A topic that got no message this long after its `sub` (lost on the way, e.g. by
   * a stalled server) is subscribed again, with a new id, until a message arrives: the n-th `sub` in a row
   * waits `max(subscribeTimeoutMs, random() * min(60 000, subscribeTimeoutMs * 2 ^ (n - 1)))` (the backoff of
   * `reconnect`, never shorter than the timeout); each re-send is counted in `status$.resubscribes`. Default
   * 10 000; `Infinity` turns it off.
   */
  readonly subscribeTimeoutMs?: number | undefined;
  /** Source of jitter in [0, 1) for re-sent subscriptions (see `subscribeTimeoutMs`). Default `Math.random`. */
  readonly random?: (() => number) | undefined;
  /**
   * Per topic kind, the silence (no data message, while the socket itself is healthy) after which a topic that
   * had answered is cancelled and subscribed again (a feed the service stopped without a word); each is counted
   * in `status$.staleResubscribes`. `Infinity` turns it off. The defaults stay well above the service's push
   * periods (300 ms, realtimes 500 ms) and do not fire on a quiet market:
   * - `trade`: `Infinity` (off): a quiet pair may not trade for hours;
   * - `depth`: 30 000 (the book is pushed every 300 ms);
   * - `realtimes`: 60 000 (the 24 h ticker is pushed every 500 ms);
   * - `kline`: twice the interval, at least 60 000 (an open candle is pushed as it changes, a new one opens
   *   every interval); a value given here applies to every interval.
   */
  readonly staleAfterMs?: {
    readonly trade?: number | undefined;
    readonly depth?: number | undefined;
    readonly realtimes?: number | undefined;
    readonly kline?: number | undefined;
  } | undefined;
  /**
   * Fill trade gaps over HTTP (see `backfillTrades`): with `rest` (a `restClient`, or anything with its `trades`
   * call) `trades()` fetches `GET /quote/v1/trades` (limit 100) after a resubscription's replay shows a gap,
   * holding the live trades for at most `timeoutMs` (default 5000), and emits the missing trades first, each
   * id once, in order; `gaps$` then only signals what the fetch could not cover (more than 100 trades missed,
   * or a fetch that failed, timed out or was rate limited: no fetch during a `RateLimitedError`'s
   * `retryAfterMs`). A failed fetch is reported on `errors$`. Default: none (gaps are signalled only).
   */
  readonly tradeBackfill?: { readonly rest: Pick<RestCalls, 'trades'>; readonly timeoutMs?: number | undefined } | undefined;
  /**
   * Candles over HTTP: with `rest` (a `restClient`, or anything with its `klines` call),
   * `klines(symbol, interval, { history: n })` emits the last `n` closed candles from `GET /quote/v1/klines`
   * (pages of 1000, newest first, each page at most `timeoutMs`, default 5000) before the live ones, and every
   * `klines()` (with or without `history`) fetches the closed candles a break hid (a reconnect, a topic subscribed
   * again) before the new ones, so `closedCandles()` downstream sees each candle once. A fetch that fails is
   * reported on `errors$` and signalled on `klineGaps$`; after a `RateLimitedError` no candle fetch is made for
   * its `retryAfterMs`. Default: none (`history` errors with a `ConfigError`; a break is not filled).
   */
  readonly klineHistory?: { readonly rest: Pick<RestCalls, 'klines'>; readonly timeoutMs?: number | undefined } | undefined;
  /**
   * A REST client (or anything with its `clockSample`) whose signing clock follows this stream's heartbeats:
   * while the public socket is open, each pong answering our ping (`serverTime - localTime` measured over its
   * round trip, see `serverClock`) is handed to `rest.clockSample(offsetMs, rttMs)`, so signed calls use the
   * service's clock (and skip their own `GET /api/v1/time` while a sample is fresh) with no other wiring. A
   * `clockSample` that throws is reported on `errors$`. Default: none.
   */
  readonly rest?: Pick<RestClient, 'clockSample'> | undefined;
  /** Clock and timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
  /** Websocket constructor. Default: `ws` on Node, the global `WebSocket` elsewhere. */
  readonly WebSocketCtor?: WebSocketCtor | undefined;
}
