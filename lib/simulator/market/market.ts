import { KLINE_INTERVALS, candleStart, type Candle, type KlineInterval } from './candles';
import { div, MAX_UNITS, mul, SCALE } from '../../decimal/fixed';
import { mixSeed, mulberry32, randomInt } from '../core/random';
import type { SymbolInfo } from './symbols';

/** A public trade, scaled decimals. @internal */
export interface MarketTrade {
  readonly id: bigint;
  readonly t: number;
  readonly price: bigint;
  readonly qty: bigint;
  /** true when the buyer was the maker (the taker sold). */
  readonly m: boolean;
}

/** One price level, scaled decimals. @internal */
export interface Level {
  readonly price: bigint;
  qty: bigint;
}

/** An order book snapshot: bids descending, asks ascending, never crossed. @internal */
export interface Book {
  readonly version: number;
  readonly bids: Level[];
  readonly asks: Level[];
}

/** A shared, increasing 64-bit-style id source. @internal */
export interface IdSource {
  next(): bigint;
}

/** @internal */
export function idSource(start: bigint): IdSource {
  let next = start;
  return {
    next: () => {
      const id = next;
      next += 1n;
      return id;
    },
  };
}

const HISTORY = 1000;
/** Closed candles kept per interval: a page of `GET /quote/v1/klines` (older ones are synthetic: see candleHistory). */
const CANDLE_HISTORY = 1000;
const MAX_LEVELS = 200;

/**
 * The deterministic market of one pair: a random-walk mid price, a book derived from (mid, step) with up to
 * 200 levels per side, trades that hit the best level, candles for every kline interval and a 24h ticker.
 * Same seed, same sequence of `step` calls → same market.
 * @internal
 */
export class SymbolMarket {
  readonly trades: MarketTrade[] = [];
  private readonly random: () => number;
  private readonly tick: bigint;
  private readonly lot: bigint;
  private mid: bigint;
  private steps = 0;
  private cachedBook: Book | undefined;
  private readonly candles = new Map<KlineInterval, Candle>();
  /** The closed candles of each interval, oldest first (at most `CANDLE_HISTORY`; candles no trade touched are not kept). */
  private readonly closed = new Map<KlineInterval, Candle[]>();
  private readonly ticker: { open: bigint; high: bigint; low: bigint; volume: bigint; quoteVolume: bigint };
  /** A tick and a lot in whole units of the price and quantity decimals, and the price unit (see {@link freshLevels}). */
  private readonly units: { readonly tick: number; readonly lot: number; readonly price: bigint } | undefined;
  lastPrice: bigint;

  /**
   * `recorded`: the market of a recording (paper fills): no generated history, moves or book; trades and the
   * book come from {@link recordTrade} and {@link setBook}, and orders take from the book without consuming it.
   */
  constructor(
    readonly info: SymbolInfo,
    private readonly seed: number,
    private readonly tradeIds: IdSource,
    startMs: number,
    readonly recorded = false,
  ) {
    this.random = mulberry32(mixSeed(seed, info.symbol));
    this.tick = info.rules.tickSize;
    this.lot = info.rules.stepSize;
    this.mid = (info.startPrice / this.tick) * this.tick;
    this.lastPrice = this.mid;
    this.ticker = { open: this.mid, high: this.mid, low: this.mid, volume: 0n, quoteVolume: 0n };
    const price = 10n ** BigInt(Math.max(0, SCALE - info.priceDecimals));
    const qty = 10n ** BigInt(Math.max(0, SCALE - info.qtyDecimals));
    // a quantity is at most 20 000 lots (`drawBook`)
    const exact = this.tick % price === 0n && this.lot % qty === 0n && this.tick / price < BigInt(MAX_UNITS) && (20_000n * this.lot) / qty < BigInt(MAX_UNITS);
    this.units = exact ? { tick: Number(this.tick / price), lot: Number(this.lot / qty), price } : undefined;
    if (recorded) {
      this.cachedBook = { version: 0, bids: [], asks: [] };
      return;
    }
    // a history of at least 60 trades before start, so the first trade message is full
    for (let t = startMs - 30_000; this.trades.length < 100; t += 250) this.step(t);
  }

  /** Best bid and best ask prices (always one tick each side of the mid). */
  best(): { readonly bid: bigint; readonly ask: bigint } {
    return { bid: this.mid - this.tick, ask: this.mid + this.tick };
  }

  /** Moves the market one step at time `t`; returns the trades it made. */
  step(t: number): MarketTrade[] {
    if (this.recorded) return [];
    this.steps += 1;
    this.cachedBook = undefined;
    const move = BigInt(randomInt(this.random, -3, 3)) * this.tick;
    const floor = 1000n * this.tick;
    this.mid = this.mid + move < floor ? floor : this.mid + move;
    const count = randomInt(this.random, 1, 3);
    const made: MarketTrade[] = [];
    for (let i = 0; i < count; i++) {
      const takerSells = this.random() < 0.5;
      const { bid, ask } = this.best();
      const qty = BigInt(randomInt(this.random, 1, 500)) * this.lot;
      made.push(this.recordTrade(takerSells ? bid : ask, qty, takerSells, t));
    }
    return made;
  }

