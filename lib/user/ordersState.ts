import { defer, filter, map, type OperatorFunction } from 'rxjs';
import type { ExecutionReport } from '../codecs/executionReport';
import { PersistentMap } from '../internal/persistentMap';
import { applyExecutionReport, fillAverage, statusRank, type OrderState } from './orderState';

/** Where an {@link OrdersState} keeps its map. */
const ORDERS: unique symbol = Symbol('orders');

/**
 * The state of every order seen, keyed by order id (`i`, text): an immutable `ReadonlyMap` of its own kind
 * (not a `Map`: `orders instanceof Map` is `false` and `Object.prototype.toString` says `OrdersState`).
 * It iterates in the order orders were first seen and has every read method of a `Map` (`size`, `get`, `has`,
 * `keys`, `values`, `entries`, `forEach`, `for … of`); it has no `set` / `delete` / `clear`. Each state shares
 * its structure with the one before, so it costs the same whatever the number of orders held.
 *
 * To clone it, compare it with a `Map` (`toEqual`), or hand it to something that needs a real `Map`
 * (`structuredClone`, Angular's `keyvalue` pipe, which reads only `Map`s and plain objects), take a plain copy
 * with {@link OrdersState.toMap} (or `new Map(orders)`). Angular's `@for` takes the state itself
 * (`@for (entry of orders; track entry[0])`).
 *
 * @example
 * ```ts
 * import type { ExecutionReport } from 'ex-streams';
 * import { ordersState, type OrdersState } from 'ex-streams/folds';
 * import type { Observable } from 'rxjs';
 *
 * declare const executionReports$: Observable<ExecutionReport>;
 * const openOrders = (orders: OrdersState) => [...orders.values()].filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED');
 * executionReports$.pipe(ordersState()).subscribe((orders) => {
 *   console.log(openOrders(orders).length, 'open');
 *   const copy = structuredClone(orders.toMap()); // a plain Map<string, OrderState>, deep-copied
 * });
 * ```
 */
export class OrdersState implements ReadonlyMap<string, OrderState> {
  /**
   * The orders, as a structurally shared map, under a symbol: the state has no own string-keyed property, so
   * `Object.keys`, `JSON.stringify` and `toEqual` (which compares iterables by their entries and their own
   * string-keyed properties) see its entries only. A symbol-keyed field costs what any field costs; a
   * non-enumerable one (`Object.defineProperty`) cost ~240 ns per state on the `orders$` path (issue 26).
   */
  private readonly [ORDERS]: PersistentMap<OrderState>;

  /**
   * A state holding `entries` (`[orderId, state]` pairs; a later pair for the same id replaces the earlier
   * one in place, as in a `Map`). For tests of code that reads states: the streams build their own.
   */
  constructor(entries: Iterable<readonly [string, OrderState]> = []) {
    let orders: PersistentMap<OrderState>;
    if (entries instanceof PersistentMap) orders = entries; // the folds' own maps, shared as they are
    else {
      orders = PersistentMap.empty<OrderState>();
      for (const [id, state] of entries) orders = orders.with(id, state);
    }
    this[ORDERS] = orders;
  }

  /** How many orders the state holds. */
  get size(): number {
    return this[ORDERS].size;
  }

  /** `'OrdersState'`: what `Object.prototype.toString` reports. */
  get [Symbol.toStringTag](): string {
    return 'OrdersState';
  }

  /** The state of the order with this id, if known. */
  get(orderId: string): OrderState | undefined {
    return this[ORDERS].get(orderId);
  }

  /** Whether the order with this id is known. */
  has(orderId: string): boolean {
    return this[ORDERS].has(orderId);
  }

  /** The order ids, in the order orders were first seen. */
  keys(): MapIterator<string> {
    return this[ORDERS].keys();
  }

  /** The orders' states, in the order orders were first seen. */
  values(): MapIterator<OrderState> {
    return this[ORDERS].values();
  }

  /** `[orderId, state]` pairs, in the order orders were first seen. */
  entries(): MapIterator<[string, OrderState]> {
    return this[ORDERS].entries();
  }

  /** Calls `callback` with each order's state and id, in the order orders were first seen. */
  forEach(callback: (state: OrderState, orderId: string, orders: OrdersState) => void, thisArg?: unknown): void {
    for (const [id, state] of this[ORDERS].entries()) callback.call(thisArg, state, id, this);
  }

