/**
 * The private side's HTTP calls: the three demo orders (placed and cancelled over signed REST) and account
 * snapshots (balances and open orders) used at start and to reconcile after a user-stream gap.
 */
import * as t from 'io-ts';
import { catchError, concat, forkJoin, ignoreElements, map, type MonoTypeOperatorFunction, type Observable, of, timer } from 'rxjs';
import { DecimalString, IdFromNumberOrString, type RestClient } from '../../../lib/index';
import { describeError } from './describe';
import type { DemoEvent } from './model';
import type { PlannedOrder } from './plan';

/** Order endpoint of the service (TRADE security: signed). */
export const ORDER_PATH = '/api/v1/spot/order';

/** The fields of an order response the demo reads. Order ids are text, whatever the JSON carries. */
const OrderResponseCodec = t.type({ orderId: IdFromNumberOrString, status: t.string }, 'OrderResponse');

const AccountCodec = t.type(
  { balances: t.array(t.type({ asset: t.string, free: DecimalString, locked: DecimalString }, 'AccountBalance')) },
  'Account',
);

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
      .request({
        method: 'POST',
        path: ORDER_PATH,
        security: 'TRADE',
        body: { symbol, side, type: 'LIMIT', timeInForce: 'GTC', quantity, price, newClientOrderId: clientOrderId },
        codec: OrderResponseCodec,
      })
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
      .request({
        method: 'DELETE',
        path: ORDER_PATH,
        security: 'TRADE',
        query: { symbol: order.symbol, origClientOrderId: order.clientOrderId },
        codec: OrderResponseCodec,
      })
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

/** Balances and open orders over REST (signed USER_DATA calls), as one event. */
export function accountSnapshot(rest: RestClient, reason: string): Observable<DemoEvent> {
  return forkJoin([
    rest.request({ method: 'GET', path: '/api/v1/account', security: 'USER_DATA', codec: AccountCodec }),
    rest.request({ method: 'GET', path: '/api/v1/spot/openOrders', security: 'USER_DATA', codec: t.array(t.unknown) }),
  ]).pipe(
    map(([account, open]): DemoEvent => ({ type: 'accountSnapshot', balances: account.balances, openOrders: open.length, reason })),
    failed(`account query (${reason})`),
  );
}
