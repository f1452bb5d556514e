/**
 * The private (user data) stream: listen keys, the stream itself, and the folds into current state.
 * @module
 */
export { listenKey } from './listenKey';
export type { ListenKeyApi, ListenKeyConfig } from './listenKey';
export { userStream } from './userStream';
export type { UserStream, UserStreamConfig } from './userStream';
export type { UserCounters, UserStatus } from './userStatus';
export type { UserStreamGap } from './userStreamGap';
export type { StateSync } from './stateSync';
export { privateEventKey } from './privateEventKey';
export { ordersState, OrdersState } from './ordersState';
export type { OrdersStateConfig } from './ordersState';
export type { OrderState } from './orderState';
export { balancesState } from './balancesState';
export type { BalancesState } from './balancesState';
export type { BalanceState } from './balanceState';
export { distinctFills } from './distinctFills';
export type { DistinctFillsConfig } from './distinctFills';
