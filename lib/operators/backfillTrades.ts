import {
  asyncScheduler,
  catchError,
  concatMap,
  defer,
  map,
  type MonoTypeOperatorFunction,
  type Observable,
  of,
  type SchedulerLike,
  take,
  throwError,
  timeout,
} from 'rxjs';
import { RateLimitedError, RequestTimeoutError } from '../errors';
import { compareDecimal } from '../decimal/compare';
import type { TradeBatch, TradeGap, TradeLike } from './distinctTrades';

/**
 * Options of {@link backfillTrades}.
 *
 * @example
 * ```ts
 * import type { BackfillTradesConfig } from 'ex-streams/history';
 *
 * const config: BackfillTradesConfig = { timeoutMs: 3000, onGap: (gap) => console.warn('lost after', gap.lastSeenId) };
 * ```
 */
export interface BackfillTradesConfig {
  /** Called with the part of a gap the fetch could not fill (see {@link backfillTrades}). Default: none. */
  readonly onGap?: ((gap: TradeGap) => void) | undefined;
  /** Called with the error of a fetch that failed or timed out (the gap is then left to `distinctTrades`). Default: none. */
  readonly onError?: ((error: unknown) => void) | undefined;
  /** Trades a first message replays (SPEC: 60); a full replay newer than the last trade seen triggers a fetch. Default 60. */
  readonly replaySize?: number | undefined;
  /** Trades one fetch returns at most (`GET /quote/v1/trades` serves up to 100). Default 100. */
  readonly limit?: number | undefined;
  /** How long a fetch may take (then it fails with a `RequestTimeoutError`); live messages wait behind it meanwhile. Default 5000. */
  readonly timeoutMs?: number | undefined;
  /** Clock of `timeoutMs` and of a `RateLimitedError`'s pause. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
}

const INTEGER = /^\d+$/;
/** The endpoint a fetch stands for, named in a `RequestTimeoutError`. */
const TRADES_PATH = '/quote/v1/trades';
const byId = (x: TradeLike, y: TradeLike): number => compareDecimal(x.v, y.v);

/** The oldest and newest integer ids of `trades`, if any. */
function idRange(trades: readonly TradeLike[]): { oldest: string; newest: string } | undefined {
  let oldest: string | undefined;
  let newest: string | undefined;
  for (const { v } of trades) {
    if (!INTEGER.test(v)) continue;
    if (oldest === undefined || compareDecimal(v, oldest) < 0) oldest = v;
    if (newest === undefined || compareDecimal(v, newest) > 0) newest = v;
  }
  return oldest === undefined || newest === undefined ? undefined : { oldest, newest };
}

/**
 * Fills trade gaps from a REST call before `distinctTrades` sees them. A first message after a resubscription
 * that is a full replay (`replaySize` trades) and does not reach back to the newest trade id seen on that
 * symbol means trades were missed: that message and the ones after it are held while `fetch(symbol)` asks for
 * the latest trades (one call, at most `timeoutMs`); those newer than the last seen are emitted first, as one
 * message (`first: false`, the gap's epoch), then the held messages. `distinctTrades` downstream drops what it
 * already emitted, so each id comes once and in order.
 *
 * What could not be recovered is still signalled: a fetch that is itself full (`limit` trades) and does not
 * reach back to the last seen id calls `onGap` for the trades older than it; a fetch that fails, times out, or
 * returns nothing newer leaves the message as it was, so `distinctTrades` signals the gap. After a
 * `RateLimitedError` no fetch is made for its `retryAfterMs` (gaps meanwhile go straight to `distinctTrades`).
 * Trades whose id is not an integer pass through and are never fetched against.
 *
 * ```
 * messages:       -a----------b-----c-|   a = first [1..3]; b = first [8..10] after a reconnect (replaySize 3)
 * fetch(symbol):              --f|        f = [5..9]
 * backfillTrades: -a------------(gbc)-|   g = [5, 6, 7, 8, 9] (first: false), then b and c as they came
 * ```
 *
 * Config: `onGap`, `onError` (default none), `replaySize` (60), `limit` (100), `timeoutMs` (5000), `scheduler`
 * (`asyncScheduler`).
 *
 * @example
 * ```ts
 * import { map } from 'rxjs';
 * import { marketStreams, restClient, type TradeRecord } from 'ex-streams';
 * import { backfillTrades, distinctTrades } from 'ex-streams/history';
 *
 * const rest = restClient({ baseUrl: 'https://api.example.com' });
 * const fetchTrades = (symbol: string) =>
 *   rest.trades({ symbol, limit: 100 }).pipe(
 *     map((trades) => trades.map((t): TradeRecord => ({ v: t.v ?? '', t: t.t, p: t.p, q: t.q, m: t.ibm ?? false }))),
 *   );
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).tradeMessages('BTCUSDT')
 *   .pipe(backfillTrades(fetchTrades), distinctTrades({ onGap: (g) => console.warn('lost after', g.lastSeenId) }))
 *   .subscribe((trade) => console.log(trade.v, trade.p));
 * ```
 */
export function backfillTrades<T extends TradeLike, B extends TradeBatch<T> = TradeBatch<T>>(
  fetch: (symbol: string) => Observable<readonly T[]>,
  config: BackfillTradesConfig = {},
): MonoTypeOperatorFunction<B> {
  const { onGap, onError, replaySize = 60, limit = 100, timeoutMs = 5000, scheduler = asyncScheduler } = config;
  return (source) =>
    defer(() => {
      /** The newest integer id passed on, per symbol. */
      const newest = new Map<string, string>();
      let pausedUntil = -Infinity;
      const pass = (batch: B): B => {
        const range = idRange(batch.data);
        const seen = newest.get(batch.symbol);
        if (range !== undefined && (seen === undefined || compareDecimal(range.newest, seen) > 0)) newest.set(batch.symbol, range.newest);
        return batch;
      };
      /** The fetched trades newer than `seen`, oldest first; reports what they cannot cover. */
      const missing = (trades: readonly T[], seen: string, batch: B): T[] => {
        const known = trades.filter((trade) => INTEGER.test(trade.v));
        const newer = known.filter((trade) => compareDecimal(trade.v, seen) > 0).sort(byId);
        const first = newer[0];
        if (first !== undefined && known.length >= limit && newer.length === known.length) {
          onGap?.({ symbol: batch.symbol, lastSeenId: seen, firstNewId: first.v, epoch: batch.epoch });
        }
        return newer;
      };
      const fill = (batch: B, seen: string): Observable<B> =>
        fetch(batch.symbol).pipe(
          timeout({ first: timeoutMs, scheduler, with: () => throwError(() => new RequestTimeoutError('GET', TRADES_PATH, timeoutMs)) }),
          take(1),
          map((trades) => missing(trades, seen, batch)),
          catchError((error: unknown) => {
            if (error instanceof RateLimitedError) pausedUntil = scheduler.now() + error.retryAfterMs;
            onError?.(error);
            return of([] as T[]);
          }),
          // the found trades travel as a message of the gap's own kind (a `MarketMessage` stays one), not a first one
          concatMap((found) => (found.length === 0 ? [batch] : [{ ...batch, first: false, data: found } as B, batch])),
          map(pass),
        );
      return source.pipe(
        concatMap((batch) => {
          const seen = newest.get(batch.symbol);
          const range = idRange(batch.data);
          const gap =
            batch.first &&
            seen !== undefined &&
            range !== undefined &&
            batch.data.length >= replaySize &&
            compareDecimal(range.oldest, seen) > 0 &&
            scheduler.now() >= pausedUntil;
          return gap ? fill(batch, seen) : of(pass(batch));
        }),
      );
    });
}
