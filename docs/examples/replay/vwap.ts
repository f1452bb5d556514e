import { map, type OperatorFunction, reduce } from 'rxjs';
import type { TradeRecord } from '../../../lib/index';

/** The volume-weighted average price of the trades seen, and how many. */
export interface Vwap {
  readonly trades: number;
  /** Σ price × quantity / Σ quantity, 8 decimals ('' without trades). */
  readonly vwap: string;
}

/**
 * The pipeline both runs go through, written once against `Observable<TradeRecord>`: it does not know whether its
 * trades are live or replayed. (An indicator in floating point is fine for a display; an order's price goes through
 * the decimal functions, never through `number`.)
 */
export const vwap = (): OperatorFunction<TradeRecord, Vwap> => (trades$) =>
  trades$.pipe(
    reduce((s, t) => ({ trades: s.trades + 1, quote: s.quote + Number(t.p) * Number(t.q), quantity: s.quantity + Number(t.q) }), { trades: 0, quote: 0, quantity: 0 }),
    map((s) => ({ trades: s.trades, vwap: s.quantity > 0 ? (s.quote / s.quantity).toFixed(8) : '' })),
  );
