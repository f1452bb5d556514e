import { candleStart, previousStart, type Candle, type KlineInterval } from './candles';
import { mul } from '../../decimal/fixed';
import type { SymbolMarket } from './market';
import { mixSeed, mulberry32, randomInt } from '../core/random';

/** How far (in ticks, either way) a synthetic close may sit from the oldest known candle's open. */
const SYNTHETIC_TICKS = 20;

/** The candles `GET /quote/v1/klines` asks for: open times in `[from, to]`, the latest `limit`. @internal */
export interface CandleRange {
  readonly from: number;
  readonly to: number;
  readonly limit: number;
}

/**
 * A synthetic candle of a generated market, before the oldest one it knows (`anchor`, opening at `anchorOpen`):
 * drawn from the pair's seed and the open time alone (the same candle every time it is asked for, in O(1)), on the
 * interval's grid, and continuous: its open is the close of the candle before, and the last one closes at
 * `anchorOpen` (the price the known history opens at). Closes stay within {@link SYNTHETIC_TICKS} ticks of it.
 */
function synthetic(m: SymbolMarket, interval: KlineInterval, t: number, anchor: Candle): Candle {
  const tick = m.info.rules.tickSize;
  const lot = m.info.rules.stepSize;
  const draw = (s: number): (() => number) => mulberry32(mixSeed(m.marketSeed, `${interval}|${s}`));
  const offset = (s: number): number => randomInt(draw(s), -SYNTHETIC_TICKS, SYNTHETIC_TICKS);
  const last = previousStart(interval, anchor.t);
  /** Close of the synthetic candle opening at `s` (the one before the anchor closes at its open). */
  const close = (s: number): bigint => {
    const p = anchor.o + BigInt(offset(s) - offset(last)) * tick;
    return p < tick ? tick : p;
  };
  const c = close(t);
  const o = close(previousStart(interval, t));
  const random = draw(t);
  random(); // the draw of `offset`
  const h = (o > c ? o : c) + BigInt(randomInt(random, 0, 3)) * tick;
  const lowest = (o < c ? o : c) - BigInt(randomInt(random, 0, 3)) * tick;
  const l = lowest < tick ? tick : lowest;
  const v = BigInt(randomInt(random, 1, 500) * randomInt(random, 1, 20)) * lot;
  return { t, o, h, l, c, v, qv: mul(c, v), n: randomInt(random, 1, 20) };
}

/**
 * The candles of `interval` a pair's market serves over HTTP, oldest first, every open time on the interval's grid
 * (one candle per interval, none skipped), the latest `limit` of those opening in `[from, to]`, up to the current one:
 *
 * - the candles the market made (kept closed ones and the current one: what the `kline_<interval>` topic pushed, the
 *   current candle as the topic pushes it now);
 * - an interval between them that no trade touched: a flat candle at the close before (volume 0), as the topic shows it;
 * - before the oldest one, on a generated market only: {@link synthetic} candles, as many as asked (a history of any
 *   length); a recorded market (paper fills) serves only what it played.
 * @internal
 */
export function candleHistory(m: SymbolMarket, interval: KlineInterval, range: CandleRange, now: number | undefined): Candle[] {
  const current = now === undefined ? m.currentCandle(interval) : m.candle(interval, now);
  const known = [...m.closedCandles(interval), ...(current === undefined ? [] : [current])];
  const oldest = known[0];
  if (oldest === undefined) return [];
  const out: Candle[] = [];
  let t = candleStart(interval, Math.min(range.to, known[known.length - 1]!.t));
  let i = known.length - 1;
  while (out.length < range.limit && t >= range.from && t >= 0) {
    while (i >= 0 && known[i]!.t > t) i--;
    const at = known[i];
    if (at !== undefined && at.t === t) out.push(at);
    else if (at !== undefined) out.push({ t, o: at.c, h: at.c, l: at.c, c: at.c, v: 0n, qv: 0n, n: 0 });
    else if (m.recorded) break;
    else out.push(synthetic(m, interval, t, oldest));
    t = previousStart(interval, t);
  }
  out.reverse();
  return out;
}
