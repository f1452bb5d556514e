/**
 * Beside the private path (see `userCore`): the reconciliation after each open, handed to the folds (step 4) as
 * `reconcile`, `restOrders` and `sync` items.
 * @internal
 * @module
 */
import { catchError, concat, concatMap, defer, EMPTY, from, ignoreElements, map, merge, Observable, of, type OperatorFunction, retry, type SchedulerLike, type Subscription, tap, throwError, timer } from 'rxjs';
import type { RestBalance } from '../../codecs/rest/account';
import type { RestOrder } from '../../codecs/rest/order';
import { type OrderIdentity, RateLimitedError, RequestRejectedError } from '../../errors';
import type { RestCalls } from '../../rest/callTypes';
import { backoffDelayMs } from '../../operators/reconnect';
import { identityMismatch } from '../../orders/orderIdentity';
import { noSuchOrder } from '../../orders/noSuchOrder';
import { statusRank } from '../orderState';
import type { FollowedOrder } from './followedOrders';
import type { LatestStates } from './stateFolds';
import type { SyncItem, UserItem } from './items';
import { rateLimitWaitMs } from './sharedListenKey';

/** The REST calls the user stream's snapshots use (a `restClient` has them; the order history is optional). @internal */
export type SnapshotApi = Pick<RestCalls, 'openOrders' | 'getOrder' | 'account'> & Partial<Pick<RestCalls, 'orderHistory'>>;

/** How far before a gap began the order history is read: orders created then may have changed during it. */
const HISTORY_MARGIN_MS = 60_000;

/** `rest` when it has the snapshot calls, else `undefined` (a listen-key-only api: no snapshots). @internal */
export function snapshotApi(rest: object | undefined): SnapshotApi | undefined {
  const api = rest as Partial<SnapshotApi> | undefined;
  return api !== undefined &&
    typeof api.openOrders === 'function' &&
    typeof api.getOrder === 'function' &&
    typeof api.account === 'function'
    ? (api as SnapshotApi)
    : undefined;
}

/** Options of {@link resync}. @internal */
export interface ResyncOptions {
  readonly api: SnapshotApi;
  /** The fold's latest orders: which orders were open before the snapshot. */
  readonly latest: Pick<LatestStates, 'orders'>;
  /** The orders `placeOrder` / `cancelOrder` follow now: looked up too. */
  readonly followed: () => readonly FollowedOrder[];
  /**
   * The earliest the service's clock can read now: `scheduler.now()` plus the REST client's offset, minus how far
   * off that can be. A balance snapshot dated later than it was taken would overwrite the pushes between.
   */
  readonly serverNow: () => number;
  readonly scheduler: SchedulerLike;
  /** Backoff of failed calls (the listen-key options'): cap of the first wait, largest wait, jitter. */
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  readonly random: () => number;
}

const FINISHED = statusRank('FILLED');

/** The order in doubt `ref` names among `orders`, if any (by order id, else by client order id and symbol). */
const names = (ref: OrderIdentity, order: RestOrder): boolean =>
  ref.orderId !== undefined
    ? order.orderId === ref.orderId
    : ref.clientOrderId !== undefined && ref.clientOrderId !== '' && order.clientOrderId === ref.clientOrderId && (ref.symbol === undefined || ref.symbol === order.symbol);

/**
 * The reconciliation of the user stream's state: after every `open` status (the first and each after a gap) the
 * orders that may have changed meanwhile are put in doubt (`reconcile`: every order the state holds as not final,
 * and every order `placeOrder` / `cancelOrder` follow), the open orders are fetched (`restOrders`), then each order
 * still in doubt is looked up alone (`getOrder`, its answer checked to be about that order: another order's answer
 * is an `OrderMismatchError` and the lookup is made again; after a gap, the order history since the gap began comes
 * first, when the api has it), each answer handed on at once (`restOrders`, with the
 * orders still in doubt), and last the account (its time: the account's `updateTime` when sent, else the service's
 * clock when the call was sent); then `sync` for that epoch: the state is authoritative. Any other status (the
 * socket is lost, reconnecting, closed) cancels the work under way and emits `unsync`. Every item of `source` is
 * passed on first, unchanged.
 *
 * A failed call goes to the output as an `error` item and is retried alone, after
 * `random() * min(maxRetryDelayMs, retryDelayMs * 2^(n-1))` and never before a rate limit's `retryAfterMs`
 * (a bare 429 / 418: `maxRetryDelayMs`); nothing ends. "No such order" for a placement in doubt, once its
 * `recvWindow` has passed, settles it: it was not placed. For an order the service did know, it is retried so:
 * the state does not call itself authoritative while an order it knew is unaccounted for. @internal
 */
