import { filter, map, scan, type OperatorFunction } from 'rxjs';

/**
 * The field of a kline record that {@link closedCandles} reads: the candle's open time `t`.
 *
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import { closedCandles, type CandleLike } from 'ex-streams/history';
 *
 * const candles: CandleLike[] = [{ t: 0 }, { t: 0 }, { t: 60_000 }];
 * of(...candles).pipe(closedCandles()).subscribe((c) => console.log(c.t)); // 0
 * ```
 */
export interface CandleLike {
  /** Candle (open) time, milliseconds. */
  readonly t: number;
}

interface CandleState<T> {
  readonly open?: T;
  readonly closed?: T;
}

function step<T extends CandleLike>(state: CandleState<T>, candle: T): CandleState<T> {
  const { open } = state;
  if (open === undefined || candle.t === open.t) return { open: candle };
  if (candle.t > open.t) return { open: candle, closed: open };
  return { open }; // an older candle (a replay after resubscription): already closed or already emitted
}

/**
 * Emits each candle once it has closed. The kline topic repeats the open candle as it updates (every
 * 300 ms); a candle is closed when a record with a later `t` arrives, and the last version seen of it is
 * emitted then. Records older than the open candle (replays after a reconnect) are ignored, so no candle
 * is emitted twice. The open candle is not emitted on completion (it has not closed). Apply it to one
 * `(symbol, interval)` stream; keep the raw stream beside it for live updates.
 *
 * ```
 * kline:         -a1-a2-a3-b1-b2-a2-c1-|   (letter = candle time t, digit = update)
 * closedCandles: ----------a3-------b2-|   (a3 closes when b1 arrives; the a2 replay is ignored)
 * ```
 *
 * @example
 * ```ts
 * import { marketStreams } from 'ex-streams';
 * import { closedCandles } from 'ex-streams/history';
 * const market = marketStreams({ url: 'wss://example.invalid/quote/ws/v1' });
 * const candles = market.klines('BTCUSDT', '1m');
 * candles.subscribe((c) => console.log('live', c.c));             // every update of the open candle
 * candles.pipe(closedCandles()).subscribe((c) => console.log('closed', c.t, c.o, c.h, c.l, c.c));
 * ```
 */
export function closedCandles<T extends CandleLike>(): OperatorFunction<T, T> {
  return (source) =>
    source.pipe(
      scan(step<T>, {} as CandleState<T>),
      map((state) => state.closed),
      filter((closed): closed is T => closed !== undefined),
    );
}
