import { type Observable, Subscription, take } from 'rxjs';
import type { RestCalls } from '../rest/callTypes';
import { ConfigError } from '../errors';
import { customKlineInterval } from '../market/klineInterval';
import { marketStreams, type MarketStreams, type MarketStreamsConfig } from '../market/marketStreams';
import { recorderCore } from './internal/recorderCore';
import { recordingOutput } from './internal/recordingOutput';
import type { RecordingOutputOptions } from './recordingOutputOptions';
import type { RecordingProgress } from './recordingProgress';

export type { RecordingOutputOptions } from './recordingOutputOptions';

/**
 * Options of {@link recordMarket}. `url`, `symbols`, `topics` and `out` are required.
 *
 * @example
 * ```ts
 * import type { RecordMarketOptions } from 'ex-streams/node';
 * const options: RecordMarketOptions = {
 *   url: 'wss://stream.example.com/quote/ws/v1',
 *   symbols: ['BTCUSDT', 'ETHUSDT'],
 *   topics: ['trade', 'depth', 'kline_1m'],
 *   out: './rec/2026-11-25',
 *   maxFileBytes: 256 * 1024 * 1024,
 * };
 * ```
 */
export interface RecordMarketOptions extends RecordingOutputOptions {
  /** Public stream address (`…/quote/ws/v1`). Never written to the files. */
  readonly url: string;
  /** The pairs to record. */
  readonly symbols: readonly string[];
  /** Request topics: `trade`, `depth`, `realtimes`, `kline_<interval>` (`kline_1m`…). */
  readonly topics: readonly string[];
  /** Ask for zip binary frames (recorded as they come, in base64). Default `false`. */
  readonly binary?: boolean | undefined;
  /** More `marketStreams` options (reconnect, heartbeats…). */
  readonly market?: Omit<MarketStreamsConfig, 'url' | 'scheduler' | 'WebSocketCtor' | 'binary'> | undefined;
  /**
   * A REST client (`restClient`, or anything with its `exchangeInfo` and `klines`): at the start the recording keeps
   * the pairs' rules (an `exchangeInfo` line) and, for each `kline_<interval>` topic, the last `history` candles
   * (a `klines` line), so a replay exposes the rules (`symbolRules`) and answers `klines(…, { history })`. A call
   * that fails is reported to `onError` (the recording goes on without it). Default: none.
   */
  readonly rest?: Pick<RestCalls, 'exchangeInfo' | 'klines'> | undefined;
  /** Candles kept per kline topic at the start, with `rest` (1 to 1000). Default 1000. */
  readonly history?: number | undefined;
}

/**
 * A running market recording (see {@link recordMarket}).
 *
 * @example
 * ```ts
 * import { recordMarket, type MarketRecording } from 'ex-streams/node';
 * const recording: MarketRecording = recordMarket({ url: 'ws://127.0.0.1:8080/quote/ws/v1', symbols: ['BTCUSDT'], topics: ['trade'], out: 'rec' });
 * recording.market.trades('BTCUSDT').subscribe((t) => console.log('live', t.p)); // the recorded connection, live
 * ```
 */
export interface MarketRecording {
  /** The market streams being recorded: subscribe to use the same data live (shared subscriptions). */
  readonly market: MarketStreams;
  /**
   * Messages, bytes and files, at each flush (every second) and once at the end; completes after `stop()`. The last
   * value replays to a late subscriber (also after the end).
   */
  readonly progress$: Observable<RecordingProgress>;
  /**
   * Unsubscribes, waits for the socket to close (at most 2 s) when nothing else holds it, ends the last file and
   * writes the manifest complete. While a live pipeline still subscribes to `market`, it does not wait: the recording
   * ends at once (nothing more is written) and the socket stays open for that pipeline.
   */
  stop(): Promise<void>;
}

const TOPIC = /^(trade|depth|realtimes|kline_[0-9]{1,4}[smhdwM])$/;

