// Data path, market side (notes/architecture.md, "The data path"): step 8, an operator the user pipes after depth().
import { map, type OperatorFunction } from 'rxjs';
import { comparePlainText, compareDecimal, isNonNegativeDecimal } from '../decimal/compare';
import { type DecimalText, plainIntLength } from '../decimal/grammar';
import { midDecimal, subtractDecimal } from '../decimal/scaled';

/**
 * One price level of an {@link OrderBook}: `[price, quantity]`, both {@link DecimalText} as the service sent
 * them (checked: decimal text, not negative). A level's price goes into an order as it is.
 *
 * @example
 * ```ts
 * import type { NewOrderRequest, OrderBookLevel } from 'ex-streams';
 *
 * const [price, quantity]: OrderBookLevel = ['30000.5', '0.25'];
 * const order: NewOrderRequest = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price, quantity };
 * ```
 */
export type OrderBookLevel = readonly [price: DecimalText, quantity: DecimalText];


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
  /** Ask levels `[price, quantity]`: text, checked by {@link orderBook} (a `DepthRecord`'s levels are `DecimalText`). */
  readonly a: readonly (readonly [price: string, quantity: string])[];
  /** Bid levels (may be empty), as `a`. */
  readonly b: readonly (readonly [price: string, quantity: string])[];
}

/** A level as {@link orderBook} takes it: any text, checked there. */
type LevelInput = DepthSnapshot['a'][number];

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

/** {@link plainIntLength} of a level's price when the level is valid and its price plain; -1 when valid but not plain; -2 when invalid. */
function plainPriceOf(l: unknown): number {
  if (!Array.isArray(l)) return -2;
  const price: unknown = l[0];
  const quantity: unknown = l[1];
  if (typeof price !== 'string' || typeof quantity !== 'string' || !isNonNegativeDecimal(quantity)) return -2;
  const int = plainIntLength(price);
  return int >= 0 ? int : isNonNegativeDecimal(price) ? -1 : -2;
}

/**
 * Keeps valid levels, sorted by `cmp` (`sign` 1 for ascending prices, -1 for descending), and tells whether they
 * already were (strictly). One pass over the levels in the common case (every level valid, prices plain decimal
 * text): each price is read once, for its validity and its integer-part length, and compared with the previous
 * one on that length (no parsing, no copy of the levels).
 */
function side(levels: readonly LevelInput[], cmp: Cmp, sign: 1 | -1, limit: number) {
  let filtered: readonly OrderBookLevel[] | undefined;
  let sorted = true;
  let previous = -1;
  for (let i = 0; i < levels.length; i++) {
    const int = plainPriceOf(levels[i]);
    if (int === -2) {
      const valid = levels.filter(isLevel);
      sorted = true;
      for (let j = 1; j < valid.length && sorted; j++) sorted = cmp(valid[j - 1] as OrderBookLevel, valid[j] as OrderBookLevel) < 0;
      filtered = valid;
      break;
    }
    if (i > 0 && sorted) {
      const a = (levels[i - 1] as LevelInput)[0];
      const b = (levels[i] as LevelInput)[0];
      sorted = sign * (int >= 0 && previous >= 0 ? comparePlainText(a, previous, b, int) : compareDecimal(a, b)) < 0;
    }
    previous = int;
  }
  // Without a level dropped, every level passed plainPriceOf (price and quantity decimal text, not negative): the
  // array itself is the valid levels, typed as what it was checked to be.
  const valid = filtered ?? (levels as readonly OrderBookLevel[]);
  const ordered = sorted ? valid : [...valid].sort(cmp);
  return { levels: ordered.length > limit ? ordered.slice(0, limit) : ordered, sorted, invalid: levels.length - valid.length };
}

/** Builds the {@link OrderBook} view of one snapshot. Never throws. @internal */
export function toOrderBook(record: DepthSnapshot, limit = Infinity): OrderBook {
  const bids = side(record.b ?? [], descending, -1, limit);
  const asks = side(record.a ?? [], ascending, 1, limit);
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
