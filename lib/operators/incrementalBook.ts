// Data path, market side (notes/architecture.md, "The data path"): step 8, an operator the user pipes after an incremental depth feed.
import { Observable, type OperatorFunction } from 'rxjs';
import { comparePlainText, compareDecimal, isNonNegativeDecimal, onlyZeros } from '../decimal/compare';
import { plainIntLength } from '../decimal/grammar';
import { midDecimal, subtractDecimal } from '../decimal/scaled';
import type { DepthSnapshot, OrderBook, OrderBookLevel } from './orderBook';

/**
 * A record of an incremental depth feed (`diffMergedDepth`): a {@link DepthSnapshot} whose `o` is its sequence
 * number. `o` 0 is a snapshot (the whole book); any other `o` is a delta of the changed levels, one more than the
 * previous record's; a level whose quantity is zero is deleted. A `DepthRecord` has these fields.
 *
 * @example
 * ```ts
 * import type { IncrementalDepth } from 'ex-streams';
 *
 * const snapshot: IncrementalDepth = { t: 1700000000000, o: '0', a: [['101', '1']], b: [['100', '3']] };
 * const delta: IncrementalDepth = { t: 1700000000300, o: '1', a: [['101', '0']], b: [['100.5', '2']] };
 * ```
 */
export interface IncrementalDepth extends DepthSnapshot {
  /** Sequence number: 0 (number or text) for a snapshot, then one more per delta. Absent: taken as a snapshot. */
  readonly o?: string | number | undefined;
}

/**
 * A break in an incremental depth feed, found by {@link incrementalBook}: the book it kept can no longer be trusted
 * and is not emitted again until a snapshot (`o` 0) comes.
 * - `'skipped'`: a delta's `o` is more than one past the previous one (deltas were lost);
 * - `'repeated'`: a delta's `o` is not above the previous one (a delta came twice, or out of order);
 * - `'no-snapshot'`: a delta came before any snapshot (the feed was joined in the middle).
 *
 * @example
 * ```ts
 * import type { BookGap } from 'ex-streams';
 *
 * const describe = (g: BookGap): string => `${g.symbol}: ${g.reason} (expected o ${g.expected}, got ${g.received})`;
 * ```
 */
export interface BookGap {
  /** Currency pair (`''` when the record did not carry one). */
  readonly symbol: string;
  readonly reason: 'skipped' | 'repeated' | 'no-snapshot';
  /** The `o` that should have come (text); `''` for `'no-snapshot'`. */
  readonly expected: string;
  /** The `o` that came, as text. */
  readonly received: string;
  /** Data time of the record that showed the break, ms. */
  readonly time: number;
}

/**
 * Options of {@link incrementalBook}.
 *
 * @example
 * ```ts
 * import { incrementalBook, type IncrementalBookConfig } from 'ex-streams';
 *
 * const config: IncrementalBookConfig = { levels: 20, onGap: (gap) => console.warn('book gap', gap.reason) };
 * const operator = incrementalBook(config);
 * ```
 */
export interface IncrementalBookConfig {
  /** Levels emitted per side (the best ones). Default: all of them. The book itself keeps every level. */
  readonly levels?: number | undefined;
  /** Called once per break (see {@link BookGap}), before the next snapshot is awaited. Default: none. */
  readonly onGap?: ((gap: BookGap) => void) | undefined;
}

/**
 * A sequence number: a `number` below 2^53, a `bigint` from there on (one form per value, so `===` compares them).
 * Numbers spare a `bigint` per record; `o` may be 64-bit text.
 */
type Sequence = number | bigint;

/** `b` in its {@link Sequence} form. */
const sequence = (b: bigint): Sequence => (b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b);

/** The sequence number after `s`. */
const after = (s: Sequence): Sequence => (typeof s === 'number' && s < Number.MAX_SAFE_INTEGER ? s + 1 : sequence(BigInt(s) + 1n));

/** Whether `a` is above `b`. */
const above = (a: Sequence, b: Sequence): boolean => (typeof a === typeof b ? a > b : typeof a === 'bigint');

/** The `o` of a record: 0 when absent; `undefined` when it is not an integer (up to 30 digits as text). */
function sequenceOf(o: string | number | undefined): Sequence | undefined {
  if (o === undefined) return 0;
  if (typeof o === 'number') return Number.isSafeInteger(o) ? o : undefined;
  const n = o.length;
  if (n === 0 || n > 30) return undefined;
  let value = 0;
  for (let i = 0; i < n; i++) {
    const d = o.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return undefined;
    value = value * 10 + d;
  }
  // up to 15 digits the number is exact; longer text through a bigint
  return n <= 15 ? value : sequence(BigInt(o));
}