  /** `[orderId, state]` pairs, as {@link OrdersState.entries}. */
  [Symbol.iterator](): MapIterator<[string, OrderState]> {
    return this[ORDERS].entries();
  }

  /**
   * A plain, mutable `Map` with the same entries in the same order (a new one each call; the order states
   * are shared, not copied): for `structuredClone`, Angular's `keyvalue` pipe, or `toEqual(new Map([...]))`.
   */
  toMap(): Map<string, OrderState> {
    return new Map(this[ORDERS]);
  }

  /** Shown by Node's `util.inspect` (and so `console.log`) as `OrdersState(n) { id => state, … }`. */
  [Symbol.for('nodejs.util.inspect.custom')](_depth: number, options: object, inspect: (value: unknown, options: object) => string): string {
    return `OrdersState(${this.size}) ${inspect(this.toMap(), options).replace(/^Map\(\d+\) /, '')}`;
  }
}

/**
 * Options of {@link ordersState}.
 *
 * @example
 * ```ts
 * import type { ExecutionReport } from 'ex-streams';
 * import { ordersState, type OrdersStateConfig } from 'ex-streams/folds';
 * import type { Observable } from 'rxjs';
 *
 * declare const executionReports$: Observable<ExecutionReport>;
 * const config: OrdersStateConfig = { maxFinishedOrders: 100 };
 * executionReports$.pipe(ordersState(config)).subscribe((orders) => console.log(orders.size)); // at most open + 100
 * ```
 */
export interface OrdersStateConfig {
  /**
   * How many finished orders (FILLED, CANCELED, PARTIALLY_CANCELED, REJECTED) the map keeps; beyond it the
   * one that finished first is dropped, and later reports of a dropped order are ignored (so a stale NEW never
   * brings it back). Open orders are never dropped. Default 1000; `Infinity` keeps every order.
   */
  readonly maxFinishedOrders?: number;
}

/** How many dropped order ids are remembered, per finished order kept. @internal */
const RETIRED_PER_KEPT = 4;

/**
 * Folds execution reports into the current state of every order, keyed by order id.
 *
 * Arrival order does not matter: status only moves forward (PENDING_NEW → NEW → PARTIALLY_FILLED →
 * PENDING_CANCEL → FILLED / PARTIALLY_CANCELED / CANCELED; REJECTED is final too; a status the library does not
 * know ranks lowest and is never final), the cumulative filled quantity `z` never
 * decreases, and a stale update (older `U`, or `E` when `U` is absent) never overwrites a newer one.
 * Decimals are compared exactly (no floats). A report that changes nothing (a duplicate, a stale one)
 * emits nothing. Each emission is a new immutable `ReadonlyMap` (iterated in the order orders were first
 * seen); unchanged orders keep their `OrderState` object. States share their structure: a report costs the
 * same whatever the number of orders held (no copy of the whole map per report). A state is an
 * {@link OrdersState}, not a `Map`: `orders.toMap()` gives a plain copy (to clone it, or to compare it in a
 * test: `expect(orders.toMap()).toEqual(new Map([...]))`).
 * Open orders stay until they finish; finished ones are bounded by `maxFinishedOrders` (default 1000), so a
 * stream that runs for weeks does not grow without bound.
 *
 * ```
 * reports: --n1---f1---n1(stale)---n2--|
 * orders:  --a----b----------------c---|
 *   a = {1: NEW}  b = {1: FILLED}  c = {1: FILLED, 2: NEW}
 * ```
 *
 * @example
 * ```ts
 * import { userStream } from 'ex-streams';
 * import type { ListenKeyApi } from 'ex-streams/connection';
 * import { ordersState } from 'ex-streams/folds';
 * declare const url: string, rest: ListenKeyApi;
 * const user = userStream({ url, rest });
 * user.executionReports$.pipe(ordersState({ maxFinishedOrders: 200 })).subscribe((orders) =>
 *   console.log(orders.get('1470000001')?.status)); // 'NEW', then 'FILLED'
 * ```
 */
export function ordersState({ maxFinishedOrders = 1000 }: OrdersStateConfig = {}): OperatorFunction<ExecutionReport, OrdersState> {
  return (source) =>
    defer(() => {
      const fold = new OrdersFold(maxFinishedOrders);
      return source.pipe(
        map((report) => fold.apply(report)),
        filter((orders): orders is PersistentMap<OrderState> => orders !== undefined),
        map((orders) => new OrdersState(orders)),
      );
    });
}

