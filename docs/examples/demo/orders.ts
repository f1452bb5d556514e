/**
 * The three demo orders, placed and cancelled with the REST client's typed calls (`rest.newOrder`,
 * `rest.cancelOrder`): request types with unions and decimal text, answers decoded by the library's codecs.
 */
import { catchError, concat, ignoreElements, map, type MonoTypeOperatorFunction, type Observable, of, timer } from 'rxjs';
import type { RestClient } from '../../../lib/index';
import { describeError } from './describe';
import type { DemoEvent } from './model';
import type { PlannedOrder } from './plan';

const note = (text: string, level: 'info' | 'warn' = 'info'): DemoEvent => ({ type: 'note', text, level });
const failed = (what: string): MonoTypeOperatorFunction<DemoEvent> =>
  catchError((error: Error) => of(note(`${what} failed: ${describeError(error)}`, 'warn')));

/** Places one order: a note, the HTTP call, a note with the answer (or the rejection). */
export function placeOrder(rest: RestClient, order: PlannedOrder): Observable<DemoEvent> {
  const { symbol, side, quantity, price, clientOrderId, role, why } = order;
  return concat(
    of<DemoEvent[]>(
      { type: 'orderPlanned', clientOrderId, role },
      note(`REST: placing ${side} ${quantity} ${symbol} @ ${price} (${why})`),
    ),
    rest
      .newOrder({ symbol, side, type: 'LIMIT', timeInForce: 'GTC', quantity, price, newClientOrderId: clientOrderId })
      .pipe(
        map((r): DemoEvent => note(`REST: order ${r.orderId} (${role}) accepted, status ${r.status}`)),
        failed(`placing the ${role} order`),
      ),
  );
}

/** Cancels one order by its client order id. `quiet`: no failure note (cleanup of orders that may be closed). */
export function cancelOrder(rest: RestClient, order: PlannedOrder, { quiet = false } = {}): Observable<DemoEvent> {
  return concat(
    of(note(`REST: cancelling ${order.symbol} order ${order.clientOrderId} (${order.role})`)),
    rest
      .cancelOrder({ clientOrderId: order.clientOrderId })
      .pipe(
        map((r): DemoEvent => note(`REST: order ${r.orderId} cancel answered, status ${r.status}`)),
        quiet ? catchError(() => of(note(`REST: order ${order.clientOrderId} was already closed`))) : failed('the cancel'),
      ),
  );
}

/** The whole order script: rest, cancel-target, (pause) fill, then the cancel when `cancelAt$` fires. */
export function orderScript(
  rest: RestClient,
  [resting, toCancel, filling]: readonly [PlannedOrder, PlannedOrder, PlannedOrder],
  { pauseMs, cancelAt$ }: { readonly pauseMs: number; readonly cancelAt$: Observable<unknown> },
): Observable<DemoEvent> {
  return concat(
    placeOrder(rest, resting),
    placeOrder(rest, toCancel),
    timer(pauseMs).pipe(ignoreElements()),
    placeOrder(rest, filling),
    cancelAt$.pipe(ignoreElements()),
    cancelOrder(rest, toCancel),
  );
}
