import type { PrivateEvent } from '../../codecs/privateEvents';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import type { BalancesState } from '../foldBalances';
import type { OrdersState } from '../foldOrders';
import type { UserStreamGap } from '../userStreamGap';

/** What one listen-key session (one connection) produces. @internal */
export type SessionItem =
  | { readonly type: 'start'; readonly keyChanged: boolean }
  | { readonly type: 'event'; readonly event: PrivateEvent }
  | { readonly type: 'error'; readonly error: Error }
  | { readonly type: 'status'; readonly status: ConnectionStatus };

/** What the shared core of a user stream produces; the public streams are filters of it. @internal */
export type UserItem =
  | { readonly type: 'event'; readonly event: PrivateEvent }
  | { readonly type: 'error'; readonly error: Error }
  | { readonly type: 'status'; readonly status: ConnectionStatus }
  | { readonly type: 'gap'; readonly gap: UserStreamGap }
  | { readonly type: 'orders'; readonly orders: OrdersState }
  | { readonly type: 'balances'; readonly balances: BalancesState };
