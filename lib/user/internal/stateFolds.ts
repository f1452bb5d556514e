/**
 * Step 4 of the private path (see `userCore`): the folds. Each ordered event, after it went to the outputs,
 * is folded into the orders (execution reports) or the balances (account updates); the REST snapshots of
 * `resync` are merged in as `sync` items. New states go to the outputs as `orders` / `balances` items.
 * @internal
 * @module
 */
import type { PrivateEvent } from '../../codecs/privateEvents';
import type { ExecutionReport } from '../../codecs/executionReport';
import type { RestOrder } from '../../codecs/rest/order';
import type { PersistentMap } from '../../internal/persistentMap';
import { applyAccountUpdate, applyBalanceSnapshot, type BalanceState } from '../balanceState';
import type { BalancesState } from '../balancesState';
import { OrdersFold, OrdersState } from '../ordersState';
import { type OrderState, restOrderReport } from '../orderState';
import { type StateSync, withSync } from '../stateSync';
import type { SyncItem, UserItem } from './items';

/** `ordersState()`'s default bound of finished orders kept. */
const MAX_FINISHED_ORDERS = 1000;

/** Reports queued while nobody watches `orders$` before they are folded (bounds the queue's memory). */
const QUEUED_REPORTS = 1024;

/** The latest states of a run, replayed to late subscribers and read by `resync`. @internal */
export interface LatestStates {
  readonly orders: (OrdersState & StateSync) | undefined;
  readonly balances: (BalancesState & StateSync) | undefined;
}

/**
 * The orders and balances of one run of a user stream. `emit` receives each new state as an item; `watched`
 * says whether anyone reads `orders` items now. While nobody does, execution reports are queued and folded by
 * batches ({@link OrdersFold.applyAll}: the average price once per order, one map per batch, no `OrdersState` per report), and
 * when somebody looks ({@link StateFolds.orders}, a new report while watched, a sync) the queue is folded
 * first: what anyone sees is what folding every report at once would have given. Every state emitted carries
 * the sync state in force ({@link StateSync}); a change of it alone emits both states again.
 *
 * @example
 * ```ts no-check
 * const folds = new StateFolds((item) => outputs.item(item), () => outputs.listening('orders'));
 * folds.event(report);           // queued, or folded and emitted as { type: 'orders', orders }
 * folds.orders?.get(report.i);   // the order's state, the queue folded first
 * ```
 * @internal
 */
export class StateFolds implements LatestStates {
  private readonly fold = new OrdersFold(MAX_FINISHED_ORDERS);
  private queued: ExecutionReport[] = [];
  /** The orders as last marked (emitted or read); `undefined` before the first state, or stale when `dirty`. */
  private marked: (OrdersState & StateSync) | undefined;
  private dirty = false;
  private balanceMap: BalancesState = new Map<string, BalanceState>();
  private balancesMarked: (BalancesState & StateSync) | undefined;
  private sync: StateSync = { authoritative: false };
  /** The class of the orders' states under `syncedOf` (the sync state on its prototype, see syncedOrdersState). */
  private Synced: new (orders: PersistentMap<OrderState>) => OrdersState & StateSync = syncedOrdersState(this.sync);
  private syncedOf: StateSync = this.sync;

  constructor(
    private readonly emit: (item: UserItem) => void,
    private readonly watched: () => boolean,
  ) {}

  /** The orders now (the queue folded first); `undefined` before any order state. */
  get orders(): (OrdersState & StateSync) | undefined {
    this.foldQueued();
    if (this.dirty) this.markOrders();
    return this.marked;
  }

  /** The balances now; `undefined` before any balance state. */
  get balances(): (BalancesState & StateSync) | undefined {
    return this.balancesMarked;
  }

  /** One ordered event. */
  event(event: PrivateEvent): void {
    if (event.e === 'executionReport') {
      if (!this.watched()) {
        if (this.queued.push(event) >= QUEUED_REPORTS) this.foldQueued();
        return;
      }
      this.foldQueued();
      if (this.fold.apply(event) !== undefined || this.dirty) this.emitOrders();
    } else if (event.e === 'outboundAccountInfo') {
      const next = applyAccountUpdate(this.balanceMap, event);
      if (next !== this.balanceMap) this.emitBalances(next);
    }
  }