/**
 * The state machine of {@link ordersState}: holds the orders of one subscription (or one run of a user
 * stream). {@link OrdersFold.apply} folds one report; {@link OrdersFold.applyAll} folds many with the same
 * result, the average price of each order computed once at the end instead of once per fill (the user
 * stream folds that way the reports it queued while nobody watched `orders$`).
 * @internal
 */
export class OrdersFold {
  /** Structurally shared: a report copies one path of the trie, not the whole map (O(1) in the number of orders). */
  private orders: PersistentMap<OrderState> = PersistentMap.empty<OrderState>();
  /** Ids of finished orders kept, in the order they finished. */
  private readonly finished = new Set<string>();
  /** Ids dropped, oldest first. */
  private readonly retired = new Set<string>();
  private readonly maxRetired: number;

  constructor(private readonly maxFinishedOrders: number) {
    this.maxRetired = Math.min(Math.max(maxFinishedOrders * RETIRED_PER_KEPT, 1000), 1_000_000);
  }

  /** The orders now. */
  get current(): PersistentMap<OrderState> {
    return this.orders;
  }

  /** Folds one report: the new orders, or `undefined` when it changes nothing. */
  apply(report: ExecutionReport): PersistentMap<OrderState> | undefined {
    const before = this.orders;
    this.step(report, fillAverage);
    return this.orders === before ? undefined : this.orders;
  }

  /**
   * Folds `reports` in order: the orders `apply` would give after the last one, or `undefined` when none changed
   * anything. The states in between are folded in a scratch map (no map of its own per report), and each order
   * changed is written once, with its average price computed once, on its last fill.
   */
  applyAll(reports: readonly ExecutionReport[]): PersistentMap<OrderState> | undefined {
    const changed = new Map<string, OrderState>();
    let orders = this.orders;
    for (let k = 0; k < reports.length; k++) {
      const report = reports[k]!;
      const id = report.i;
      if (this.retired.has(id)) continue;
      const before = changed.get(id) ?? orders.get(id);
      const after = applyExecutionReport(before, report, deferAverage);
      if (after === before) continue;
      // (`changed` keeps the order in which orders were first changed: new ones go last in that order, as by `apply`.)
      changed.set(id, after);
      const dropped = this.finish(id, after);
      if (dropped !== undefined) {
        changed.delete(dropped);
        orders = orders.without(dropped);
      }
    }
    if (changed.size === 0 && orders === this.orders) return undefined;
    for (const [id, state] of changed) {
      orders = orders.with(id, state.averagePrice === AVERAGE_LATER ? { ...state, averagePrice: fillAverage(state.filledQuoteQuantity, state.filledQuantity, state.report) } : state);
    }
    this.orders = orders;
    return orders;
  }

  private step(report: ExecutionReport, averageOf: (Z: string, z: string, near: ExecutionReport) => string | undefined): void {
    const id = report.i;
    if (this.retired.has(id)) return;
    const before = this.orders.get(id);
    const after = applyExecutionReport(before, report, averageOf);
    if (after === before) return;
    let next = this.orders.with(id, after);
    const dropped = this.finish(id, after);
    if (dropped !== undefined) next = next.without(dropped);
    this.orders = next;
  }

  /** Counts `id` finished when `state` is (once); the id of the finished order dropped to stay in bounds, if any. */
  private finish(id: string, state: OrderState): string | undefined {
    if (statusRank(state.status) !== FINISHED || this.finished.has(id)) return undefined;
    this.finished.add(id);
    if (this.finished.size <= this.maxFinishedOrders) return undefined;
    const oldest = first(this.finished);
    this.finished.delete(oldest);
    this.retired.add(oldest);
    if (this.retired.size > this.maxRetired) this.retired.delete(first(this.retired));
    return oldest;
  }
}

/** What {@link OrdersFold.applyAll} writes as an average until it computes it (never seen outside it). */
const AVERAGE_LATER = '\u0000later';
const deferAverage = (): string => AVERAGE_LATER;

const FINISHED = statusRank('FILLED');

const first = (set: ReadonlySet<string>): string => set.values().next().value as string;
