// Data path, market side (notes/architecture.md, "The data path"): step 7 of trades() (one id once, in order); also an operator users pipe.
import { defer, type OperatorFunction } from 'rxjs';
import { flatMapArray } from '../internal/flatMapArray';
import { compareDecimal, compareDigits } from '../decimal/compare';
import { skipDigits } from '../decimal/grammar';

/** Whether `id` is an integer in decimal text (`/^\d+$/`, without the regex engine). */
const isIntegerId = (id: string): boolean => id.length > 0 && skipDigits(id, 0, id.length) === id.length;

/**
 * The field of a trade that {@link distinctTrades} reads: its id `v`, 64-bit decimal text.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import { distinctTrades, type TradeLike } from 'ex-streams/history';
 *
 * const trades: TradeLike[] = [{ v: '2' }, { v: '1' }, { v: '3' }];
 * of({ symbol: 'BTCUSDT', first: true, epoch: 1, data: trades }).pipe(distinctTrades())
 *   .subscribe((t) => console.log(t.v)); // '1', '2', '3'
 * ```
 */
export interface TradeLike {
  readonly v: string;
}

/**
 * One trade message as {@link distinctTrades} needs it (a `MarketMessage<TradeRecord>` fits).
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import { distinctTrades, type TradeBatch, type TradeLike } from 'ex-streams/history';
 *
 * const batches: TradeBatch<TradeLike>[] = [
 *   { symbol: 'BTCUSDT', first: true, epoch: 1, data: [{ v: '1' }, { v: '2' }] },
 *   { symbol: 'BTCUSDT', first: true, epoch: 2, data: [{ v: '2' }, { v: '3' }] }, // replay after a reconnect
 * ];
 * of(...batches).pipe(distinctTrades()).subscribe((t) => console.log(t.v)); // '1', '2', '3'
 * ```
 */
export interface TradeBatch<T extends TradeLike> {
  readonly symbol: string;
  /** The first message of a (re)subscription: it carries the most recent 60 trades. */
  readonly first: boolean;
  /** Connection epoch the message arrived in. */
  readonly epoch: number;
  readonly data: readonly T[];
}

/**
 * Trades may have been missed: the first message of a resubscription does not reach back to the last
 * trade seen before it (every trade it carries is newer than `lastSeenId`) although it is a full replay
 * window (60 trades), so older trades the service no longer replays may have happened in between; or a
 * replay carries trades older than the newest one emitted that were never emitted (lost on a socket that
 * stayed open): they can no longer be delivered in order, and the gap spans the emitted ids around them.
 * Trade ids are not consecutive on real venues, so "missing" is "may be missing". `marketStreams`'s
 * `tradeBackfill` (or `backfillTrades`) fills such gaps over HTTP when it can and then signals only the rest.
 *
 * @example
 * ```ts
 * import { marketStreams } from 'ex-streams';
 * import type { TradeGap } from 'ex-streams/history';
 *
 * const warn = (gap: TradeGap) =>
 *   console.warn(`${gap.symbol}: trades between ${gap.lastSeenId} and ${gap.firstNewId} may be missing (epoch ${gap.epoch})`);
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).gaps$.subscribe(warn);
 * ```
 */
export interface TradeGap {
  readonly symbol: string;
  /** The newest trade id emitted before the gap. */
  readonly lastSeenId: string;
  /** The oldest trade id of the first message after the gap (for a hole found in a replay: the first id emitted after it). */
  readonly firstNewId: string;
  /** Connection epoch of that first message. */
  readonly epoch: number;
}

/**
 * Options of {@link distinctTrades}.
 *
 * @example
 * ```ts
 * import { marketStreams } from 'ex-streams';
 * import { distinctTrades, type DistinctTradesConfig } from 'ex-streams/history';
 *
 * const config: DistinctTradesConfig = { onGap: (gap) => console.warn('gap after', gap.lastSeenId), replaySize: 60 };
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).tradeMessages('BTCUSDT').pipe(distinctTrades(config))
 *   .subscribe((trade) => console.log(trade.v, trade.p));
 * ```
 */
export interface DistinctTradesConfig {
  /** Called with each {@link TradeGap} detected. Default: none (gaps are not reported). */
  readonly onGap?: ((gap: TradeGap) => void) | undefined;
  /**
   * How many trades the first message of a subscription replays (SPEC: the most recent 60). A first
   * message with fewer trades holds every trade the service had, so it cannot hide a gap. Default 60.
   */
  readonly replaySize?: number | undefined;
}

const byId = (x: TradeLike, y: TradeLike): number => compareDecimal(x.v, y.v);

/**
 * Whether trades between `lastSeen` and the replay could have been lost: the replay does not reach back
 * to `lastSeen` (its oldest id is newer) and it is full, so older trades were cut off. Ids need not be
 * consecutive, so nothing is inferred from their distance.
 */
function isGap(lastSeen: string, oldest: string, replayed: number, replaySize: number): boolean {
  return replayed >= replaySize && compareDecimal(oldest, lastSeen) > 0;
}

function isSorted<T extends TradeLike>(trades: readonly T[]): boolean {
  for (let i = 1; i < trades.length; i++) if (!(byId(trades[i - 1] as T, trades[i] as T) <= 0)) return false;
  return true;
}

/** What {@link distinctTrades} remembers of one symbol. */
interface SymbolState {
  /** The newest integer id emitted. */
  seen: string | undefined;
  /** The last `replaySize` integer ids emitted, oldest first (a replay cannot reach back further). */
  readonly recent: string[];
  /** Ids already reported as missed (newer than `recent[0]`), so a later replay does not report them again. */
  readonly reported: Set<string>;
}

