import { type Candle, candleStart, isKlineInterval } from './candles';
import { mul, parseDecimal } from '../../decimal/fixed';
import type { MarketTrade, SymbolMarket } from './market';
import { readRecordedMessage, type RecordedMarketData } from './recordedFrames';
import type { Timers } from '../core/timers';

/** The longest delay a Node timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** @internal */
export interface MarketReplayDeps {
  readonly data: RecordedMarketData;
  /** Recorded ms per simulator ms. */
  readonly speed: number;
  /** The recorded pairs the simulator serves (their markets are `recorded`). */
  readonly markets: ReadonlyMap<string, SymbolMarket>;
  readonly timers: Timers;
  /** Server time, ms (the simulator's clock plus skew). */
  readonly now: () => number;
  /** New recorded trades of a pair, in order, once the market holds them (the matching engine fills resting orders). */
  readonly onTrades: (market: SymbolMarket, trades: readonly MarketTrade[]) => void;
}

/**
 * Plays a recording's public messages onto the simulator's recorded markets, one line at a time on the simulator's
 * timers (a cursor: a day of lines is never queued at once), recorded time `t` at `start + (t - t0) / speed` server
 * time, every time inside a message (trade times, depth, kline and realtimes `t`) mapped the same way:
 *
 * - trade messages add their new trades (by id: a recorded reconnect's first message repeats trades already played)
 *   to the pair's history, candles and ticker, then hand them to the matching engine;
 * - depth messages replace the pair's book;
 * - kline and realtimes messages are kept as the topic's latest records (a candle's open time: the open time of the
 *   candle of its interval that holds its mapped time, so paper candles open on the interval's grid).
 *
 * Each played message wakes the public subscriptions of its (pair, topic) ({@link listen}). After the last line the
 * markets keep their last state. @internal
 */
export class MarketReplay {
  private index = 0;
  private start = 0;
  private readonly latest = new Map<string, ReadonlyArray<Record<string, unknown>>>();
  private readonly seen = new Set<string>();
  private readonly lastTradeId = new Map<string, bigint>();
  private readonly listeners = new Map<string, Set<() => void>>();

  /** Throws when the recording holds no data of a pair the simulator serves (an empty or unreadable recording). */
  constructor(private readonly deps: MarketReplayDeps) {
    if (![...deps.markets.values()].some((m) => m.recorded)) {
      throw new Error('recordedMarket: the recording holds no market data (trade, depth, kline or realtimes messages) of a pair the simulator can serve');
    }
  }

  /** Starts playing: the lines due at once (the recording's first instant) are played now. */
  begin(): void {
    this.start = this.deps.now();
    this.seedHistory();
    this.play();
  }

  /**
   * The candles before the start a recording kept (its `klines` lines: `recordMarket({ rest })`), open times mapped
   * like the rest and brought down to their interval's boundary, become the recorded pairs' closed candles, so
   * `GET /quote/v1/klines` (and `klines(…, { history })`) serves them in paper mode.
   */
  private seedHistory(): void {
    for (const e of this.deps.data.events) {
      if (e.k !== 'klines' || !isKlineInterval(e.interval)) continue;
      const market = this.deps.markets.get(e.symbol);
      if (market === undefined || !market.recorded) continue;
      const interval = e.interval;
      const candles: Candle[] = [];
      for (const k of e.candles) {
        const [o, h, l, c, v] = [k.o, k.h, k.l, k.c, k.v].map((x) => parseDecimal(x));
        if (o === undefined || h === undefined || l === undefined || c === undefined || v === undefined) continue;
        const t = candleStart(interval, this.timeOf(k.t));
        // the candle open at the start is played (the recorded frames): only those before it are history
        if (t < candleStart(interval, this.start)) candles.push({ t, o, h, l, c, v, qv: mul(c, v), n: 0 });
      }
      market.seedClosed(interval, candles);
    }
  }

  /** Whether `symbol` is a recorded pair (its topics are played, not generated). */
  serves(symbol: string): boolean {
    return this.deps.markets.get(symbol)?.recorded === true;
  }

  /** Whether a message of the topic (`trade`, `depth`, `realtimes`, `kline_1m`, …) of `symbol` was played yet. */
  played(symbol: string, topic: string): boolean {
    return this.seen.has(`${symbol}|${topic}`);
  }

  /** The latest records of a kline / realtimes topic (times mapped), undefined before its first message. */
  records(symbol: string, topic: string): ReadonlyArray<Record<string, unknown>> | undefined {
    return this.latest.get(`${symbol}|${topic}`);
  }

  /** Calls `fn` after each played message of (symbol, topic); returns the function that stops it. */
  listen(symbol: string, topic: string, fn: () => void): () => void {
    const key = `${symbol}|${topic}`;
    const set = this.listeners.get(key) ?? new Set<() => void>();
    this.listeners.set(key, set);
    set.add(fn);
    return () => {
      set.delete(fn);
    };
  }

  /** The server time of recorded time `t`. */
  timeOf(t: number): number {
    return this.start + Math.round((t - this.deps.data.t0) / this.deps.speed);
  }

  private play(): void {
    const { events } = this.deps.data;
    const now = this.deps.now();
    for (let e = events[this.index]; e !== undefined && this.timeOf(e.t) <= now; e = events[this.index]) {
      this.index += 1;
      const message = readRecordedMessage(e);
      const market = message === undefined ? undefined : this.deps.markets.get(message.symbol);
      if (message === undefined || market === undefined || !market.recorded) continue;
      const key = `${message.symbol}|${message.topic}`;
      if ('trades' in message) {
        const last = this.lastTradeId.get(message.symbol);
        const fresh: MarketTrade[] = [];
        for (const r of message.trades) {
          if (r.id !== undefined && last !== undefined && r.id <= last) continue; // played already
          fresh.push(market.recordTrade(r.price, r.qty, r.m, this.timeOf(r.t), r.id));
          if (r.id !== undefined) this.lastTradeId.set(message.symbol, r.id);
        }
        if (fresh.length === 0) continue;
        this.deps.onTrades(market, fresh);
      } else if ('bids' in message) {
        market.setBook(message.bids, message.asks);
      } else {
        // a candle's open time stays on its interval's grid on the simulator's clock (a shift to `start` alone opened
        // paper candles at 19:35:27.169): the candle of the server time its recorded open maps to
        const interval = message.topic.startsWith('kline_') ? message.topic.slice('kline_'.length) : undefined;
        const grid = interval !== undefined && isKlineInterval(interval) ? interval : undefined;
        const at = (t: number): number => (grid === undefined ? this.timeOf(t) : candleStart(grid, this.timeOf(t)));
        this.latest.set(key, message.records.map((r) => (typeof r['t'] === 'number' ? { ...r, t: at(r['t']) } : r)));
      }
      this.seen.add(key);
      for (const fn of [...(this.listeners.get(key) ?? [])]) fn();
    }
    const next = events[this.index];
    // at most one Node timer's longest delay at a time (a longer one fires at once, with a TimeoutOverflowWarning):
    // a line further ahead is waited for in steps
    if (next !== undefined) this.deps.timers.after(Math.min(MAX_TIMER_MS, Math.max(0, this.timeOf(next.t) - now)), () => this.play());
  }
}
