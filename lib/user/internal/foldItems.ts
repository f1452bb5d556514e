import { Observable, type OperatorFunction } from 'rxjs';
import type { PrivateEvent } from '../../codecs/privateEvents';
import type { ReorderInput, ReorderOutput } from '../../operators/reorderByEventTime';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import { applyAccountUpdate, applyBalanceSnapshot, type BalanceState } from '../balanceState';
import type { BalancesState } from '../balancesState';
import { ordersFolder, OrdersState } from '../ordersState';
import { type OrderState, restOrderReport } from '../orderState';
import { type StateSync, withSync } from '../stateSync';
import type { CoreItem, SyncItem, UserItem } from './items';
import { PersistentMap } from '../../internal/persistentMap';

/** The latest status, orders and balances of the shared core, replayed to late subscribers. @internal */
export interface LatestState {
  status?: ConnectionStatus | undefined;
  orders?: (OrdersState & StateSync) | undefined;
  balances?: (BalancesState & StateSync) | undefined;
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

/** `ordersState()`'s default bound of finished orders kept. */
const MAX_FINISHED_ORDERS = 1000;

/**
 * The user stream's item pipeline in one subscriber: non-event items of `source` are scrubbed (`scrub`) and
 * passed on at once; events, pushed by the sessions into `inlet`, go through the reorder buffer (event-time
 * order, de-duplication), and each ordered event is emitted (as itself, no wrapper), then folded into the
 * orders (execution reports) or balances (account updates), whose new state follows it when it changed.
 * Sync items (see `resync`) are consumed here: `sync` merges the REST snapshots into the orders (as the
 * execution reports they stand for) and the balances (`applyBalanceSnapshot`) and marks the state
 * authoritative; `unsync` marks it not. Every emitted map carries the sync state in force (`StateSync`); a
 * change of it alone emits both maps again.
 * Records the latest status, orders and balances in `latest` (cleared on teardown, when `onTeardown` runs too).
 * A fatal error is scrubbed too before it reaches the subscriber.
 *
 * Equivalent to `connect(items$ => merge(nonEvents$, events$.pipe(reorder, connect(ev$ => merge(ev$,
 * ordersState(), balancesState())))))` + `tap(latest)` + `finalize`, without an RxJS hop per branch and per
 * event: an error of the source errors at once; its completion first flushes the reorder buffer.
 * @internal
 */
export function foldItems(
  openReorder: (out: ReorderOutput<PrivateEvent>) => ReorderInput<PrivateEvent>,
  inlet: EventInlet,
  scrub: (item: UserItem) => UserItem,
  latest: LatestState,
  onTeardown: () => void,
): OperatorFunction<UserItem | SyncItem, CoreItem> {
  // A fatal error is scrubbed as an error item would be (it reaches every stream, `events$` included).
  const scrubFatal = (error: unknown): unknown => {
    if (!(error instanceof Error)) return error;
    const item = scrub({ type: 'error', error });
    return item.type === 'error' ? item.error : error;
  };
  return (source) =>
    new Observable<CoreItem>((subscriber) => {
      const foldOrder = ordersFolder(MAX_FINISHED_ORDERS);
      let orders: PersistentMap<OrderState> = PersistentMap.empty();
      let balances: BalancesState = new Map();
      let sync: StateSync = { authoritative: false };
      // Each emitted state is a fresh object marked with the sync state in force (see StateSync).
      const emitOrders = (fresh: PersistentMap<OrderState>): void => {
        orders = fresh;
        const marked = withSync(new OrdersState(fresh), sync);
        latest.orders = marked;
        subscriber.next({ type: 'orders', orders: marked });
      };
      const emitBalances = (fresh: Map<string, BalanceState> | BalancesState): void => {
        balances = fresh;
        const marked = withSync(fresh, sync);
        latest.balances = marked;
        subscriber.next({ type: 'balances', balances: marked });
      };
      const onSync = (item: SyncItem): void => {
        if (item.type === 'unsync') {
          if (!sync.authoritative) return;
          sync = { authoritative: false, syncedEpoch: sync.syncedEpoch };
          if (latest.orders !== undefined) emitOrders(orders);
          if (latest.balances !== undefined) emitBalances(new Map(balances));
          return;
        }
        sync = { authoritative: true, syncedEpoch: item.epoch };
        let folded: PersistentMap<OrderState> | undefined;
        for (const order of item.orders) {
          const report = restOrderReport(order, item.receivedAtMs);
          if (report !== undefined) folded = foldOrder(report) ?? folded;
        }
        emitOrders(folded ?? orders);
        emitBalances(applyBalanceSnapshot(balances, item.balances, item.balancesTimeMs));
      };
      const reorder = openReorder({
        get closed() {
          return subscriber.closed;
        },
        next: (event) => {
          subscriber.next(event);
          if (event.e === 'executionReport') {
            const next = foldOrder(event);
            if (next !== undefined) emitOrders(next);
          } else if (event.e === 'outboundAccountInfo') {
            const next = applyAccountUpdate(balances, event);
            if (next !== balances) emitBalances(next);
          }
        },
        error: (error: unknown) => subscriber.error(scrubFatal(error)),
        complete: () => subscriber.complete(),
      });
      inlet.push = reorder.next;
      const subscription = source.subscribe({
        next: (item) => {
          if (item.type === 'sync' || item.type === 'unsync') return onSync(item);
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
