/**
 * Candles a `klines(symbol, interval, …)` observable could not deliver, emitted on `klineGaps$` (each once,
 * counted in `status$.klineGaps`); the live candles flow on. Two cases (`reason`):
 * - `'history'`: the history of `klines(…, { history: n })` could not be fetched whole: up to `missing` of the
 *   closed candles before `firstLiveTime` were not emitted (the oldest ones; the ones emitted are the newest),
 *   because a fetch failed (`error`), a page was refused or the answer came short (`fault`).
 * - `'reconnect'`: after a break (a reconnect, or a topic subscribed again), the closed candles opening in
 *   `[from, to)` could not be fetched. `from` is the open time of the last candle emitted before the break when
 *   it may have been emitted while still open (so its final version may be missing too), else the open time of
 *   the candle after it.
 *
 * The fetch's `error` (a `RateLimitedError`, a `RequestTimeoutError`, a `RequestRejectedError`, …) is reported
 * on `errors$` too, once per fetch; during a `RateLimitedError`'s `retryAfterMs` no fetch is made and the gap
 * carries that error.
 *
 * @example
 * ```ts
 * import { marketStreams, type KlineGap } from 'ex-streams';
 *
 * const warn = (gap: KlineGap) =>
 *   console.warn(`${gap.symbol} ${gap.interval}: ${gap.missing} candles opening in [${gap.from}, ${gap.to}) are missing (${gap.reason})`, gap.error);
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).klineGaps$.subscribe(warn);
 * // BTCUSDT 1m: 3 candles opening in [1700000040000, 1700000220000) are missing (reconnect) RateLimitedError…
 * ```
 */
export interface KlineGap {
  readonly symbol: string;
  /** The candle interval (`1m`, `4h`…). */
  readonly interval: string;
  /** `'history'`: the history before the first live candle; `'reconnect'`: candles missed over a break. */
  readonly reason: 'history' | 'reconnect';
  /**
   * Open time (ms) of the oldest candle that may be missing. For `'history'` it is `to - missing × interval`
   * (a month counted as 30 days).
   */
  readonly from: number;
  /** The missing candles opened before this time (ms): the oldest candle emitted after them, else `firstLiveTime`. */
  readonly to: number;
  /** Open time (ms) of the first live candle of the subscription (`'history'`) or of the new epoch (`'reconnect'`). */
  readonly firstLiveTime: number;
  /** How many candles may be missing (with an interval whose length the library does not know, at least 1). */
  readonly missing: number;
  /**
   * Why the fetch failed: its error (`RateLimitedError`, `RequestTimeoutError`, `RequestRejectedError`…; for a
   * refused page a `DecodeError`); `undefined` for a history that came short.
   */
  readonly error: unknown;
  /**
   * When no request failed, why candles are missing; absent for a fetch that failed (see `error`):
   * - `'short'`: the history was answered whole with fewer candles than asked (the service has no older ones: a young
   *   pair, a replay whose recording holds fewer); `error` is `undefined`;
   * - `'off-grid'`, `'duplicate'`, `'out-of-order'`: a page of `GET /quote/v1/klines` was refused whole (none of its
   *   candles emitted): a row whose open time is not a whole number of intervals from the first live candle (rows
   *   30 s apart are no 1-minute candles), an open time twice, or one older than the row before; `error` is a
   *   `DecodeError` naming the row (also on `errors$`).
   */
  readonly fault?: 'short' | 'off-grid' | 'duplicate' | 'out-of-order' | undefined;
}