  /** Records a trade (market-made, an order's fill or a recorded one, `id` its own) in the history, candles and ticker. */
  recordTrade(price: bigint, qty: bigint, m: boolean, t: number, id: bigint = this.tradeIds.next()): MarketTrade {
    const trade: MarketTrade = { id, t, price, qty, m };
    if (this.recorded && this.ticker.volume === 0n) Object.assign(this.ticker, { open: price, high: price, low: price });
    this.trades.push(trade);
    if (this.trades.length > HISTORY) this.trades.splice(0, this.trades.length - HISTORY);
    this.lastPrice = price;
    const k = this.ticker;
    k.high = price > k.high ? price : k.high;
    k.low = price < k.low ? price : k.low;
    k.volume += qty;
    k.quoteVolume += mul(price, qty);
    for (const interval of KLINE_INTERVALS) {
      const c = this.candle(interval, t);
      // a candle's first trade opens it (as `GET /quote/v1/klines` builds it from the trades): until then it is flat at the last price
      if (c.v === 0n) c.o = c.h = c.l = price;
      c.h = price > c.h ? price : c.h;
      c.l = price < c.l ? price : c.l;
      c.c = price;
      c.v += qty;
      c.qv += mul(price, qty);
      c.n += 1;
    }
    return trade;
  }

  /** Moves the mid so that `price` sits inside the spread (used by injected trades). */
  moveTo(price: bigint): void {
    if (this.recorded) return; // the recorded book stays
    this.mid = (price / this.tick) * this.tick;
    this.cachedBook = undefined;
  }

  /** The current candle of `interval` at time `t` (flat at the last price when it has no trade yet). */
  candle(interval: KlineInterval, t: number): Candle {
    const start = candleStart(interval, t);
    const current = this.candles.get(interval);
    if (current !== undefined && current.t === start) return current;
    if (current !== undefined && current.t < start) {
      const kept = this.closed.get(interval) ?? [];
      this.closed.set(interval, kept);
      kept.push(current);
      if (kept.length > CANDLE_HISTORY) kept.splice(0, kept.length - CANDLE_HISTORY);
    }
    const p = this.lastPrice;
    const fresh: Candle = { t: start, o: p, h: p, l: p, c: p, v: 0n, qv: 0n, n: 0 };
    this.candles.set(interval, fresh);
    return fresh;
  }

  /** The current candle of `interval`, if the market made one (no roll to a new interval). */
  currentCandle(interval: KlineInterval): Candle | undefined {
    return this.candles.get(interval);
  }

  /**
   * Candles closed before the market's own (a recording's `klines` line, times on the simulator's clock), oldest
   * first: kept before the closed candles the market made, each open time once (the market's own win).
   */
  seedClosed(interval: KlineInterval, candles: readonly Candle[]): void {
    const own = this.closed.get(interval) ?? [];
    const first = own[0]?.t ?? this.candles.get(interval)?.t ?? Infinity;
    const byTime = new Map<number, Candle>();
    for (const c of candles) if (c.t < first) byTime.set(c.t, c);
    const kept = [...[...byTime.values()].sort((a, b) => a.t - b.t), ...own];
    this.closed.set(interval, kept.slice(-CANDLE_HISTORY));
  }

  /** The closed candles of `interval` kept, oldest first (a candle the market skipped, with no trade and no push, is not there). */
  closedCandles(interval: KlineInterval): readonly Candle[] {
    return this.closed.get(interval) ?? [];
  }

  /** The seed of the pair's market (synthetic candle history draws from it). */
  get marketSeed(): number {
    return mixSeed(this.seed, this.info.symbol);
  }

  /** The 24h ticker (since start: open is the start price). */
  stats(): { readonly open: bigint; readonly high: bigint; readonly low: bigint; readonly volume: bigint; readonly quoteVolume: bigint } {
    return this.ticker;
  }

  /** The book of the current step (levels consumed by orders stay consumed until the next step). */
  book(): Book {
    this.cachedBook ??= this.freshBook();
    return this.cachedBook;
  }

  /**
   * The book of the current step as {@link book} gives it, without keeping one that orders have not touched: a depth
   * push reads it once, and a book kept until the next step outlived the young generation's collections (the
   * simulator's scavenges copied ~45 books of 1 200 objects each at a whole venue's depth rate).
   */
  bookToWrite(): Book {
    return this.cachedBook ?? this.freshBook();
  }

