/**
 * Beside the private path (see `userCore`): the REST snapshots after each open, handed to the folds (step 4) as `sync` items.
 * @internal
 * @module
 */
import { concatMap, defer, forkJoin, from, map, Observable, type OperatorFunction, retry, type SchedulerLike, type Subscription, timer, toArray } from 'rxjs';
import type { RestBalance } from '../../codecs/rest/account';
import type { RestOrder } from '../../codecs/rest/order';
import type { RestCalls } from '../../rest/callTypes';
import { backoffDelayMs } from '../../operators/reconnect';
import { statusRank } from '../orderState';
import type { LatestStates } from './stateFolds';
import type { SyncItem, UserItem } from './items';
import { rateLimitWaitMs } from './sharedListenKey';

/** The REST calls the user stream's snapshots use (a `restClient` has them). @internal */
export type SnapshotApi = Pick<RestCalls, 'openOrders' | 'getOrder' | 'account'>;

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

/**
 * The healing of the user stream's state: after every `open` status (the first and each after a gap) fetches
 * the open orders, then one by one (`getOrder`) the orders open in the state that are not among them, and
 * the account (its time: the account's `updateTime` when sent, else the service's clock when the call was
 * sent), and hands them to the fold as one `sync` item for that epoch. Any other status (the socket is
 * lost, reconnecting, closed) cancels a fetch under way and emits `unsync`. Every item of `source` is passed
 * on first, unchanged.
 *
 * A failed call goes to the output as an `error` item and is retried alone, after
 * `random() * min(maxRetryDelayMs, retryDelayMs * 2^(n-1))` and never before a rate limit's `retryAfterMs`
 * (a bare 429 / 418: `maxRetryDelayMs`); nothing ends. @internal
 */
export function resync(options: ResyncOptions): OperatorFunction<UserItem, UserItem | SyncItem> {
  const { api, latest, serverNow, scheduler, retryDelayMs, maxRetryDelayMs, random } = options;
  return (source) =>
    new Observable<UserItem | SyncItem>((subscriber) => {
      const retried = <A>(call: () => Observable<A>): Observable<A> =>
        defer(call).pipe(
          retry({
            delay: (error: unknown, attempt: number) => {
              subscriber.next({ type: 'error', error: error instanceof Error ? error : new Error(String(error)) });
              const waitMs = Math.max(rateLimitWaitMs(error, maxRetryDelayMs), backoffDelayMs(attempt, retryDelayMs, maxRetryDelayMs, 2, random));
              return timer(waitMs, scheduler);
            },
          }),
        );
      const orders$ = retried(() => api.openOrders()).pipe(
        concatMap((open) => {
          const ids = new Set(open.map((o) => o.orderId));
          const gone = [...(latest.orders?.values() ?? [])].filter((o) => statusRank(o.status) < FINISHED && !ids.has(o.orderId));
          return from(gone).pipe(
            concatMap((o) => retried(() => api.getOrder({ orderId: o.orderId }))),
            toArray(),
            map((left): readonly RestOrder[] => [...open, ...left]),
          );
        }),
      );
      const balances$ = retried(() => {
        const sentAtMs = serverNow();
        return api.account().pipe(map((a): readonly [readonly RestBalance[], number] => [a.balances, a.updateTime ?? sentAtMs]));
      });
      const snapshot = (epoch: number): Observable<SyncItem> =>
        forkJoin([orders$, balances$]).pipe(
          map(([orders, [balances, balancesTimeMs]]): SyncItem => ({
            type: 'sync',
            epoch,
            orders,
            balances,
            balancesTimeMs,
            receivedAtMs: serverNow(),
          })),
        );

      let fetching: Subscription | undefined;
      let openEpoch: number | undefined;
      const stop = (): void => {
        fetching?.unsubscribe();
        fetching = undefined;
      };
      const subscription = source.subscribe({
        next: (item) => {
          subscriber.next(item);
          if (item.type !== 'status') return;
          const { status } = item;
          if (status.type === 'open' && status.epoch === openEpoch) return; // the same connection, told again
          stop();
          subscriber.next({ type: 'unsync' }); // nothing when the state is not authoritative
          openEpoch = status.type === 'open' ? status.epoch : undefined;
          if (status.type === 'open') fetching = snapshot(status.epoch).subscribe((sync) => subscriber.next(sync));
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