/**
 * Records a market connection: a `marketStreams` whose `WebSocketCtor` is a tap on the real socket keeps every
 * frame as received (text, or binary in base64) with its receive time, every socket open (epoch) and close (code),
 * and the gap signals (`gaps$`, `klineGaps$`), in append-only gzip files in `out` (one JSON line per event, see
 * docs/history-and-replay.md), rotated by size or age, described by `manifest.json`. zlib's output is flushed to
 * disk every second (`Z_SYNC_FLUSH`): a crash loses at most the last second, and the cut file stays readable. No
 * address is written (file names are `market-<UTC time>-<n>.jsonl.gz`).
 *
 * It subscribes every `symbols` × `topics` for as long as it runs (through the typed streams, so trade gaps are
 * signalled); `market` is that `MarketStreams`, to use the same data live. Replay with `loadRecording` and
 * `replayMarket`. Throws a `ConfigError` for an empty `symbols` or `topics` or a topic it does not know, and Node's
 * error when `out` cannot be made; once running, nothing it meets throws (write failures go to `onError`).
 *
 * @example
 * ```ts
 * import { recordMarket } from 'ex-streams/node';
 * const rec = recordMarket({ url: 'ws://127.0.0.1:8080/quote/ws/v1', symbols: ['BTCUSDT'], topics: ['trade', 'depth', 'kline_1m'], out: 'rec' });
 * rec.progress$.subscribe((p) => console.log(p.messages, 'messages', p.bytes, 'bytes', p.files, 'files'));
 * process.once('SIGINT', () => void rec.stop()); // manifest.json: complete
 * ```
 */
export function recordMarket(options: RecordMarketOptions): MarketRecording {
  const { url, symbols, topics, binary = false, market: marketOptions = {}, rest, history = 1000 } = options;
  const output = recordingOutput(options);
  const { scheduler, onError } = output;
  if (symbols.length === 0) throw new ConfigError('symbols', 'must name at least one pair');
  if (topics.length === 0) throw new ConfigError('topics', 'must name at least one topic');
  const unknown = topics.find((topic) => !TOPIC.test(topic));
  if (unknown !== undefined) throw new ConfigError('topics', `must be trade, depth, realtimes or kline_<interval>, got '${unknown.slice(0, 40)}'`);
  if (!(Number.isInteger(history) && history >= 1 && history <= 1000)) throw new ConfigError('history', 'must be an integer from 1 to 1000');
  const core = recorderCore({ ...output, prefix: 'market', stream: 'public', symbols, topics });
  const market = marketStreams({ ...marketOptions, url, binary, scheduler, WebSocketCtor: core.WebSocketCtor });
  const subscriptions = new Subscription();
  const ignore = { error: onError };
  subscriptions.add(
    market.gaps$.subscribe((g) => core.write({ t: scheduler.now(), k: 'gap', kind: 'trade', symbol: g.symbol, lastSeenId: g.lastSeenId, firstNewId: g.firstNewId, epoch: g.epoch })),
  );
  subscriptions.add(
    market.klineGaps$.subscribe((g) =>
      core.write({ t: scheduler.now(), k: 'gap', kind: 'kline', symbol: g.symbol, interval: g.interval, firstLiveTime: g.firstLiveTime, missing: g.missing }),
    ),
  );
  if (rest !== undefined) {
    const failed = { error: (e: unknown) => onError(e instanceof Error ? e : new Error(String(e))) };
    subscriptions.add(rest.exchangeInfo().pipe(take(1)).subscribe({ ...failed, next: (info) => core.write({ t: scheduler.now(), k: 'exchangeInfo', info }) }));
    for (const symbol of symbols) {
      for (const interval of topics.filter((topic) => topic.startsWith('kline_')).map((topic) => topic.slice('kline_'.length))) {
        const candles$ = rest.klines({ symbol, interval, limit: history }).pipe(take(1));
        subscriptions.add(
          candles$.subscribe({
            ...failed,
            next: (rows) => core.write({ t: scheduler.now(), k: 'klines', symbol, interval, candles: rows.map(({ t, o, h, l, c, v }) => ({ t, o, h, l, c, v })) }),
          }),
        );
      }
    }
  }
  for (const symbol of symbols) {
    for (const topic of topics) {
      const stream: Observable<unknown> =
        topic === 'trade'
          ? market.trades(symbol)
          : topic === 'depth'
            ? market.depth(symbol)
            : topic === 'realtimes'
              ? market.realtimes(symbol)
              : market.klines(symbol, customKlineInterval(topic.slice('kline_'.length)));
      subscriptions.add(stream.subscribe(ignore));
    }
  }
  return { market, progress$: core.progress$, stop: () => core.stop(() => subscriptions.unsubscribe()) };
}
