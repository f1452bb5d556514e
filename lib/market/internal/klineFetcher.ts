import {
  asyncScheduler,
  catchError,
  concat,
  concatMap,
  defer,
  EMPTY,
  finalize,
  ignoreElements,
  map,
  type Observable,
  of,
  type SchedulerLike,
  share,
  take,
  throwError,
  timeout,
} from 'rxjs';
import type { KlineRecord } from '../../codecs/kline';
import { RateLimitedError, RequestTimeoutError } from '../../errors';
import { KlinePageRefusedError, klinePageFault } from './klinePageCheck';
import type { RestCalls } from '../../rest/callTypes';

/** One page request: the candles whose open time is at most `endTime`, the latest `limit` of them. @internal */
export interface KlinePageRequest {
  readonly endTime: number;
  readonly limit: number;
}

/** The candles asked for: those opening in `[from, endTime]`, the latest `count` of them. @internal */
export interface KlineRange {
  readonly endTime: number;
  /** Open time of the oldest candle wanted (`-Infinity`: no bound, `count` alone limits). */
  readonly from: number;
  /** Most candles wanted (`Infinity`: no bound, `from` alone limits). */
  readonly count: number;
}

/** What a fetch brought: its candles, oldest first, each open time once; `error` when it ended early. @internal */
export interface KlineFetch<K> {
  readonly candles: readonly K[];
  readonly error?: unknown;
}

/** Why the candles are fetched: a history before the first live candle, or the candles missed over a break. @internal */
export type KlineFetchKind = 'history' | 'reconnect';

const KLINES_PATH = '/quote/v1/klines';

/** @internal */
export interface KlineRangeConfig {
  /** Candles one page asks for at most (`GET /quote/v1/klines` serves up to 1000). Default 1000. */
  readonly pageLimit?: number | undefined;
  /** How long one page may take (then the fetch ends with a `RequestTimeoutError`). Default 5000. */
  readonly timeoutMs?: number | undefined;
  /** Clock of `timeoutMs`. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
  /** A page's refusal (rows off the grid, duplicated, out of order): the fetch ends with this error. Default: none. */
  readonly checkPage?: ((candles: readonly Pick<KlineRecord, 't'>[]) => Error | undefined) | undefined;
}

/**
 * The candles of `range`, newest page first: `endTime`, then one ms before the oldest candle of the page before,
 * until `count` are in hand, a page reaches back to `from`, or a page comes back short (the service has no
 * older ones). One value, then complete; never errors: a page that fails or takes longer than `timeoutMs` ends
 * the fetch with the candles in hand (the newer ones) and its `error`. @internal
 */
export function fetchKlineRange<K extends Pick<KlineRecord, 't'>>(
  fetchPage: (request: KlinePageRequest) => Observable<readonly K[]>,
  range: KlineRange,
  config: KlineRangeConfig = {},
): Observable<KlineFetch<K>> {
  const { pageLimit = 1000, timeoutMs = 5000, scheduler = asyncScheduler, checkPage } = config;
  const { from, count } = range;
  return defer(() => {
    const got = new Map<number, K>();
    let failure: { error: unknown } | undefined;
    const page = (endTime: number): Observable<never> => {
      const limit = Math.min(pageLimit, count - got.size);
      return fetchPage({ endTime, limit }).pipe(
        timeout({ first: timeoutMs, scheduler, with: () => throwError(() => new RequestTimeoutError('GET', KLINES_PATH, timeoutMs)) }),
        take(1),
        concatMap((candles) => {
          const refused = checkPage?.(candles);
          if (refused !== undefined) return throwError(() => refused);
          let oldest = Infinity;
          for (const candle of candles) {
            if (!(candle.t <= endTime)) continue;
            oldest = Math.min(oldest, candle.t);
            if (candle.t >= from && !got.has(candle.t)) got.set(candle.t, candle);
          }
          const done = candles.length < limit || got.size >= count || oldest <= from || oldest === Infinity;
          return done ? EMPTY : page(oldest - 1);
        }),
        ignoreElements(),
      );
    };
    const found = defer(() => {
      const candles = [...got.values()].sort((x, y) => x.t - y.t).slice(-count);
      return of(failure === undefined ? { candles } : { candles, error: failure.error });
    });
    const start = Math.min(pageLimit, count) > 0 ? defer(() => page(range.endTime)) : EMPTY;
    return concat(
      start.pipe(
        catchError((error: unknown) => {
          failure = { error };
          return EMPTY;
        }),
      ),
      found,
    );
  });
}