/** Price order of one side: bids descending (`sign` -1), asks ascending (1). */
type Sign = 1 | -1;

/**
 * One side of a kept book: its levels sorted by price (`sign`), each price's integer-part length beside it
 * (`plainIntLength`, -1 when not plain) so a search compares plain prices as text without scanning them again.
 * The levels array is the side's own, changed in place (it is never handed out: the engine keeps room to grow it),
 * and the emitted side is a copy of its best levels, made once after a change and handed out again while the side
 * is unchanged (an emitted array is never written). A delta costs a binary search and a move of the tail per changed
 * level and one copy of each side it changed (`npm run bench -- --only=incremental`).
 */
class BookSide {
  private readonly levels: OrderBookLevel[] = [];
  private readonly ints: number[] = [];
  /** The emitted copy of the best `viewLimit` levels while the side is unchanged since. */
  private view: readonly OrderBookLevel[] | undefined;
  private viewLimit = Infinity;

  constructor(private readonly sign: Sign) {}

  get best(): OrderBookLevel | undefined {
    return this.levels[0];
  }

  clear(): void {
    this.levels.length = 0;
    this.ints.length = 0;
    this.view = undefined;
  }

  /** Index of `price` (integer part `int` long) in the side, or `-(insertion point) - 1`. */
  private find(price: string, int: number): number {
    const { levels, ints, sign } = this;
    let lo = 0;
    let hi = levels.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = ints[mid]!;
      const c = sign * (at >= 0 && int >= 0 ? comparePlainText(levels[mid]![0], at, price, int) : compareDecimal(levels[mid]![0], price));
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -lo - 1;
  }

  /** Applies the changed levels; returns how many were not valid levels (dropped). */
  apply(changes: DepthSnapshot['a']): number {
    let invalid = 0;
    const { levels, ints } = this;
    for (let i = 0; i < changes.length; i++) {
      const level: unknown = changes[i];
      if (!Array.isArray(level)) {
        invalid++;
        continue;
      }
      const price: unknown = level[0];
      const quantity: unknown = level[1];
      if (typeof price !== 'string' || typeof quantity !== 'string') {
        invalid++;
        continue;
      }
      // checked above: the level is two texts; plain text (the market's form) is a non-negative decimal already
      const int = plainIntLength(price);
      if (int < 0 && !isNonNegativeDecimal(price)) {
        invalid++;
        continue;
      }
      let remove: boolean;
      if (plainIntLength(quantity) >= 0) remove = onlyZeros(quantity, 0); // plain: zero is only zeros and the point
      else if (isNonNegativeDecimal(quantity)) remove = compareDecimal(quantity, '0') === 0;
      else {
        invalid++;
        continue;
      }
      const at = this.find(price, int);
      if (at >= 0) {
        if (remove) {
          levels.splice(at, 1);
          ints.splice(at, 1);
        } else levels[at] = level as unknown as OrderBookLevel;
      } else if (!remove) {
        levels.splice(-at - 1, 0, level as unknown as OrderBookLevel);
        ints.splice(-at - 1, 0, int);
      } else continue; // deleting a level not kept changes nothing
      this.view = undefined;
    }
    return invalid;
  }

  /** The best `limit` levels, as an array no one writes to. */
  emitted(limit: number): readonly OrderBookLevel[] {
    if (this.view === undefined || this.viewLimit !== limit) {
      this.view = this.levels.slice(0, limit); // all of them when `limit` is Infinity
      this.viewLimit = limit;
    }
    return this.view;
  }
}

/** The spread, mid and crossing of the last best prices, worked out again only when one of them changed. */
class Spread {
  private bid = '';
  private ask = '';
  spread: string | undefined;
  mid: string | undefined;
  crossed = false;

  /** Sets `spread`, `mid` and `crossed` to those of `bid` and `ask`. */
  of(bid: string, ask: string): this {
    if (bid !== this.bid || ask !== this.ask || this.spread === undefined) {
      this.spread = subtractDecimal(ask, bid);
      this.mid = midDecimal(bid, ask);
      this.crossed = compareDecimal(bid, ask) >= 0;
      this.bid = bid;
      this.ask = ask;
    }
    return this;
  }
}

/**
 * The {@link OrderBook} of a kept book (sides sorted, every level checked), as `toOrderBook` gives it for the same
 * levels, without its pass over them: only the best levels are read, a side unchanged since the last book is not
 * copied again, and the spread and mid are worked out again only when a best price moved.
 */
