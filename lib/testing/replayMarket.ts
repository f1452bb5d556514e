import { asyncScheduler, merge, type Observable, type SchedulerLike, Subject, takeUntil, timer, map } from 'rxjs';
import { marketStreams, type MarketStreams, type MarketStreamsConfig } from '../market/marketStreams';
import type { KlineRecord } from '../codecs/kline';
import type { ExchangeInfo } from '../codecs/rest/exchangeInfo';
import { flatMapArray } from '../internal/flatMapArray';
import type { MarketMessage } from '../market/marketMessage';
import { symbolRules, type SymbolRules } from '../orders/symbolRules';
import { recordedRest } from './internal/recordedRest';
import { lazyEvents } from './internal/replayPlayer';
import { type CorruptLine, isCorruptLine, type LazyRecording, type RecordedEvent, type Recording } from './recording';
import { testExchange } from './testExchange';

/** A lazy recording's lines read ahead before the replay starts, at most: up to its first `open` or `close`. */
const HEAD_LINES = 10_000;

/**
 * A lazily read recording as events for the test exchange's player: the first lines (up to the first `open` or
 * `close`), then the rest pulled one at a time as they are played. A corrupt line is reported (`report`) when the
 * player reaches it, i.e. at the time of the line before it.
 */
function eventsOf(recording: LazyRecording, report: (line: CorruptLine) => void): readonly RecordedEvent[] {
  const lines = recording.lines[Symbol.iterator]();
  const rest: Iterator<RecordedEvent> = {
    next: () => {
      for (;;) {
        const next = lines.next();
        if (next.done === true) return { done: true, value: undefined };
        if (!isCorruptLine(next.value)) return next as IteratorYieldResult<RecordedEvent>;
        report(next.value);
      }
    },
  };
  const head: RecordedEvent[] = [];
  while (head.length < HEAD_LINES) {
    const next = rest.next();
    if (next.done === true) break;
    head.push(next.value);
    if (next.value.k === 'open' || next.value.k === 'close') break;
  }
  return lazyEvents(head, rest);
}

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
   * recording of any length (a day, a week) in virtual time, as fast as the pipeline goes, with a flat stack and heap
   * (`new VirtualTimeScheduler(undefined, Infinity)`: a finite `maxFrames` stops it there); `asyncScheduler` (the
   * default) plays in real time.
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
   * `klineHistory` defaults to the recording's own candles (its `klines` lines: `recordMarket({ rest })`), so
   * `klines(…, { history })` works; fewer than asked is a `KlineGap` with `fault: 'short'` on `klineGaps$`. A
   * `klines()` without `history` gives the recorded candles as they came (no fill after a recorded reconnect).
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
  /** The pairs' rules the recording kept (its `exchangeInfo` line: `recordMarket({ rest })`), `undefined` when none. */
  readonly exchangeInfo: ExchangeInfo | undefined;
  /** `symbolRules(exchangeInfo)`: each recorded pair's rules (for `checkOrder`, `fitPrice`…); empty when none were kept. */
  readonly symbolRules: ReadonlyMap<string, SymbolRules>;
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
 * of the line before them. Everything completes when the recording is over (`ended$`); the recorder's own final close
 * (code 1000) is that end, not a loss. Candle history (`klines(…, { history })`) and the pairs' rules
 * (`exchangeInfo`, `symbolRules`) come from the recording (its `klines` and `exchangeInfo` lines).
 *
 * Synchronous and free of Node built-ins: load the files with `loadRecording` (`ex-streams/node`) first, then
 * replay inside `testScheduler.run` or on a `VirtualTimeScheduler`. `recording` is a {@link Recording} (its events in
 * memory) or a {@link LazyRecording} (`loadRecording(dir, { lazy: true })`: its lines are read as they are played,
 * one at a time, so a recorded day never sits in memory; a line that cannot be read is on `errors$` when the replay
 * reaches it, at the time of the line before it). Throws a `RangeError` for a `speed` that is not
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
export function replayMarket(recording: Recording | LazyRecording, config: ReplayMarketConfig = {}): ReplayedMarket {
  const { scheduler = asyncScheduler, speed = 1, market: options = {} } = config;
  // nothing reads what the replay client sent: a replay of days holds no record per ping
  const exchange = testExchange({ scheduler, maxFrames: Infinity, recordSent: false });
  // a lazy recording's corrupt lines are found as it is read: reported on the scheduler, after the line before them
  const lazyCorrupt$ = new Subject<Error>();
  const played: Recording =
    'lines' in recording ? { events: eventsOf(recording, (line) => scheduler.schedule(() => lazyCorrupt$.next(line.error))) } : recording;
  const run = exchange.server.replay(played, { speed, stream: 'public' });
  // candle history from the recording itself: its `klines` lines (recorded REST answers), unless the caller gives one
  const rest = recordedRest(recording);
  const market = marketStreams(
    exchange.marketConfig({
      klineHistory: { rest },
      ...options,
      connection: { ...options.connection, reconnect: { ...(options.connection?.reconnect || {}), minDelayMs: 0, maxDelayMs: 0 } },
    }),
  );
  const ended$ = run.ended$;
  const until = <T>(source: Observable<T>): Observable<T> => source.pipe(takeUntil(ended$));
  const corrupt = ('corrupt' in recording ? recording.corrupt : undefined) ?? [];
  const corrupt$: Observable<Error> =
    corrupt.length === 0
      ? lazyCorrupt$
      : merge(...corrupt.map((c) => timer(Math.max(0, run.timeOf(c.afterTime) - scheduler.now()), scheduler).pipe(map(() => c.error))));
  return {
    // without `history` (and no `klineHistory` of the caller's), the recorded candles as they came, as before: the
    // history operator's fill after a recorded reconnect costs ~20 % more CPU on klines() and finds no candle there
    klines: (symbol, interval, o) =>
      until(
        o?.history === undefined && options.klineHistory === undefined
          ? market.klineMessages(symbol, interval, o).pipe(flatMapArray((m: MarketMessage<KlineRecord>) => m.data))
          : market.klines(symbol, interval, o),
      ),
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
    exchangeInfo: rest.exchangeInfo,
    symbolRules: rest.exchangeInfo === undefined ? new Map() : symbolRules(rest.exchangeInfo),
    timeOf: (t) => run.timeOf(t),
  };
}
