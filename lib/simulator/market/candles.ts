/** Kline intervals the public stream accepts in `kline_<interval>`. @internal */
export const KLINE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '1w', '1M'] as const;
/** @internal */
export type KlineInterval = (typeof KLINE_INTERVALS)[number];

const MIN = 60_000;
const FIXED: Readonly<Record<Exclude<KlineInterval, '1w' | '1M'>, number>> = {
  '1m': MIN,
  '3m': 3 * MIN,
  '5m': 5 * MIN,
  '15m': 15 * MIN,
  '30m': 30 * MIN,
  '1h': 60 * MIN,
  '2h': 120 * MIN,
  '4h': 240 * MIN,
  '6h': 360 * MIN,
  '8h': 480 * MIN,
  '12h': 720 * MIN,
  '1d': 1440 * MIN,
};
const DAY = 1440 * MIN;
const MONDAY_OFFSET = 4 * DAY; // 1970-01-05 was a Monday

/** @internal */
export function isKlineInterval(text: string): text is KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(text);
}

/** Open time (UTC) of the candle of `interval` that contains `t`; weeks start on Monday, months on the 1st. @internal */
export function candleStart(interval: KlineInterval, t: number): number {
  if (interval === '1M') {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  if (interval === '1w') return Math.floor((t - MONDAY_OFFSET) / (7 * DAY)) * 7 * DAY + MONDAY_OFFSET;
  const ms = FIXED[interval];
  return Math.floor(t / ms) * ms;
}

/** Close time (UTC, last millisecond) of the candle of `interval` that opens at `start`. @internal */
export function candleEnd(interval: KlineInterval, start: number): number {
  if (interval === '1M') {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - 1;
  }
  return start + (interval === '1w' ? 7 * DAY : FIXED[interval]) - 1;
}

/** One candle, scaled decimals; `qv` the quote volume, `n` the trades in it. @internal */
export interface Candle {
  t: number;
  o: bigint;
  h: bigint;
  l: bigint;
  c: bigint;
  v: bigint;
  qv: bigint;
  n: number;
}

/** Open time of the candle of `interval` before the one opening at `start`. @internal */
export function previousStart(interval: KlineInterval, start: number): number {
  return candleStart(interval, start - 1);
}

/** Open time of the candle of `interval` after the one opening at `start`. @internal */
export function nextStart(interval: KlineInterval, start: number): number {
  return candleEnd(interval, start) + 1;
}
