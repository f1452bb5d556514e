import { defer, filter, map, type OperatorFunction } from 'rxjs';
import type { ExecutionReport } from '../codecs/executionReport';
import { PersistentMap } from '../internal/persistentMap';
import { applyExecutionReport, statusRank, type OrderState } from './orderState';

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
 * import { ordersState, type OrdersState, type ExecutionReport } from 'ex-streams';
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
  /** The orders, as a structurally shared map (non-enumerable, so the state has no own enumerable property). */
  private declare readonly orders: PersistentMap<OrderState>;

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
    Object.defineProperty(this, 'orders', { value: orders });
  }

  /** How many orders the state holds. */
  get size(): number {
    return this.orders.size;
  }

  /** `'OrdersState'`: what `Object.prototype.toString` reports. */
  get [Symbol.toStringTag](): string {
    return 'OrdersState';
  }

  /** The state of the order with this id, if known. */
  get(orderId: string): OrderState | undefined {
    return this.orders.get(orderId);
  }

  /** Whether the order with this id is known. */
  has(orderId: string): boolean {
    return this.orders.has(orderId);
  }

  /** The order ids, in the order orders were first seen. */
  keys(): MapIterator<string> {
    return this.orders.keys();
  }

  /** The orders' states, in the order orders were first seen. */
  values(): MapIterator<OrderState> {
    return this.orders.values();
  }

  /** `[orderId, state]` pairs, in the order orders were first seen. */
  entries(): MapIterator<[string, OrderState]> {
    return this.orders.entries();
  }

  /** Calls `callback` with each order's state and id, in the order orders were first seen. */
  forEach(callback: (state: OrderState, orderId: string, orders: OrdersState) => void, thisArg?: unknown): void {
    for (const [id, state] of this.orders.entries()) callback.call(thisArg, state, id, this);
  }

  /** `[orderId, state]` pairs, as {@link OrdersState.entries}. */
  [Symbol.iterator](): MapIterator<[string, OrderState]> {
    return this.orders.entries();
  }

  /**
   * A plain, mutable `Map` with the same entries in the same order (a new one each call; the order states
   * are shared, not copied): for `structuredClone`, Angular's `keyvalue` pipe, or `toEqual(new Map([...]))`.
   */
  toMap(): Map<string, OrderState> {
    return new Map(this.orders);
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
 * import { ordersState, type ExecutionReport, type OrdersStateConfig } from 'ex-streams';
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
 * Arrival order does not matter: status only moves forward (NEW → PARTIALLY_FILLED → FILLED /
 * PARTIALLY_CANCELED / CANCELED; REJECTED is terminal too), the cumulative filled quantity `z` never
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
 * import { userStream, ordersState, type ListenKeyApi } from 'ex-streams';
 * declare const url: string, rest: ListenKeyApi;
 * const user = userStream({ url, rest });
 * user.executionReports$.pipe(ordersState({ maxFinishedOrders: 200 })).subscribe((orders) =>
 *   console.log(orders.get('1470000001')?.status)); // 'NEW', then 'FILLED'
 * ```
 */
export function ordersState({ maxFinishedOrders = 1000 }: OrdersStateConfig = {}): OperatorFunction<ExecutionReport, OrdersState> {
  return (source) =>
    defer(() => {
      const fold = ordersFolder(maxFinishedOrders);
      return source.pipe(
        map(fold),
        filter((orders): orders is PersistentMap<OrderState> => orders !== undefined),
        map((orders) => new OrdersState(orders)),
      );
    });
}

/**
 * The state machine of {@link ordersState} as a plain function: each report gives the new state, or
 * `undefined` when it changes nothing. One folder per subscription (it holds the state).
 * @internal
 */
export function ordersFolder(maxFinishedOrders: number): (report: ExecutionReport) => PersistentMap<OrderState> | undefined {
  const maxRetired = Math.min(Math.max(maxFinishedOrders * RETIRED_PER_KEPT, 1000), 1_000_000);
  // Structurally shared: a report copies one path of the trie, not the whole map (O(1) in the number of orders).
  let orders: PersistentMap<OrderState> = PersistentMap.empty<OrderState>();
  const finished = new Set<string>(); // ids of finished orders kept, in the order they finished
  const retired = new Set<string>(); // ids dropped, oldest first
  return (report) => {
    if (retired.has(report.i)) return undefined;
    const before = orders.get(report.i);
    const after = applyExecutionReport(before, report);
    if (after === before) return undefined;
    let next = orders.with(report.i, after);
    if (statusRank(after.status) === FINISHED && !finished.has(report.i)) {
      finished.add(report.i);
      if (finished.size > maxFinishedOrders) {
        const oldest = first(finished);
        finished.delete(oldest);
        next = next.without(oldest);
        retired.add(oldest);
        if (retired.size > maxRetired) retired.delete(first(retired));
      }
    }
    return (orders = next);
  };
}

const FINISHED = statusRank('FILLED');

const first = (set: ReadonlySet<string>): string => set.values().next().value as string;