  /**
   * The reconciliation's items: `reconcile` (a connection opened: the orders in doubt listed, the state
   * `reconciling`), `restOrders` (orders fetched while reconciling, folded as the execution reports they stand for,
   * the doubts that remain), `sync` (the last orders and the balances by `applyBalanceSnapshot`; the state becomes
   * authoritative) or `unsync` (the socket lost: it is neither authoritative nor reconciling any more).
   */
  merge(item: SyncItem): void {
    switch (item.type) {
      case 'unsync':
        if (!this.sync.authoritative && !this.sync.reconciling) return;
        this.sync = { authoritative: false, syncedEpoch: this.sync.syncedEpoch };
        break;
      case 'reconcile':
        this.sync = { authoritative: false, syncedEpoch: this.sync.syncedEpoch, reconciling: true, inDoubt: item.inDoubt };
        break;
      case 'restOrders': {
        const fewer = item.inDoubt.length !== (this.sync.inDoubt?.length ?? 0);
        this.sync = { authoritative: false, syncedEpoch: this.sync.syncedEpoch, reconciling: true, inDoubt: item.inDoubt };
        // Nothing new (no order changed, the same doubts): no state to emit.
        if (!this.foldRest(item.orders, item.receivedAtMs) && !fewer) return;
        this.emitOrders();
        return;
      }
      case 'sync':
        this.sync = { authoritative: true, syncedEpoch: item.epoch };
        this.foldRest(item.orders, item.receivedAtMs);
        this.emitOrders();
        this.emitBalances(applyBalanceSnapshot(this.balanceMap, item.balances, item.balancesTimeMs));
        return;
      default: {
        const never: never = item;
        return never;
      }
    }
    if (this.orders !== undefined || item.type !== 'unsync') this.emitOrders();
    if (this.balancesMarked !== undefined) this.emitBalances(new Map(this.balanceMap));
  }

  /**
   * An order as a REST answer gave it (`placeOrder`'s placement, a cancel, a lookup), folded by the same
   * forward-only rules as the pushes, so `orders$` never disagrees with what those calls said. `now` is the
   * service's clock, the time of an answer without one.
   */
  offer(order: RestOrder, now: number): void {
    const report = restOrderReport(order, now);
    if (report === undefined) return;
    this.foldQueued();
    if (this.fold.apply(report) === undefined) return;
    if (this.watched()) this.emitOrders();
    else this.dirty = true;
  }

  /** An error of the order loop (e.g. an answer about another order), to `errors$`. */
  report(error: Error): void {
    this.emit({ type: 'error', error });
  }

  /** Folds REST orders; whether any changed the state. */
  private foldRest(orders: readonly RestOrder[], receivedAtMs: number): boolean {
    this.foldQueued();
    let changed = this.dirty;
    for (const order of orders) {
      const report = restOrderReport(order, receivedAtMs);
      if (report !== undefined && this.fold.apply(report) !== undefined) changed = true;
    }
    return changed;
  }

  private foldQueued(): void {
    if (this.queued.length === 0) return;
    const reports = this.queued;
    this.queued = [];
    if (this.fold.applyAll(reports) !== undefined) this.dirty = true;
  }

  /** Marks the orders now with the sync state in force: a fresh object (see StateSync). */
  private markOrders(): void {
    this.dirty = false;
    if (this.syncedOf !== this.sync) {
      this.syncedOf = this.sync;
      this.Synced = syncedOrdersState(this.sync);
    }
    this.marked = new this.Synced(this.fold.current as PersistentMap<OrderState>);
  }

  private emitOrders(): void {
    this.markOrders();
    this.emit({ type: 'orders', orders: this.marked! });
  }

  private emitBalances(fresh: Map<string, BalanceState> | BalancesState): void {
    this.balanceMap = fresh;
    this.balancesMarked = withSync(fresh, this.sync);
    this.emit({ type: 'balances', balances: this.balancesMarked });
  }
}

/**
 * A subclass of `OrdersState` whose prototype carries `sync` (non-enumerable, as `withSync` writes it): made once per
 * sync state, so an emission costs one `new` instead of a `withSync` on each state (`Object.defineProperties` per
 * object measured ~480 ns of ~650 per state; issue 26's orders$ path).
 */
function syncedOrdersState(sync: StateSync): new (orders: PersistentMap<OrderState>) => OrdersState & StateSync {
  class SyncedOrdersState extends OrdersState {}
  withSync(SyncedOrdersState.prototype, sync);
  return SyncedOrdersState as unknown as new (orders: PersistentMap<OrderState>) => OrdersState & StateSync;
}