  /**
   * The levels a depth push writes (up to `levels` a side) when orders have not touched this step's book: the values
   * and random draws of {@link freshBook}, as whole numbers of price and quantity units (10^-`priceDecimals`,
   * 10^-`qtyDecimals`), flat (`[price, qty, price, qty, …]`), with no bigint or object per level (a book of 200 levels
   * a side made ~2 400 bigints: a third of the simulator's garbage at a whole venue). `undefined` when this step's
   * book was touched or its values do not fit {@link formatUnits} (then {@link bookToWrite}).
   */
  freshLevels(levels: number): { readonly version: number; readonly asks: number[]; readonly bids: number[] } | undefined {
    const u = this.units;
    if (this.cachedBook !== undefined || u === undefined || !Number.isInteger(levels) || levels < 0) return undefined;
    const n = Math.min(levels, MAX_LEVELS);
    const { bid, ask } = this.best();
    if (ask / u.price + BigInt(n * u.tick) >= BigInt(MAX_UNITS)) return undefined;
    const askUnits = Number(ask / u.price);
    const bidUnits = Number(bid / u.price);
    const asks: number[] = [];
    const bids: number[] = [];
    this.drawBook(n, bid, (i, askLots, bidLots) => {
      asks.push(askUnits + i * u.tick, askLots * u.lot);
      if (bidLots !== undefined) bids.push(bidUnits - i * u.tick, bidLots * u.lot);
    });
    return { version: this.steps, asks, bids };
  }

  /** The current step's book, generated (the same for the same step: its random source is seeded by it). */
  private freshBook(): Book {
    const { bid, ask } = this.best();
    const bids: Level[] = [];
    const asks: Level[] = [];
    this.drawBook(MAX_LEVELS, bid, (i, askLots, bidLots) => {
      asks.push({ price: ask + BigInt(i) * this.tick, qty: BigInt(askLots) * this.lot });
      if (bidLots !== undefined) bids.push({ price: bid - BigInt(i) * this.tick, qty: BigInt(bidLots) * this.lot });
    });
    return { version: this.steps, bids, asks };
  }

  /**
   * The random draws of the current step's book, the one source of both its forms ({@link freshBook},
   * {@link freshLevels}): for each of `n` levels from the best, the ask's quantity in lots, then the bid's while its
   * price (from the best `bid`) stays above 0 (`undefined` past that). Seeded by the step: the same step, the same book.
   */
  private drawBook(n: number, bid: bigint, level: (i: number, askLots: number, bidLots: number | undefined) => void): void {
    const random = mulberry32(mixSeed(this.seed, `${this.info.symbol}:${this.steps}`));
    // bid - i × tick > 0 for i below this
    const bidLevels = bid > 0n ? Number((bid - 1n) / this.tick) + 1 : 0;
    for (let i = 0; i < n; i++) {
      const askLots = randomInt(random, 1, 20_000);
      level(i, askLots, i < bidLevels ? randomInt(random, 1, 20_000) : undefined);
    }
  }

  /**
   * What an incoming order would take now, best level first, without taking it: a BUY the asks priced at or
   * below `limit` (any price when undefined), a SELL the bids at or above it; up to `size.qty`, or whole steps
   * costing at most `size.amount` in all. `complete`: the whole quantity was found, or the amount is spent
   * down to less than one step at the next level's price (the book did not run out, nor did the limit stop it).
   */
  preview(side: 'BUY' | 'SELL', limit: bigint | undefined, size: OrderSize): { readonly fills: Fill[]; readonly complete: boolean } {
    return this.walk(side, limit, size, false);
  }

  /**
   * Takes the liquidity {@link preview} finds for up to `qty` (the levels it consumes stay consumed until the next
   * step; a recorded market's book is not changed: paper fills).
   */
  take(side: 'BUY' | 'SELL', limit: bigint | undefined, qty: bigint): Fill[] {
    return this.walk(side, limit, { qty }, !this.recorded).fills;
  }

  /** Replaces a recorded market's book (bids descending, asks ascending). */
  setBook(bids: Level[], asks: Level[]): void {
    this.steps += 1;
    this.cachedBook = { version: this.steps, bids, asks };
  }

  private walk(side: 'BUY' | 'SELL', limit: bigint | undefined, size: OrderSize, consume: boolean): { fills: Fill[]; complete: boolean } {
    const levels = side === 'BUY' ? this.book().asks : this.book().bids;
    const fills: Fill[] = [];
    const byQty = 'qty' in size;
    let left = byQty ? size.qty : size.amount;
    let complete = false;
    for (const level of levels) {
      if (left === 0n || (limit !== undefined && (side === 'BUY' ? level.price > limit : level.price < limit))) break;
      const wanted = byQty ? left : (div(left, level.price) / this.lot) * this.lot;
      if (wanted === 0n) {
        complete = true; // the rest of the amount buys less than one step
        break;
      }
      const q = level.qty < wanted ? level.qty : wanted;
      fills.push({ price: level.price, qty: q });
      left -= byQty ? q : mul(level.price, q);
    }
    if (consume) {
      for (const f of fills) {
        const level = levels[0];
        if (level !== undefined) level.qty -= f.qty;
        if (level !== undefined && level.qty === 0n) levels.shift();
      }
    }
    return { fills, complete: complete || left === 0n };
  }
}

/** One fill of an incoming order against the book, scaled decimals. @internal */
export interface Fill {
  readonly price: bigint;
  readonly qty: bigint;
}

/** How much an incoming order wants: a base quantity, or a quote amount to spend (market buys). @internal */
export type OrderSize = { readonly qty: bigint } | { readonly amount: bigint };
