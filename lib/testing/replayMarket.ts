import { asyncScheduler, merge, type Observable, type SchedulerLike, takeUntil, timer, map, EMPTY } from 'rxjs';
import { marketStreams, type MarketStreams, type MarketStreamsConfig } from '../market/marketStreams';
import type { Recording } from './recording';
import { testExchange } from './testExchange';

/**
 * Configuration of {@link replayMarket}.
 *
 * @example
 * ```ts
 * import { VirtualTimeScheduler } from 'rxjs';
 * import type { ReplayMarketConfig } from 'ex-streams/testing';
 * const config: ReplayMarketConfig = { scheduler: new VirtualTimeScheduler(), speed: 1 };
 * ```
 */
export interface ReplayMarketConfig {
  /**
   * The clock the recording is played on, and the streams' clock: a `TestScheduler` or a `VirtualTimeScheduler` runs a
   * whole day in virtual time (as fast as the pipeline goes); `asyncScheduler` (the default) plays in real time.
   */
  readonly scheduler?: SchedulerLike | undefined;
  /**
   * Recorded time per replayed time: 1 (default) as recorded, N N× faster, `Infinity` every event at once, in order
   * (each recorded reconnect still lets the client reconnect and resubscribe before the frames after it).
   */
  readonly speed?: number | undefined;
  /**
   * More `marketStreams` options (`tradeReplaySize`, `staleAfterMs`, `connection.heartbeat…`…). The replay sets
   * `url`, `scheduler` and `WebSocketCtor`, and `connection.reconnect` to reconnect at once (`minDelayMs: 0`,
   * `maxDelayMs: 0`): the replayed socket waits for the recorded reconnect, so the new epoch opens when it did.
   */
  readonly market?: Omit<MarketStreamsConfig, 'url' | 'scheduler' | 'WebSocketCtor'> | undefined;
}

/**
 * The reading surface of {@link MarketStreams}, fed from a recording (see {@link replayMarket}); every observable
 * completes when the recording is over.
 *
 * @example
 * ```ts
 * import type { ReplayedMarket } from 'ex-streams/testing';
 * declare const replay: ReplayedMarket;
 * replay.trades('BTCUSDT').subscribe({ next: (t) => console.log(t.p), complete: () => console.log('end of the recording') });
 * ```
 */
export interface ReplayedMarket
  extends Pick<
    MarketStreams,
    | 'klines'
    | 'realtimes'
    | 'trades'
    | 'depth'
    | 'klineMessages'
    | 'realtimesMessages'
    | 'tradeMessages'
    | 'depthMessages'
    | 'status$'
    | 'errors$'
    | 'gaps$'
    | 'klineGaps$'
  > {
  /** Emits once and completes when the last recorded event has been played. */
  readonly ended$: Observable<void>;
  /** The replay time (on the scheduler's clock) of recorded time `t`. */
  timeOf(t: number): number;
}

/**
 * A recorded market day through the surface of `marketStreams`: a `marketStreams` whose socket is a test exchange
 * socket (`ex-streams/testing`) playing the recording, so a pipeline written against `marketStreams` runs unchanged,
 * over the very code a live run does. Each recorded frame of a subscribed topic is delivered at its receive time
 * relative to the recording's start (scaled by `speed`); recorded socket closes close the replayed socket with the
 * same code, and the next epoch opens at its recorded time (the client reconnects at once and the replayed socket
 * holds its handshake until then), so reconnects, resubscriptions, trade replays and `gaps$` appear where they
 * happened. Frames that are no topic's data (pongs, acknowledgements, error frames) are not played; pings are
 * answered by the replay. Lines of the recording that could not be read are `DecodeError`s on `errors$` at the time
 * of the line before them. Everything completes when the recording is over (`ended$`).
 *
 * Synchronous and free of Node built-ins: load the files with `loadRecording` (`ex-streams/node`) first, then
 * replay inside `testScheduler.run` or on a `VirtualTimeScheduler`. Throws a `RangeError` for a `speed` that is not
 * a positive number.
 *
 * @example
 * ```ts
 * import { VirtualTimeScheduler } from 'rxjs';
 * import { loadRecording } from 'ex-streams/node';
 * import { replayMarket } from 'ex-streams/testing';
 *
 * const recording = await loadRecording('./rec');
 * const scheduler = new VirtualTimeScheduler(undefined, Infinity);
 * const replay = replayMarket(recording, { scheduler });
 * let n = 0;
 * replay.trades('BTCUSDT').subscribe(() => n++);
 * scheduler.flush(); // the whole recording, in virtual time
 * console.log(n, 'trades');
 * ```
 */
export function replayMarket(recording: Recording, config: ReplayMarketConfig = {}): ReplayedMarket {
  const { scheduler = asyncScheduler, speed = 1, market: options = {} } = config;
  const exchange = testExchange({ scheduler, maxFrames: Infinity });
  const run = exchange.server.replay(recording, { speed, stream: 'public' });
  const market = marketStreams(
    exchange.marketConfig({
      ...options,
      connection: { ...options.connection, reconnect: { ...(options.connection?.reconnect || {}), minDelayMs: 0, maxDelayMs: 0 } },
    }),
  );
  const ended$ = run.ended$;
  const until = <T>(source: Observable<T>): Observable<T> => source.pipe(takeUntil(ended$));
  const corrupt = recording.corrupt ?? [];
  const corrupt$: Observable<Error> =
    corrupt.length === 0
      ? EMPTY
      : merge(...corrupt.map((c) => timer(Math.max(0, run.timeOf(c.afterTime) - scheduler.now()), scheduler).pipe(map(() => c.error))));
  return {
    klines: (symbol, interval, o) => until(market.klines(symbol, interval, o)),
    realtimes: (symbol, o) => until(market.realtimes(symbol, o)),
    trades: (symbol, o) => until(market.trades(symbol, o)),
    depth: (symbol, o) => until(market.depth(symbol, o)),
    klineMessages: (symbol, interval, o) => until(market.klineMessages(symbol, interval, o)),
    realtimesMessages: (symbol, o) => until(market.realtimesMessages(symbol, o)),
    tradeMessages: (symbol, o) => until(market.tradeMessages(symbol, o)),
    depthMessages: (symbol, o) => until(market.depthMessages(symbol, o)),
    status$: until(market.status$),
    errors$: until(merge(market.errors$, corrupt$)),
    gaps$: until(market.gaps$),
    klineGaps$: until(market.klineGaps$),
    ended$,
    timeOf: (t) => run.timeOf(t),
  };
}
