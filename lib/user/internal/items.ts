/**
 * The items of the private path (see `userCore`): everything but the events, tagged by `type`.
 * @internal
 * @module
 */
import type { RestBalance } from '../../codecs/rest/account';
import type { RestOrder } from '../../codecs/rest/order';
import type { OrderIdentity } from '../../errors';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import type { BalancesState } from '../balancesState';
import type { OrdersState } from '../ordersState';
import type { StateSync } from '../stateSync';
import type { UserStreamGap } from '../userStreamGap';

/**
 * The items of the private path: everything but the events, each tagged by `type`. Events never become items
 * (no wrapper object per event): they travel by plain calls, session → decoder → reorder buffer → folds →
 * outputs (see `userCore`).
 *
 * What one listen-key session (one connection) emits besides its events (which go straight to the sink the
 * session was given, `onEvent`). @internal
 */
export type SessionItem =
  | { readonly type: 'start'; readonly keyChanged: boolean }
  | { readonly type: 'error'; readonly error: Error }
  | { readonly type: 'status'; readonly status: ConnectionStatus };

/** A non-event item of the core of a user stream, as the outputs receive it (see `UserOutputs`). @internal */
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
  /** A connection opened: the orders that may have changed since the last snapshot are in doubt until looked up. */
  | { readonly type: 'reconcile'; readonly epoch: number; readonly inDoubt: readonly OrderIdentity[] }
  /** Orders fetched while reconciling (the open orders, one looked up), and the orders still in doubt after them. */
  | { readonly type: 'restOrders'; readonly orders: readonly RestOrder[]; readonly inDoubt: readonly OrderIdentity[]; readonly receivedAtMs: number }
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