/** @internal */
export interface KlineFetcherConfig<K> extends KlineRangeConfig {
  /** One page of `symbol`'s candles of `interval`. */
  readonly fetchPage: (symbol: string, interval: string, request: KlinePageRequest) => Observable<readonly K[]>;
  /** A fetch ended early with this error (called once per fetch, however many observers share it). */
  readonly onError?: ((error: unknown) => void) | undefined;
  /** A fetch of candles missed over a break starts (once per shared fetch). */
  readonly onRefetch?: (() => void) | undefined;
  /** The grid of an interval's open times, ms (0: not fixed or not known: only the rows' order is checked). Default 0. */
  readonly gridMs?: ((interval: string) => number) | undefined;
}

/** A fetch in flight, which an observer whose range it covers joins. */
interface InFlight<K> {
  readonly range: KlineRange;
  readonly result$: Observable<KlineFetch<K>>;
}

const covers = (a: KlineRange, b: KlineRange): boolean => a.endTime === b.endTime && a.from <= b.from && a.count >= b.count;

/**
 * The candle fetches of one `marketStreams`, shared and paced:
 * - an observer asking for a range that a fetch in flight for the same `(symbol, interval)` covers (the same
 *   `endTime`, reaching back as far, as many candles) joins it: observers of one subscription that need the same
 *   history, or the same missed candles after a reconnect, make one fetch; each takes its own part (`from`,
 *   the latest `count`). Nothing is kept once a fetch is done.
 * - after a `RateLimitedError` no fetch is made for its `retryAfterMs` (for any symbol: the limit is the REST
 *   service's): a fetch asked meanwhile brings nothing, with that error.
 * @internal
 */
export function klineFetcher<K extends Pick<KlineRecord, 't'>>(
  config: KlineFetcherConfig<K>,
): (symbol: string, interval: string, range: KlineRange, kind: KlineFetchKind) => Observable<KlineFetch<K>> {
  const { fetchPage, onError, onRefetch, gridMs, scheduler = asyncScheduler } = config;
  const inFlight = new Map<string, InFlight<K>[]>();
  let paused: { until: number; error: RateLimitedError } | undefined;
  const start = (key: string, symbol: string, interval: string, range: KlineRange, kind: KlineFetchKind): Observable<KlineFetch<K>> => {
    const entry: InFlight<K> = {
      range,
      result$: defer(() => {
        if (kind === 'reconnect') onRefetch?.();
        const grid = gridMs?.(interval) ?? 0;
        // the grid counts from the first live candle (`endTime + 1`): its open time is on it
        const checkPage = (candles: readonly Pick<KlineRecord, 't'>[]): Error | undefined => {
          const fault = klinePageFault(candles, grid, range.endTime + 1);
          return fault && new KlinePageRefusedError(symbol, interval, fault.fault, fault.openTime);
        };
        return fetchKlineRange((page) => fetchPage(symbol, interval, page), range, { ...config, checkPage });
      }).pipe(
        map((fetched) => {
          if (fetched.error !== undefined) {
            if (fetched.error instanceof RateLimitedError) paused = { until: scheduler.now() + fetched.error.retryAfterMs, error: fetched.error };
            onError?.(fetched.error);
          }
          return fetched;
        }),
        finalize(() => {
          const left = inFlight.get(key)?.filter((e) => e !== entry) ?? [];
          if (left.length === 0) inFlight.delete(key);
          else inFlight.set(key, left);
        }),
        share(),
      ),
    };
    inFlight.set(key, [...(inFlight.get(key) ?? []), entry]);
    return entry.result$;
  };
  return (symbol, interval, range, kind) =>
    defer(() => {
      if (paused !== undefined && scheduler.now() < paused.until) return of<KlineFetch<K>>({ candles: [], error: paused.error });
      const key = `${symbol}|${interval}`;
      const joined = inFlight.get(key)?.find((e) => covers(e.range, range));
      return (joined?.result$ ?? start(key, symbol, interval, range, kind)).pipe(map((fetched) => partOf(fetched, joined?.range ?? range, range)));
    });
}

/** The part of a fetch of `asked` that `wanted` (which `asked` covers) wants; its error only when it falls short. */
function partOf<K extends Pick<KlineRecord, 't'>>(fetched: KlineFetch<K>, asked: KlineRange, wanted: KlineRange): KlineFetch<K> {
  if (asked === wanted) return fetched;
  const candles = fetched.candles.filter((c) => c.t >= wanted.from).slice(-wanted.count);
  return fetched.error === undefined || candles.length >= wanted.count ? { candles } : { candles, error: fetched.error };
}

/** `GET /quote/v1/klines` pages as stream kline records (open time and prices). @internal */
export function restKlinePages(rest: Pick<RestCalls, 'klines'>): (symbol: string, interval: string, request: KlinePageRequest) => Observable<KlineRecord[]> {
  return (symbol, interval, { endTime, limit }) =>
    rest.klines({ symbol, interval, endTime, limit }).pipe(map((candles) => candles.map(({ t, o, h, l, c, v }): KlineRecord => ({ t, o, h, l, c, v }))));
}
