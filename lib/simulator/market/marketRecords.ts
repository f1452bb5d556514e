import type { KlineInterval } from './candles';
import { div, formatFixed, formatUnits } from '../../decimal/fixed';
import type { MarketTrade, SymbolMarket } from './market';

/** Exchange id carried in `e` of realtimes and depth records. @internal */
export const EXCHANGE_ID = 301;

const price = (m: SymbolMarket, v: bigint): string => formatFixed(v, m.info.priceDecimals);
const qty = (m: SymbolMarket, v: bigint): string => formatFixed(v, m.info.qtyDecimals);

/** kline record of the current candle. @internal */
export function klineRecord(m: SymbolMarket, interval: KlineInterval, now: number): object {
  const c = m.candle(interval, now);
  const s = m.info.symbol;
  return { t: c.t, s, sn: s, c: price(m, c.c), h: price(m, c.h), l: price(m, c.l), o: price(m, c.o), v: qty(m, c.v) };
}

/** realtimes (24h ticker) record; `m` is the change ratio (c - o) / o with 4 decimals. @internal */
export function realtimesRecord(m: SymbolMarket, now: number): object {
  const k = m.stats();
  const s = m.info.symbol;
  const change = div(m.lastPrice - k.open, k.open);
  return {
    t: now,
    s,
    sn: s,
    c: price(m, m.lastPrice),
    h: price(m, k.high),
    l: price(m, k.low),
    o: price(m, k.open),
    v: qty(m, k.volume),
    qv: formatFixed(k.quoteVolume, m.info.priceDecimals),
    m: formatFixed(change, 4),
    e: EXCHANGE_ID,
  };
}

/** trade record; the id is text. @internal */
export function tradeRecord(m: SymbolMarket, t: MarketTrade): object {
  return { v: t.id.toString(), t: t.t, p: price(m, t.price), q: qty(m, t.qty), m: t.m };
}

/**
 * The trades one subscription's trade topic pushes next: the most recent 60 at its first push, then only those after
 * the last one it pushed (`undefined` when there are none: no message). One per subscription (V1 and V2). @internal
 */
export function tradeFeed(m: SymbolMarket): (first: boolean) => object[] | undefined {
  let lastTradeId: bigint | undefined;
  return (first) => {
    const trades = first ? m.trades.slice(-60) : m.trades.filter((t) => lastTradeId === undefined || t.id > lastTradeId);
    const last = trades[trades.length - 1];
    if (last === undefined) return undefined;
    lastTradeId = last.id;
    return trades.map((t) => tradeRecord(m, t));
  };
}

/** depth record with up to `levels` levels per side. @internal */
export function depthRecord(m: SymbolMarket, levels: number, now: number): object {
  const fresh = m.freshLevels(levels);
  if (fresh !== undefined) {
    const { priceDecimals, qtyDecimals } = m.info;
    const side = (flat: readonly number[]): string[][] => {
      const out: string[][] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) out.push([formatUnits(flat[i]!, priceDecimals), formatUnits(flat[i + 1]!, qtyDecimals)]);
      return out;
    };
    return { e: EXCHANGE_ID, s: m.info.symbol, t: now, v: `${fresh.version}_${EXCHANGE_ID}`, o: 0, a: side(fresh.asks), b: side(fresh.bids) };
  }
  const book = m.bookToWrite();
  const side = (ls: ReadonlyArray<{ price: bigint; qty: bigint }>): string[][] =>
    ls.slice(0, levels).map((l) => [price(m, l.price), qty(m, l.qty)]);
  return { e: EXCHANGE_ID, s: m.info.symbol, t: now, v: `${book.version}_${EXCHANGE_ID}`, o: 0, a: side(book.asks), b: side(book.bids) };
}

