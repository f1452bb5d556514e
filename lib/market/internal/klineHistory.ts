import {
  asyncScheduler,
  catchError,
  concat,
  concatMap,
  defer,
  EMPTY,
  from,
  ignoreElements,
  map,
  type MonoTypeOperatorFunction,
  type Observable,
  of,
  type SchedulerLike,
  take,
  throwError,
  timeout,
} from 'rxjs';
import type { KlineRecord } from '../../codecs/kline';
import { RequestTimeoutError } from '../../errors';
import type { RestCalls } from '../../rest/callTypes';

/** One page request of a history: the candles whose open time is at most `endTime`, the latest `limit` of them. @internal */
export interface KlinePageRequest {
  readonly endTime: number;
  readonly limit: number;
}

/** What a history that failed could not deliver (see {@link klineHistory}). @internal */
export interface KlineHistoryShortfall {
  /** Open time of the first live candle: the history ends before it. */
  readonly firstLiveTime: number;
  /** Candles of the `history` asked for that were not emitted (the older ones). */
  readonly missing: number;
  /** Why: the fetch's error (a `RateLimitedError`, a `RequestTimeoutError`, …). */
  readonly error: unknown;
}

/** @internal */
export interface KlineHistoryConfig {
  /** Closed candles to emit before the live ones. Required, a positive integer. */
  readonly history: number;
  /** Candles one page asks for at most (`GET /quote/v1/klines` serves up to 1000). Default 1000. */
  readonly pageLimit?: number | undefined;
  /** How long one page may take (then the history fails with a `RequestTimeoutError`). Default 5000. */
  readonly timeoutMs?: number | undefined;
  /** Called once when the history failed, with what it could not deliver. Default: none. */
  readonly onShortfall?: ((shortfall: KlineHistoryShortfall) => void) | undefined;
  /** Clock of `timeoutMs`. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
}

const KLINES_PATH = '/quote/v1/klines';

/**
 * Puts the last `history` closed candles before the live ones. The first live candle (open time `T`) and those
 * after it are held while `fetchPage` is asked, newest page first, for candles opening before `T`
 * (`endTime: T - 1`, then `endTime` one ms before the oldest candle of the page before), until `history` are in
 * hand or a page comes back short. They are emitted oldest first, each open time once, then the held live
 * candles, then the live ones as they come: no candle twice, no hole at the seam (the live one is the open
 * candle `T`). A page that fails or takes longer than `timeoutMs` ends the fetch: the newer candles already in
 * hand are emitted, `onShortfall` is told how many are missing, and the live candles flow on.
 *
 * ```
 * live:          -a-b------c-|     a, b: open time T; c: T + 1 interval
 * fetchPage:      -p|              p = [T - 2i, T - i]
 * klineHistory:  --(pab)---c-|     p's two candles, then a, b and c as they came
 * ```
 * @internal
 */
export function klineHistory<K extends Pick<KlineRecord, 't'>>(
  fetchPage: (request: KlinePageRequest) => Observable<readonly K[]>,
  config: KlineHistoryConfig,
): MonoTypeOperatorFunction<K> {
  const { history, pageLimit = 1000, timeoutMs = 5000, onShortfall, scheduler = asyncScheduler } = config;
  const before = (firstLiveTime: number): Observable<K> =>
    defer(() => {
      const got = new Map<number, K>();
      let failure: { error: unknown } | undefined;
      const page = (endTime: number): Observable<never> => {
        const limit = Math.min(pageLimit, history - got.size);
        return fetchPage({ endTime, limit }).pipe(
          timeout({ first: timeoutMs, scheduler, with: () => throwError(() => new RequestTimeoutError('GET', KLINES_PATH, timeoutMs)) }),
          take(1),
          concatMap((candles) => {
            let oldest = Infinity;
            for (const candle of candles) {
              if (candle.t > endTime || got.has(candle.t)) continue;
              got.set(candle.t, candle);
              oldest = Math.min(oldest, candle.t);
            }
            return candles.length < limit || got.size >= history || oldest === Infinity ? EMPTY : page(oldest - 1);
          }),
          ignoreElements(),
        );
      };
      const found = defer(() => {
        const candles = [...got.values()].sort((x, y) => x.t - y.t).slice(-history);
        if (failure !== undefined) onShortfall?.({ firstLiveTime, missing: history - candles.length, error: failure.error });
        return from(candles);
      });
      return concat(
        page(firstLiveTime - 1).pipe(
          catchError((error: unknown) => {
            failure = { error };
            return EMPTY;
          }),
        ),
        found,
      );
    });
  return (source) => source.pipe(concatMap((candle, i) => (i === 0 ? concat(before(candle.t), of(candle)) : of(candle))));
}

/** `GET /quote/v1/klines` pages of `symbol` and `interval` as stream kline records (open time and prices). @internal */
export function restKlinePages(
  rest: Pick<RestCalls, 'klines'>,
  symbol: string,
  interval: string,
): (request: KlinePageRequest) => Observable<KlineRecord[]> {
  return ({ endTime, limit }) =>
    rest.klines({ symbol, interval, endTime, limit }).pipe(map((candles) => candles.map(({ t, o, h, l, c, v }): KlineRecord => ({ t, o, h, l, c, v }))));
}
