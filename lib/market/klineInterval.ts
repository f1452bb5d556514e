/**
 * A candle interval the service serves on `kline_<interval>`: minutes `m`, hours `h`, a day `1d`, a week `1w`,
 * a month `1M` (capital M). Anything else (`'1min'`, `'60m'`) does not compile; for an interval this list
 * does not know yet, see {@link customKlineInterval}.
 *
 * @example
 * ```ts
 * import { marketStreams, type KlineInterval } from 'ex-streams';
 *
 * const interval: KlineInterval = '15m';
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).klines('BTCUSDT', interval).subscribe((c) => console.log(c.c));
 * ```
 */
export type KlineInterval = '1m' | '3m' | '5m' | '15m' | '30m' | '1h' | '2h' | '4h' | '6h' | '8h' | '12h' | '1d' | '1w' | '1M';

declare const customKline: unique symbol;

/**
 * An interval outside {@link KlineInterval}, made by {@link customKlineInterval}: text the compiler does not
 * check (a branded string, so a plain string typo still fails).
 *
 * @example
 * ```ts
 * import { customKlineInterval, type CustomKlineInterval } from 'ex-streams/history';
 *
 * const twoWeeks: CustomKlineInterval = customKlineInterval('2w');
 * ```
 */
export type CustomKlineInterval = string & { readonly [customKline]: true };

/**
 * The escape hatch of `kline` / `klineMessages`: passes `interval` through unchecked, for an interval the
 * service added after this version of the library. An interval the service does not know errors that topic
 * with a `SubscriptionRejectedError` at run time.
 *
 * @example
 * ```ts
 * import { marketStreams } from 'ex-streams';
 * import { customKlineInterval } from 'ex-streams/history';
 *
 * const market = marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' });
 * market.klines('BTCUSDT', customKlineInterval('2w')).subscribe((candle) => console.log(candle.t, candle.c));
 * ```
 */
export function customKlineInterval(interval: string): CustomKlineInterval {
  return interval as CustomKlineInterval;
}
