import type { PrivateEvent } from '../../codecs/privateEvents';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import type { BalancesState } from '../foldBalances';
import type { OrdersState } from '../foldOrders';
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
  | { readonly type: 'orders'; readonly orders: OrdersState }
  | { readonly type: 'balances'; readonly balances: BalancesState };

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