export function resync(options: ResyncOptions): OperatorFunction<UserItem, UserItem | SyncItem> {
  const { serverNow, scheduler } = options;
  return (source) =>
    new Observable<UserItem | SyncItem>((subscriber) => {
      /** The service's time a little before the last gap began (`undefined` before any gap). */
      let gapFrom: number | undefined;
      const calls: Calls = { options, tell: (error) => subscriber.next({ type: 'error', error }), gapFrom: () => gapFrom };
      let fetching: Subscription | undefined;
      let openEpoch: number | undefined;
      const stop = (): void => {
        fetching?.unsubscribe();
        fetching = undefined;
      };
      const subscription = source.subscribe({
        next: (item) => {
          subscriber.next(item);
          if (item.type === 'gap') gapFrom = Math.max(0, Math.floor(serverNow() - (scheduler.now() - item.gap.downSince) - HISTORY_MARGIN_MS));
          if (item.type !== 'status') return;
          const { status } = item;
          if (status.type === 'open' && status.epoch === openEpoch) return; // the same connection, told again
          stop();
          subscriber.next({ type: 'unsync' }); // nothing when the state is neither authoritative nor reconciling
          openEpoch = status.type === 'open' ? status.epoch : undefined;
          if (status.type === 'open') fetching = reconcile(calls, status.epoch).subscribe((sync) => subscriber.next(sync));
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        subscription.unsubscribe();
        stop();
      };
    });
}

/** What the calls of one `resync` subscription share. */
interface Calls {
  readonly options: ResyncOptions;
  /** A failed call, told on the output (an `error` item). */
  readonly tell: (error: Error) => void;
  /** The service's time a little before the last gap began (`undefined` before any gap). */
  readonly gapFrom: () => number | undefined;
}

/** `call`, retried with backoff (never before a rate limit's wait), each failure told; `optional`: a refusal ends it. */
function retried<A>(c: Calls, call: () => Observable<A>, optional = false): Observable<A> {
  const { scheduler, retryDelayMs, maxRetryDelayMs, random } = c.options;
  return defer(call).pipe(
    retry({
      delay: (error: unknown, attempt: number) => {
        c.tell(error instanceof Error ? error : new Error(String(error)));
        // An optional call the service refuses outright (not a rate limit) is left out: lookups cover for it.
        if (optional && error instanceof RequestRejectedError && !(error instanceof RateLimitedError)) throw error;
        const waitMs = Math.max(rateLimitWaitMs(error, maxRetryDelayMs), backoffDelayMs(attempt, retryDelayMs, maxRetryDelayMs, 2, random));
        return timer(waitMs, scheduler);
      },
    }),
  );
}

/** What may have changed: the orders not final in the state, and the followed ones not final there. */
function inDoubtNow({ latest, followed }: ResyncOptions): OrderIdentity[] {
  const doubts: OrderIdentity[] = [];
  const orders = latest.orders;
  const open = new Set<string>();
  for (const o of orders?.values() ?? []) {
    if (statusRank(o.status) >= FINISHED) continue;
    open.add(o.orderId);
    doubts.push({ orderId: o.orderId, clientOrderId: o.clientOrderId, symbol: o.symbol });
  }
  for (const f of followed()) {
    const known = f.orderId !== undefined ? orders?.get(f.orderId) : [...(orders?.values() ?? [])].find((o) => f.clientOrderId !== undefined && o.clientOrderId === f.clientOrderId && (f.symbol === undefined || o.symbol === f.symbol));
    if (known !== undefined && (statusRank(known.status) >= FINISHED || open.has(known.orderId))) continue;
    doubts.push(f);
  }
  return doubts;
}

/** One order looked up until accounted for: its answer, or `undefined` when it proved not placed. */
function lookUp(c: Calls, ref: OrderIdentity & { readonly notPlacedAfter?: number | undefined }): Observable<RestOrder | undefined> {
  const { api, scheduler } = c.options;
  return retried(c, () =>
    api.getOrder(ref.orderId !== undefined ? { orderId: ref.orderId } : { clientOrderId: ref.clientOrderId! }).pipe(
      map((answer) => {
        const mismatch = identityMismatch('snapshot', ref, answer);
        if (mismatch !== undefined) throw mismatch;
        return answer as RestOrder | undefined;
      }),
      catchError((error: unknown) => {
        if (!noSuchOrder(error) || ref.orderId !== undefined || ref.notPlacedAfter === undefined) return throwError(() => error);
        // A placement in doubt: "no such order" proves it was not placed once it can no longer arrive.
        const waitMs = ref.notPlacedAfter - scheduler.now();
        return waitMs <= 0 ? of(undefined) : timer(waitMs, scheduler).pipe(concatMap(() => lookUp(c, ref)));
      }),
    ),
  );
}

/** The reconciliation after the open of `epoch` (see {@link resync}): `reconcile`, `restOrders` as they come, then `sync`. */
function reconcile(c: Calls, epoch: number): Observable<SyncItem> {
  const { api, latest, serverNow } = c.options;
  const history = typeof api.orderHistory === 'function' ? api.orderHistory.bind(api) : undefined;
  return defer(() => {
    let doubts = inDoubtNow(c.options);
    const settle = (orders: readonly RestOrder[], also?: OrderIdentity): SyncItem => {
      doubts = doubts.filter((ref) => ref !== also && !orders.some((order) => names(ref, order)));
      return { type: 'restOrders', orders, inDoubt: doubts, receivedAtMs: serverNow() };
    };
    // An order a report of the reconnected stream made final meanwhile needs no lookup.
    const settledByStream = (ref: OrderIdentity): boolean => {
      const now = ref.orderId === undefined ? undefined : latest.orders?.get(ref.orderId);
      return now !== undefined && statusRank(now.status) >= FINISHED;
    };
    const balances$ = retried(c, () => {
      const sentAtMs = serverNow();
      return api.account().pipe(map((a): readonly [readonly RestBalance[], number] => [a.balances, a.updateTime ?? sentAtMs]));
    });
    // The account is fetched beside the orders; `sync` comes once both are done.
    let account: readonly [readonly RestBalance[], number] | undefined;
    const orders$ = concat(
      of<SyncItem>({ type: 'reconcile', epoch, inDoubt: doubts }),
      retried(c, () => api.openOrders()).pipe(map((open) => settle(open))),
      // After a gap: the orders created since it began, as far as the history tells (the ones it misses are looked up).
      history === undefined || c.gapFrom() === undefined
        ? EMPTY
        : retried(c, () => history({ startTime: c.gapFrom()!, limit: 1000 }), true).pipe(
            map((orders) => settle(orders)),
            catchError(() => EMPTY),
          ),
      defer(() => from(doubts)).pipe(
        concatMap((ref) =>
          settledByStream(ref)
            ? of(settle([], ref))
            : lookUp(c, ref).pipe(map((answer) => settle(answer === undefined ? [] : [answer], ref))),
        ),
      ),
    );
    return concat(
      merge(orders$, balances$.pipe(tap((fetched) => (account = fetched)), ignoreElements())),
      defer(() => {
        const [balances, balancesTimeMs] = account!;
        return of<SyncItem>({ type: 'sync', epoch, orders: [], balances, balancesTimeMs, receivedAtMs: serverNow() });
      }),
    );
  });
}