/** Index of the first id in the ascending `ids` that is not below `id`. */
function lowerBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareDecimal(ids[mid] as string, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A replayed trade older than the newest one emitted: if it is inside the remembered window and was never
 * emitted, it was missed (e.g. frames lost on a socket that stayed open) and can no longer be emitted in
 * order: the gap between the emitted ids around it is returned (once per hole and per trade).
 */
function missed(id: string, state: SymbolState): TradeGap | undefined {
  const { recent, reported } = state;
  const at = lowerBound(recent, id);
  if (at === 0 || at === recent.length || recent[at] === id || reported.has(id)) return undefined;
  reported.add(id);
  return { symbol: '', lastSeenId: recent[at - 1] as string, firstNewId: recent[at] as string, epoch: 0 };
}

function remember(state: SymbolState, id: string, replaySize: number): void {
  const { recent, reported } = state;
  recent.push(id);
  if (recent.length < 2 * replaySize) return;
  recent.splice(0, recent.length - replaySize);
  const oldest = recent[0] as string;
  for (const r of reported) if (compareDecimal(r, oldest) <= 0) reported.delete(r);
}

/**
 * Whether every trade of `trades` has an integer id above the one before it, the first above `seen`: then all
 * are new and in order, and nothing needs sorting, dropping or reporting.
 */
function allNewInOrder(trades: readonly TradeLike[], seen: string | undefined): boolean {
  let last = seen;
  for (let i = 0; i < trades.length; i++) {
    const id = (trades[i] as TradeLike).v;
    if (!isIntegerId(id) || (last !== undefined && compareDigits(id, last) <= 0)) return false;
    last = id;
  }
  return true;
}

/** The trades of `batch` not emitted yet, oldest first; updates `state` and reports gaps. */
function fresh<T extends TradeLike>(
  batch: TradeBatch<T>,
  state: SymbolState,
  replaySize: number,
  onGap?: (gap: TradeGap) => void,
): readonly T[] {
  // The common case, a live message of new trades (no replay that could show a gap): passed on as it is.
  if (!(batch.first && state.seen !== undefined) && allNewInOrder(batch.data, state.seen)) {
    for (const trade of batch.data) remember(state, trade.v, replaySize);
    if (batch.data.length > 0) state.seen = (batch.data[batch.data.length - 1] as T).v;
    return batch.data;
  }
  const trades = isSorted(batch.data) ? batch.data : [...batch.data].sort(byId);
  let seen = state.seen;
  if (batch.first && seen !== undefined) {
    const oldest = trades.find((trade) => isIntegerId(trade.v));
    if (oldest !== undefined && isGap(seen, oldest.v, trades.length, replaySize)) {
      onGap?.({ symbol: batch.symbol, lastSeenId: seen, firstNewId: oldest.v, epoch: batch.epoch });
    }
  }
  const out: T[] = [];
  let hole: TradeGap | undefined;
  for (const trade of trades) {
    if (!isIntegerId(trade.v)) out.push(trade); // an id that cannot be ordered passes through untracked
    else if (seen === undefined || compareDigits(trade.v, seen) > 0) {
      out.push(trade);
      seen = trade.v;
      remember(state, seen, replaySize);
    } else {
      const gap = missed(trade.v, state);
      if (gap === undefined || (hole !== undefined && hole.firstNewId === gap.firstNewId)) continue;
      if (hole !== undefined) onGap?.(hole);
      hole = { ...gap, symbol: batch.symbol, epoch: batch.epoch };
    }
  }
  if (hole !== undefined) onGap?.(hole);
  state.seen = seen;
  return out;
}

/**
 * Flattens trade messages into single trades, each trade id exactly once and in id order. The trade
 * topic's first message after every (re)subscription repeats the most recent 60 trades; trades whose id
 * is not above the newest id already emitted (per symbol) are dropped. Ids are 64-bit decimal text and
 * are compared exactly (never as `Number`). When a first message does not reach back to the newest trade
 * seen and is a full replay window, trades may have been lost while disconnected: `onGap` receives a
 * {@link TradeGap}. So it does when a replay shows trades older than the newest emitted that were never
 * emitted (the last `replaySize` emitted ids per symbol are remembered to tell): each hole once.
 *
 * ```
 * messages:     -a------b--------c-----|   a = first [1,2,3]; b = [4]; c = first [3,4,5] (after a reconnect)
 * distinctTrades: -(123)--4--------5-----|   c repeats 3 and 4: only 5 is new, no gap
 * ```
 *
 * Config: `onGap` (default none), `replaySize` (default 60).
 *
 * @example
 * ```ts
 * import { marketStreams } from 'ex-streams';
 * import { distinctTrades } from 'ex-streams/history';
 * const market = marketStreams({ url: 'wss://example.invalid/quote/ws/v1' });
 * // market.trades('BTCUSDT') already does this; on raw messages:
 * market.tradeMessages('BTCUSDT')
 *   .pipe(distinctTrades({ onGap: (g) => console.warn(`trades after ${g.lastSeenId} may be missing`) }))
 *   .subscribe((trade) => console.log(trade.v, trade.p, trade.q));
 * ```
 */
export function distinctTrades<T extends TradeLike>(config: DistinctTradesConfig = {}): OperatorFunction<TradeBatch<T>, T> {
  const { onGap, replaySize = 60 } = config;
  return (source) =>
    defer(() => {
      const states = new Map<string, SymbolState>();
      const stateOf = (symbol: string): SymbolState => {
        let state = states.get(symbol);
        if (state === undefined) states.set(symbol, (state = { seen: undefined, recent: [], reported: new Set() }));
        return state;
      };
      // `mergeMap((batch) => fresh(batch, …))` without an inner subscription per message (see flatMapArray).
      return source.pipe(flatMapArray((batch: TradeBatch<T>) => fresh(batch, stateOf(batch.symbol), replaySize, onGap)));
    });
}
