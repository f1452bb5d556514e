import { map, type OperatorFunction } from 'rxjs';
import { compareDecimal, isNonNegativeDecimal, midDecimal, subtractDecimal } from '../internal/decimal';

/**
 * One price level: `[price, quantity]`, both decimal text as the service sent them.
 *
 * @example
 * ```ts
 * import type { OrderBookLevel } from 'ex-streams';
 *
 * const [price, quantity]: OrderBookLevel = ['30000.5', '0.25'];
 * ```
 */
export type OrderBookLevel = readonly [price: string, quantity: string];

/**
 * The fields of a depth record that {@link orderBook} reads (a `DepthRecord` has them).
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import { orderBook, type DepthSnapshot } from 'ex-streams';
 *
 * const snapshot: DepthSnapshot = { t: 1700000000000, a: [['101', '1'], ['100.5', '2']], b: [['100', '3']] };
 * of(snapshot).pipe(orderBook()).subscribe((book) => console.log(book.bestAsk, book.sorted)); // ['100.5', '2'] false
 * ```
 */
export interface DepthSnapshot {
  /** Currency pair, when the record carries it. */
  readonly s?: string | undefined;
  /** Data time, milliseconds. */
  readonly t: number;
  /** Ask levels. */
  readonly a: readonly OrderBookLevel[];
  /** Bid levels (may be empty). */
  readonly b: readonly OrderBookLevel[];
}

/**
 * A checked, sorted view of one depth snapshot. Prices stay decimal text; use `Number(x)` at the edge.
 *
 * @example
 * ```ts
 * import { marketStreams, orderBook, type OrderBook } from 'ex-streams';
 *
 * const describeBook = (book: OrderBook): string =>
 *   book.crossed ? 'crossed!' : `${book.bestBid?.[0] ?? '-'} / ${book.bestAsk?.[0] ?? '-'} (spread ${book.spread ?? '-'})`;
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).depth('BTCUSDT').pipe(orderBook())
 *   .subscribe((book) => console.log(describeBook(book))); // '30000 / 30000.1 (spread 0.1)'
 * ```
 */
export interface OrderBook {
  /** Currency pair of the snapshot (`''` when the record did not carry one). */
  readonly symbol: string;
  /** Data time of the snapshot, milliseconds. */
  readonly time: number;
  /** Bid levels, best (highest price) first. */
  readonly bids: readonly OrderBookLevel[];
  /** Ask levels, best (lowest price) first. */
  readonly asks: readonly OrderBookLevel[];
  /** Highest bid, when there is one. */
  readonly bestBid?: OrderBookLevel;
  /** Lowest ask, when there is one. */
  readonly bestAsk?: OrderBookLevel;
  /** `bestAsk - bestBid`, exact decimal text (negative when crossed); absent when a side is empty. */
  readonly spread?: string;
  /** `(bestBid + bestAsk) / 2`, exact decimal text; absent when a side is empty. */
  readonly mid?: string;
  /** The best bid is at or above the best ask (a locked book counts as crossed). */
  readonly crossed: boolean;
  /** The snapshot arrived with bids strictly descending and asks strictly ascending. */
  readonly sorted: boolean;
  /** Levels dropped because their price or quantity was not decimal text. */
  readonly invalidLevels: number;
}

/**
 * Options of {@link orderBook}.
 *
 * @example
 * ```ts
 * import { marketStreams, orderBook, type OrderBookConfig } from 'ex-streams';
 *
 * const topTen: OrderBookConfig = { levels: 10 };
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).depth('BTCUSDT').pipe(orderBook(topTen))
 *   .subscribe((book) => console.log(book.bids.length)); // 10
 * ```
 */
export interface OrderBookConfig {
  /** Levels kept per side after sorting. Default: all of them (the service sends up to 200). */
  readonly levels?: number | undefined;
}

type Cmp = (x: OrderBookLevel, y: OrderBookLevel) => number;
const ascending: Cmp = (x, y) => compareDecimal(x[0], y[0]);
const descending: Cmp = (x, y) => compareDecimal(y[0], x[0]);

function isLevel(l: unknown): l is OrderBookLevel {
  return Array.isArray(l) && typeof l[0] === 'string' && typeof l[1] === 'string' && isNonNegativeDecimal(l[0]) && isNonNegativeDecimal(l[1]);
}

/** Keeps valid levels, sorted by `cmp`, and tells whether they already were (strictly). */
function side(levels: readonly OrderBookLevel[], cmp: Cmp, limit: number) {
  const valid = levels.filter(isLevel);
  let sorted = true;
  for (let i = 1; i < valid.length && sorted; i++) sorted = cmp(valid[i - 1] as OrderBookLevel, valid[i] as OrderBookLevel) < 0;
  const ordered = sorted ? valid : [...valid].sort(cmp);
  return { levels: ordered.length > limit ? ordered.slice(0, limit) : ordered, sorted, invalid: levels.length - valid.length };
}

/** Builds the {@link OrderBook} view of one snapshot. Never throws. @internal */
export function toOrderBook(record: DepthSnapshot, limit = Infinity): OrderBook {
  const bids = side(record.b ?? [], descending, limit);
  const asks = side(record.a ?? [], ascending, limit);
  const bestBid = bids.levels[0];
  const bestAsk = asks.levels[0];
  const both = bestBid !== undefined && bestAsk !== undefined;
  const spread = both ? subtractDecimal(bestAsk[0], bestBid[0]) : undefined;
  const mid = both ? midDecimal(bestBid[0], bestAsk[0]) : undefined;
  return {
    symbol: record.s ?? '',
    time: record.t,
    bids: bids.levels,
    asks: asks.levels,
    ...(bestBid && { bestBid }),
    ...(bestAsk && { bestAsk }),
    ...(spread !== undefined && { spread }),
    ...(mid !== undefined && { mid }),
    crossed: both && compareDecimal(bestBid[0], bestAsk[0]) >= 0,
    sorted: bids.sorted && asks.sorted,
    invalidLevels: bids.invalid + asks.invalid,
  };
}

/**
 * Turns depth snapshots into checked order-book views: bids sorted descending, asks ascending, best
 * bid / ask, exact spread and mid as decimal text, and flags for a crossed (`bestBid >= bestAsk`) or
 * unsorted snapshot. Prices are compared as exact decimal text, never as floats. It never throws: an
 * unsorted snapshot is sorted (and flagged `sorted: false`), a malformed level is dropped and counted
 * in `invalidLevels`.
 *
 * ```
 * depth:     --d1------d2--------d3--|
 *              :        :          :
 * orderBook: --b1------b2--------b3--|     b = { bids, asks, bestBid, bestAsk, spread, mid, crossed, sorted }
 * ```
 *
 * Config: `levels` (default: all) keeps the best N levels per side.
 *
 * @example
 * ```ts
 * import { marketStreams, orderBook } from 'ex-streams';
 * const market = marketStreams({ url: 'wss://example.invalid/quote/ws/v1' });
 * market.depth('BTCUSDT').pipe(orderBook({ levels: 20 })).subscribe((book) => {
 *   if (book.crossed || !book.sorted) console.warn('suspicious book', book.time);
 *   console.log(book.bestBid?.[0], book.bestAsk?.[0], book.spread, Number(book.mid));
 *   // '27000.1' '27000.3' '0.2' 27000.2
 * });
 * ```
 */
export function orderBook<T extends DepthSnapshot>(config: OrderBookConfig = {}): OperatorFunction<T, OrderBook> {
  const { levels = Infinity } = config;
  return map((record) => toOrderBook(record, levels));
}
