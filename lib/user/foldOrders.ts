import { filter, map, scan, type OperatorFunction } from 'rxjs';
import type { ExecutionReport } from '../codecs/executionReport';
import { applyExecutionReport, type OrderState } from './orderState';

/** The state of every order seen, keyed by order id (`i`, text). */
export type OrdersState = ReadonlyMap<string, OrderState>;

/**
 * Folds execution reports into the current state of every order, keyed by order id.
 *
 * Arrival order does not matter: status only moves forward (NEW → PARTIALLY_FILLED → FILLED /
 * PARTIALLY_CANCELED / CANCELED; REJECTED is terminal too), the cumulative filled quantity `z` never
 * decreases, and a stale update (older `U`, or `E` when `U` is absent) never overwrites a newer one.
 * Decimals are compared exactly (no floats). A report that changes nothing (a duplicate, a stale one)
 * emits nothing. Each emission is a new immutable map; unchanged orders keep their `OrderState` object.
 * The map keeps every order seen (terminal ones included) for the life of the subscription.
 *
 * ```
 * reports: --n1---f1---n1(stale)---n2--|
 * orders:  --a----b----------------c---|
 *   a = {1: NEW}  b = {1: FILLED}  c = {1: FILLED, 2: NEW}
 * ```
 *
 * @example
 * ```ts
 * import { userStream, foldOrders } from 'ex-streams';
 * const user = userStream({ url, rest });
 * user.executionReports$.pipe(foldOrders()).subscribe((orders) => console.log(orders.get('1470000001')?.status));
 * // 'NEW', then 'FILLED'
 * ```
 */
export function foldOrders(): OperatorFunction<ExecutionReport, OrdersState> {
  return (source) =>
    source.pipe(
      scan(
        (acc: { readonly orders: OrdersState; readonly changed: boolean }, report: ExecutionReport) => {
          const before = acc.orders.get(report.i);
          const after = applyExecutionReport(before, report);
          if (after === before) return { orders: acc.orders, changed: false };
          return { orders: new Map(acc.orders).set(report.i, after), changed: true };
        },
        { orders: new Map<string, OrderState>(), changed: false },
      ),
      filter((acc) => acc.changed),
      map((acc) => acc.orders),
    );
}
