/**
 * The three demo orders, placed and cancelled through the user stream's order loop (`user.placeOrder`,
 * `user.cancelOrder`): each call follows its order to its final state over REST and `orders$`, resolving an
 * answer lost on the way instead of sending the order twice. The cleanup on a deployment cancels over REST
 * (`rest.cancelOrder`), once the streams are closed.
 */
import {
  catchError,
  concat,
  connect,
  defer,
  EMPTY,
  map,
  materialize,
  merge,
  mergeMap,
  type MonoTypeOperatorFunction,
  type Observable,
  of,
  take,
  timer,
} from 'rxjs';
import type { OrderState, PlaceOrderOptions, RestClient, UserStream } from '../../../lib/index';
import { describeError } from './describe';
import { shortId } from './format';
import type { DemoEvent } from './model';
import type { PlannedOrder } from './plan';

const note = (text: string, level: 'info' | 'warn' = 'info'): DemoEvent => ({ type: 'note', text, level });
const failed = (what: string): MonoTypeOperatorFunction<DemoEvent> =>
  catchError((error: Error) => of(note(`${what} failed: ${describeError(error)}`, 'warn')));

/** `FILLED 2.5/2.5`. */
const progress = (o: OrderState): string => `${o.status} ${o.filledQuantity}/${o.quantity}`;

/**
 * Places one order with `user.placeOrder` and follows it: a note when the service has it (its first state), one
 * when it reaches its final state (the observable completes), one if it fails (refused, a broken rule, an outcome
 * still unknown). Its every state shows on `orders$` too. `then$` starts once the placement is answered (the first
 * state or the failure): the next step of the script, while this order is still followed.
 */
export function placeOrder(user: UserStream, order: PlannedOrder, options: PlaceOrderOptions, then$: Observable<DemoEvent> = EMPTY): Observable<DemoEvent> {
  const { symbol, side, quantity, price, clientOrderId, role, why } = order;
  const states$ = user.placeOrder({ symbol, side, type: 'LIMIT', timeInForce: 'GTC', quantity, price, newClientOrderId: clientOrderId }, options);
  const answers = (): Observable<DemoEvent> => {
    let last: OrderState | undefined;
    return states$.pipe(
      materialize(),
      connect((answers$) =>
        merge(
          answers$.pipe(
            mergeMap((answer): Observable<DemoEvent> => {
              switch (answer.kind) {
                case 'N': {
                  const first = last === undefined;
                  last = answer.value;
                  return first ? of(note(`placeOrder: order ${shortId(answer.value.orderId)} (${role}) answered: ${progress(answer.value)}`)) : EMPTY;
                }
                case 'C':
                  return of(note(`placeOrder: order ${shortId(last?.orderId ?? clientOrderId)} (${role}) final: ${last ? progress(last) : '?'}, completed`));
                case 'E':
                  return of(note(`placing the ${role} order failed: ${describeError(answer.error as Error)}`, 'warn'));
                default: {
                  const never: never = answer;
                  return never;
                }
              }
            }),
          ),
          answers$.pipe(take(1), mergeMap(() => then$)),
        ),
      ),
    );
  };
  return concat(
    of<DemoEvent[]>({ type: 'orderPlanned', clientOrderId, role }, note(`placeOrder: ${side} ${quantity} ${symbol} @ ${price} (${why})`)),
    defer(answers),
  );
}

/** Cancels one order with `user.cancelOrder` (by its client order id): its final state, once. */
export function cancelOrder(user: UserStream, order: PlannedOrder): Observable<DemoEvent> {
  return concat(
    of(note(`cancelOrder: cancelling ${order.symbol} order ${order.clientOrderId} (${order.role})`)),
    user.cancelOrder({ clientOrderId: order.clientOrderId }).pipe(
      map((o): DemoEvent => note(`cancelOrder: order ${shortId(o.orderId)} (${order.role}) final: ${progress(o)}`)),
      failed('the cancel'),
    ),
  );
}

/** Cleanup on a deployment, after the streams closed: cancels over REST, quietly (the order may be closed). */
export function cancelOverRest(rest: RestClient, order: PlannedOrder): Observable<DemoEvent> {
  return concat(
    of(note(`REST: cancelling ${order.symbol} order ${order.clientOrderId} (${order.role})`)),
    rest.cancelOrder({ clientOrderId: order.clientOrderId }).pipe(
      map((r): DemoEvent => note(`REST: order ${r.orderId} cancel answered, status ${r.status}`)),
      catchError(() => of(note(`REST: order ${order.clientOrderId} was already closed`))),
    ),
  );
}

/**
 * The whole order script: rest, cancel-target, (pause) fill, then the cancel when `cancelAt$` fires. Each step
 * starts once the previous placement is answered; every order is followed until its final state (or the end).
 */
export function orderScript(
  user: UserStream,
  [resting, toCancel, filling]: readonly [PlannedOrder, PlannedOrder, PlannedOrder],
  { pauseMs, cancelAt$, options }: { readonly pauseMs: number; readonly cancelAt$: Observable<unknown>; readonly options: PlaceOrderOptions },
): Observable<DemoEvent> {
  const cancel$ = cancelAt$.pipe(take(1), mergeMap(() => cancelOrder(user, toCancel)));
  const fill$ = timer(pauseMs).pipe(mergeMap(() => placeOrder(user, filling, options, cancel$)));
  return placeOrder(user, resting, options, placeOrder(user, toCancel, options, fill$));
}
