import { Observable, type OperatorFunction } from 'rxjs';
import type { PrivateEvent } from '../../codecs/privateEvents';
import type { ReorderInput, ReorderOutput } from '../../operators/reorderByEventTime';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import { applyAccountUpdate } from '../balanceState';
import type { BalancesState } from '../foldBalances';
import { ordersFolder, type OrdersState } from '../foldOrders';
import type { CoreItem, UserItem } from './items';

/** The latest status, orders and balances of the shared core, replayed to late subscribers. @internal */
export interface LatestState {
  status?: ConnectionStatus;
  orders?: OrdersState;
  balances?: BalancesState;
}

/**
 * Where the sessions hand their decoded events: `push` is the reorder buffer's input while the core is
 * subscribed, a no-op otherwise. @internal
 */
export interface EventInlet {
  /** `now`: the scheduler's time at which the event's frame arrived (the reorder buffer's clock reading). */
  push: (event: PrivateEvent, now: number) => void;
}

const dropEvent = (): void => undefined;

/** A fresh inlet (dropping events until a core subscribes). @internal */
export const eventInlet = (): EventInlet => ({ push: dropEvent });

/** `foldOrders()`'s default bound of finished orders kept. */
const MAX_FINISHED_ORDERS = 1000;

/**
 * The user stream's item pipeline in one subscriber: non-event items of `source` are scrubbed (`scrub`) and
 * passed on at once; events, pushed by the sessions into `inlet`, go through the reorder buffer (event-time
 * order, de-duplication), and each ordered event is emitted (as itself, no wrapper), then folded into the
 * orders (execution reports) or balances (account updates), whose new state follows it when it changed.
 * Records the latest status, orders and balances in `latest` (cleared on teardown, when `onTeardown` runs too).
 * A fatal error is scrubbed too before it reaches the subscriber.
 *
 * Equivalent to `connect(items$ => merge(nonEvents$, events$.pipe(reorder, connect(ev$ => merge(ev$,
 * foldOrders(), foldBalances())))))` + `tap(latest)` + `finalize`, without an RxJS hop per branch and per
 * event: an error of the source errors at once; its completion first flushes the reorder buffer.
 * @internal
 */
export function foldItems(
  openReorder: (out: ReorderOutput<PrivateEvent>) => ReorderInput<PrivateEvent>,
  inlet: EventInlet,
  scrub: (item: UserItem) => UserItem,
  latest: LatestState,
  onTeardown: () => void,
): OperatorFunction<UserItem, CoreItem> {
  // A fatal error is scrubbed as an error item would be (it reaches every stream, `events$` included).
  const scrubFatal = (error: unknown): unknown => {
    if (!(error instanceof Error)) return error;
    const item = scrub({ type: 'error', error });
    return item.type === 'error' ? item.error : error;
  };
  return (source) =>
    new Observable<CoreItem>((subscriber) => {
      const foldOrder = ordersFolder(MAX_FINISHED_ORDERS);
      let balances: BalancesState = new Map();
      const reorder = openReorder({
        get closed() {
          return subscriber.closed;
        },
        next: (event) => {
          subscriber.next(event);
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
        error: (error: unknown) => subscriber.error(scrubFatal(error)),
        complete: () => subscriber.complete(),
      });
      inlet.push = reorder.next;
      const subscription = source.subscribe({
        next: (item) => {
          const scrubbed = scrub(item);
          if (scrubbed.type === 'status') latest.status = scrubbed.status;
          subscriber.next(scrubbed);
        },
        error: (error: unknown) => subscriber.error(scrubFatal(error)),
        complete: reorder.complete,
      });
      return () => {
        subscription.unsubscribe();
        inlet.push = dropEvent;
        reorder.dispose();
        latest.status = latest.orders = latest.balances = undefined;
        onTeardown();
      };
    });
}