function viewOf(symbol: string, time: number, bids: BookSide, asks: BookSide, limit: number, invalidLevels: number, spreads: Spread): OrderBook {
  const bestBid = bids.best;
  const bestAsk = asks.best;
  if (bestBid !== undefined && bestAsk !== undefined) {
    const { spread, mid, crossed } = spreads.of(bestBid[0], bestAsk[0]);
    // the usual book: one literal (no object per optional field)
    if (spread !== undefined && mid !== undefined) {
      return { symbol, time, bids: bids.emitted(limit), asks: asks.emitted(limit), bestBid, bestAsk, spread, mid, crossed, sorted: true, invalidLevels };
    }
  }
  const top = bestBid !== undefined && bestAsk !== undefined ? spreads : undefined;
  return {
    symbol,
    time,
    bids: bids.emitted(limit),
    asks: asks.emitted(limit),
    ...(bestBid && { bestBid }),
    ...(bestAsk && { bestAsk }),
    ...(top?.spread !== undefined && { spread: top.spread }),
    ...(top?.mid !== undefined && { mid: top.mid }),
    crossed: top?.crossed ?? false,
    sorted: true,
    invalidLevels,
  };
}

/**
 * Keeps an order book from an incremental depth feed (`diffMergedDepth`: a snapshot, `o` 0, then deltas of the
 * changed levels, `o` rising by one; a zero quantity deletes its level) and emits it after every record as the
 * {@link OrderBook} `orderBook()` gives for the same book (the same output type: bids descending, asks ascending,
 * best levels, exact spread and mid). The sequence is checked: a delta whose `o` skips or repeats one, or one that
 * comes before any snapshot, is a {@link BookGap} handed to `onGap`; nothing more is emitted until the next snapshot
 * (never a book known to be wrong). `marketStreams().incrementalBook()` subscribes the feed again on a gap, so a
 * fresh snapshot follows.
 *
 * ```
 * feed:            --s0---d1---d2---d4---d5---s0---d1--|
 * incrementalBook: --b----b----b------------------b----b--|   onGap({ reason: 'skipped', expected: '3', received: '4' }) at d4
 * ```
 *
 * A level that is not decimal text (price or quantity) is dropped and counted in the emitted book's `invalidLevels`
 * (of that record). `sorted` is always true: the book is kept sorted.
 *
 * @example
 * ```ts
 * import { incrementalBook, marketStreams } from 'ex-streams';
 *
 * const market = marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' });
 * market.diffMergedDepth('BTCUSDT', { dumpScale: 2 })
 *   .pipe(incrementalBook({ levels: 20, onGap: (g) => console.warn(g.reason) }))
 *   .subscribe((book) => console.log(book.bestBid?.[0], book.bestAsk?.[0])); // '27000.1' '27000.3'
 * ```
 */
export function incrementalBook<T extends IncrementalDepth>(config: IncrementalBookConfig = {}): OperatorFunction<T, OrderBook> {
  const { levels = Infinity, onGap } = config;
  return (source) =>
    new Observable<OrderBook>((subscriber) => {
      const bids = new BookSide(-1);
      const asks = new BookSide(1);
      const spreads = new Spread();
      /** The `o` of the last record applied; `undefined`: waiting for a snapshot. */
      let last: Sequence | undefined;
      /** A break was signalled and no snapshot came since: the deltas meanwhile are dropped silently. */
      let broken = false;
      const emit = (record: T, invalidLevels: number): void => {
        subscriber.next(viewOf(record.s ?? '', record.t, bids, asks, levels, invalidLevels, spreads));
      };
      const gap = (record: T, reason: BookGap['reason'], expected: string): void => {
        last = undefined;
        bids.clear();
        asks.clear();
        if (broken) return;
        broken = true;
        onGap?.({ symbol: record.s ?? '', reason, expected, received: String(record.o), time: record.t });
      };
      return source.subscribe({
        next: (record) => {
          const o = sequenceOf(record.o);
          if (o === 0) {
            broken = false;
            bids.clear();
            asks.clear();
            // a snapshot may come unsorted or with repeated prices: applied level by level, it is kept sorted
            const invalid = bids.apply(record.b ?? []) + asks.apply(record.a ?? []);
            last = 0;
            emit(record, invalid);
            return;
          }
          if (last === undefined) {
            gap(record, 'no-snapshot', '');
            return;
          }
          if (o === undefined) {
            // not a sequence number: the chain cannot be checked
            gap(record, 'skipped', String(after(last)));
            return;
          }
          const expected = after(last);
          if (o !== expected) {
            gap(record, above(o, last) ? 'skipped' : 'repeated', String(expected));
            return;
          }
          last = o;
          const invalid = bids.apply(record.b ?? []) + asks.apply(record.a ?? []);
          emit(record, invalid);
        },
        error: (e: unknown) => subscriber.error(e),
        complete: () => subscriber.complete(),
      });
    });
}
