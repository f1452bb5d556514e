import type { PrivateEvent } from '../../codecs/privateEvents';
import type { RestBalance } from '../../codecs/rest/account';
import type { RestOrder } from '../../codecs/rest/order';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import type { BalancesState } from '../balancesState';
import type { OrdersState } from '../ordersState';
import type { StateSync } from '../stateSync';
import type { UserStreamGap } from '../userStreamGap';

/**
 * What one listen-key session (one connection) emits besides its events (which go straight to the
 * session's `onEvent`, no item per event). @internal
 */
export type SessionItem =
  | { readonly type: 'start'; readonly keyChanged: boolean }
  | { readonly type: 'error'; readonly error: Error }
  | { readonly type: 'status'; readonly status: ConnectionStatus };

/** A non-event item of the shared core of a user stream. @internal */
export type UserItem =
  | { readonly type: 'error'; readonly error: Error }
  | { readonly type: 'status'; readonly status: ConnectionStatus }
  | { readonly type: 'gap'; readonly gap: UserStreamGap }
  | { readonly type: 'orders'; readonly orders: OrdersState & StateSync }
  | { readonly type: 'balances'; readonly balances: BalancesState & StateSync };

/**
 * What the resync stage hands the fold (never passed on): `unsync` when the socket is lost (the state stops
 * being authoritative), `sync` with the snapshots fetched after the open of `epoch`. @internal
 */
export type SyncItem =
  | { readonly type: 'unsync' }
  | {
      readonly type: 'sync';
      readonly epoch: number;
      /** The open orders, then the orders fetched one by one. */
      readonly orders: readonly RestOrder[];
      readonly balances: readonly RestBalance[];
      /** The account snapshot's time on the service's clock (see `applyBalanceSnapshot`). */
      readonly balancesTimeMs: number;
      /** The clock (service time) when the snapshots arrived: the time of an order without one. */
      readonly receivedAtMs: number;
    };

/**
 * What the shared core of a user stream emits: each event as itself (no wrapper object per event) and the
 * other items wrapped. The public streams pick one kind each; see {@link isEvent}. @internal
 */
export type CoreItem = PrivateEvent | UserItem;

/**
 * Tells an event from a wrapped item: every event has a text `e` (its codec requires it), no wrapper has an
 * `e`. (`type` cannot tell them apart: an event keeps the extra fields of its JSON, `type` among them.)
 * @internal
 */
export const isEvent = (item: CoreItem): item is PrivateEvent => typeof (item as { readonly e?: unknown }).e === 'string';
