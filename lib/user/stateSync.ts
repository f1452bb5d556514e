import type { OrderIdentity } from '../errors';

/**
 * Whether a state of `userStream` (`orders$`, `balances$`) is authoritative: carried by every state it emits
 * (non-enumerable properties of the map, so `toEqual(new Map([...]))` still holds).
 *
 * - `authoritative`: `true` once the state was merged with the service's own answer (open orders, the orders
 *   that left them, the account) fetched after the current connection opened, and as long as that connection
 *   lasts; `false` before, while the socket is down or reconnecting, and always without REST snapshots
 *   (a `listenKey$` config, `resync: false`). When it turns `false` or `true` both states are emitted again.
 * - `syncedEpoch`: the connection epoch (as on `status$`) the last completed snapshot was taken after;
 *   `undefined` before the first.
 *
 * @example
 * ```ts
 * import { filter, firstValueFrom } from 'rxjs';
 * import { restClient, userStream } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * const user = userStream({ url: 'wss://stream.example.com/api/v1/ws', rest });
 * const orders = await firstValueFrom(user.orders$.pipe(filter((s) => s.authoritative)));
 * console.log(orders.size, 'orders known, synced after epoch', orders.syncedEpoch); // 2 orders known, synced after epoch 1
 * ```
 */
export interface StateSync {
  /** The state agrees with the service's snapshot taken after the current connection opened. */
  readonly authoritative: boolean;
  /** Epoch of the connection the last completed snapshot was taken after; `undefined` before the first. */
  readonly syncedEpoch?: number | undefined;
  /**
   * `true` from a connection's open until every order that may have changed meanwhile is accounted for (the open
   * orders, then a lookup of each other order that was not final or that `placeOrder` / `cancelOrder` follow) and
   * the account is fetched; then `authoritative` turns `true`. `false` while the socket is down and once authoritative.
   */
  readonly reconciling?: boolean | undefined;
  /**
   * While `reconciling`: the orders whose state is not known yet (they may have filled or been cancelled while the
   * stream was down), each as far as it is known. Empty otherwise.
   */
  readonly inDoubt?: readonly OrderIdentity[] | undefined;
}

const NO_DOUBT: readonly OrderIdentity[] = Object.freeze([]);

/** Marks a fresh (never emitted) map with its sync state, as non-enumerable read-only properties. @internal */
export function withSync<M extends object>(map: M, sync: StateSync): M & StateSync {
  return Object.defineProperties(map, {
    authoritative: { value: sync.authoritative },
    syncedEpoch: { value: sync.syncedEpoch },
    reconciling: { value: sync.reconciling ?? false },
    inDoubt: { value: sync.inDoubt ?? NO_DOUBT },
  }) as M & StateSync;
}
