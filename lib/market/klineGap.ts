/**
 * Candles a `klines(symbol, interval, { history })` did not deliver: the history fetch failed (a rate limit, a
 * deadline, a refused request), so up to `missing` closed candles before `firstLiveTime` were not emitted (the
 * ones emitted, if any, are the newest of them). The live candles flow on. Emitted on `klineGaps$`.
 *
 * @example
 * ```ts
 * import { marketStreams, type KlineGap } from 'ex-streams';
 *
 * const warn = (gap: KlineGap) =>
 *   console.warn(`${gap.symbol} ${gap.interval}: ${gap.missing} candles before ${gap.firstLiveTime} are missing`, gap.error);
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).klineGaps$.subscribe(warn);
 * ```
 */
export interface KlineGap {
  readonly symbol: string;
  /** The candle interval (`1m`, `4h`…). */
  readonly interval: string;
  /** Open time (ms) of the first live candle: the missing candles opened before it. */
  readonly firstLiveTime: number;
  /** How many of the closed candles asked for were not emitted (the oldest ones). */
  readonly missing: number;
  /** Why the history failed: the fetch's error (`RateLimitedError`, `RequestTimeoutError`, `RequestRejectedError`…). */
  readonly error: unknown;
}
