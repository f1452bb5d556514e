import { type MonoTypeOperatorFunction, Observable, type OperatorFunction, Subject } from 'rxjs';
import type { PrivateEvent } from '../../codecs/privateEvents';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import { applyAccountUpdate } from '../balanceState';
import type { BalancesState } from '../foldBalances';
import { ordersFolder, type OrdersState } from '../foldOrders';
import type { UserItem } from './items';

/** The latest status, orders and balances of the shared core, replayed to late subscribers. @internal */
export interface LatestState {
  status?: ConnectionStatus;
  orders?: OrdersState;
  balances?: BalancesState;
}

/** `foldOrders()`'s default bound of finished orders kept. */
const MAX_FINISHED_ORDERS = 1000;

/**
 * The user stream's item pipeline in one subscriber: non-event items are scrubbed (`scrub`) and passed on
 * at once; events go through `reorder` (event-time order, de-duplication), and each ordered event is
 * emitted, then folded into the orders (execution reports) or balances (account updates), whose new state
 * follows it when it changed. Records the latest status, orders and balances in `latest`.
 *
 * Equivalent to `connect(items$ => merge(nonEvents$, events$.pipe(reorder, connect(ev$ => merge(ev$,
 * foldOrders(), foldBalances())))))` + `tap(latest)`, without an RxJS hop per branch and per event: an
 * error of the source errors at once; its completion first flushes the reorder buffer.
 * @internal
 */
export function foldItems(
  reorder: MonoTypeOperatorFunction<PrivateEvent>,
  scrub: (item: UserItem) => UserItem,
  latest: LatestState,
): OperatorFunction<UserItem, UserItem> {
  return (source) =>
    new Observable<UserItem>((subscriber) => {
      const foldOrder = ordersFolder(MAX_FINISHED_ORDERS);
      let balances: BalancesState = new Map();
      const events = new Subject<PrivateEvent>();
      const subscription = events.pipe(reorder).subscribe({
        next: (event) => {
          subscriber.next({ type: 'event', event });
          if (event.e === 'executionReport') {
            const orders = foldOrder(event);
            if (orders !== undefined) {
              latest.orders = orders;
              subscriber.next({ type: 'orders', orders });
            }
          } else if (event.e === 'outboundAccountInfo') {
            const next = applyAccountUpdate(balances, event);
            if (next !== balances) {
              latest.balances = balances = next;
              subscriber.next({ type: 'balances', balances });
            }
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      subscription.add(
        source.subscribe({
          next: (item) => {
            if (item.type === 'event') {
              events.next(item.event);
              return;
            }
            const scrubbed = scrub(item);
            if (scrubbed.type === 'status') latest.status = scrubbed.status;
            subscriber.next(scrubbed);
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => events.complete(),
        }),
      );
      return subscription;
    });
}
