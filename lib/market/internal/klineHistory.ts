import { concat, concatMap, defer, EMPTY, from, type Observable, type OperatorFunction } from 'rxjs';
import type { KlineRecord } from '../../codecs/kline';
import type { KlineGap } from '../klineGap';
import type { MarketMessage } from '../marketMessage';
import type { KlineFetch, KlineFetchKind, KlineRange } from './klineFetcher';
import { KlinePageRefusedError } from './klinePageCheck';

/** A gap as the operator sees it: a `KlineGap` without its symbol and interval. @internal */
export type KlineHistoryGap = Omit<KlineGap, 'symbol' | 'interval'>;

/** @internal */
export interface KlineHistoryConfig<K> {
  /** Closed candles to emit before the first live one; 0: none (only the candles missed over a break are fetched). */
  readonly history: number;
  /** The interval's length in ms (0 when unknown: a break's range is then fetched page by page back to its start). */
  readonly intervalMs: number;
  /** The candles of a range (see `klineFetcher`): one value, never an error. */
  readonly fetch: (range: KlineRange, kind: KlineFetchKind) => Observable<KlineFetch<K>>;
  /** Candles that may be missing: a fetch that ended early, or a history that came short. Default: none. */
  readonly onGap?: ((gap: KlineHistoryGap) => void) | undefined;
}

/** The gap's `fault`: a refused page's, none for a fetch that failed. */
const faultOf = (error: unknown): Pick<KlineHistoryGap, 'fault'> => (error instanceof KlinePageRefusedError ? { fault: error.fault } : {});

/** Every field of the fetched candle has the same value in the emitted one (a stream record may carry more: `s`, `sn`). */
function sameCandle(fetched: object, emitted: object): boolean {
  const x = fetched as Record<string, unknown>;
  const y = emitted as Record<string, unknown>;
  return Object.keys(x).every((key) => x[key] === y[key]);
}

/**
 * The candles of kline messages, with the closed candles a break hid fetched in between (and, with `history`,
 * the last `history` closed candles first). Messages are handled one at a time, in order; while a fetch is in
 * flight the messages after it are held.
 *
 * - The first message with a candle (open time `T`): with `history`, the `history` candles opening before `T`
 *   are fetched (`endTime: T - 1`) and emitted oldest first, then the message's candles.
 * - A message that starts a new epoch (`first`, or another `epoch` than the message before: a resubscription,
 *   after a reconnect or a stale topic) whose first candle `T` opened after the last candle emitted (`L`, maybe
 *   still open then): the candles opening in `[L, T)` are fetched (from `L + 1` when `L` came from a fetch:
 *   closed) and emitted oldest first, `L` again only when the fetch holds another version of it (its final one),
 *   then the message's candles. The same open time then never follows a later one, so `closedCandles()`
 *   downstream emits every candle once, in its final version.
 * - A fetch that ends early (an error, a deadline, a rate limit, a refused page) emits the newer candles it brought;
 *   `onGap` is told the range that may be missing, and the live candles flow on. A history answered with fewer than
 *   `history` candles and no error is a gap too (`fault: 'short'`).
 *
 * ```
 * messages:     -a---------(b)-c-|   a = [L] (open, epoch 1); b = first [T = L + 3i] (epoch 2)
 * fetch:                   -f|       f = [L', L + i, L + 2i] (L' = L closed)
 * klineHistory: -a----------(fghbc)  L', L + i, L + 2i, then b and c
 * ```
 * @internal
 */
export function klineHistory<K extends Pick<KlineRecord, 't'>>(config: KlineHistoryConfig<K>): OperatorFunction<Pick<MarketMessage<K>, 'first' | 'epoch' | 'data'>, K> {
  const { history, intervalMs, fetch, onGap } = config;
  return (source) =>
    defer(() => {
      let last: K | undefined;
      /** `last` came from a fetch: it is closed, its version final. */
      let lastClosed = false;
      let epoch: number | undefined;
      let started = false;
      const emit = (candles: readonly K[], closed: boolean): Observable<K> => {
        const end = candles[candles.length - 1];
        if (end !== undefined) {
          last = end;
          lastClosed = closed;
        }
        return from(candles);
      };
      const before = (firstLiveTime: number): Observable<K> =>
        fetch({ endTime: firstLiveTime - 1, from: -Infinity, count: history }, 'history').pipe(
          concatMap(({ candles, error }) => {
            const missing = history - candles.length;
            if (error !== undefined || missing > 0) {
              const to = candles[0]?.t ?? firstLiveTime;
              const fault = error === undefined ? { fault: 'short' as const } : faultOf(error);
              onGap?.({ reason: 'history', from: to - missing * intervalMs, to, firstLiveTime, missing, error, ...fault });
            }
            return emit(candles, true);
          }),
        );
      /** Open time of the oldest candle a break may have hidden: `last` itself while it may have been open. */
      const firstMissing = (seen: K, seenClosed: boolean): number => (seenClosed ? seen.t + (intervalMs > 0 ? intervalMs : 1) : seen.t);
      const missed = (seen: K, start: number, firstLiveTime: number): Observable<K> => {
        const count = intervalMs > 0 ? Math.ceil((firstLiveTime - start) / intervalMs) + 1 : Infinity;
        return fetch({ endTime: firstLiveTime - 1, from: start, count }, 'reconnect').pipe(
          concatMap(({ candles, error }) => {
            const to = candles[0]?.t ?? firstLiveTime;
            if (error !== undefined && to > start) {
              const missing = intervalMs > 0 ? Math.ceil((to - start) / intervalMs) : 1;
              onGap?.({ reason: 'reconnect', from: start, to, firstLiveTime, missing, error, ...faultOf(error) });
            }
            const head = candles[0];
            return emit(head !== undefined && head.t === seen.t && sameCandle(head, seen) ? candles.slice(1) : candles, true);
          }),
        );
      };
      return source.pipe(
        concatMap((message) => {
          const newEpoch = message.first || message.epoch !== epoch;
          epoch = message.epoch;
          const head = message.data[0];
          if (head === undefined) return EMPTY;
          const live = defer(() => emit(message.data, false));
          if (!started) {
            started = true;
            return history > 0 ? concat(before(head.t), live) : live;
          }
          if (!newEpoch || last === undefined) return live;
          const start = firstMissing(last, lastClosed);
          return head.t > start ? concat(missed(last, start, head.t), live) : live;
        }),
      );
    });
}
