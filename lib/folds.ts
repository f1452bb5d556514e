/**
 * `ex-streams/folds`: the folds `userStream` already applies to the private events, for who folds events
 * themselves (from a recording, another transport, a test): orders and balances into current state, fills without
 * repeats, and events put back in their event-time order. Runs in browsers and in Node.
 *
 * @packageDocumentation
 */
export { ordersState, OrdersState } from './user/ordersState';
export type { OrdersStateConfig } from './user/ordersState';
export { balancesState } from './user/balancesState';
export type { BalancesState } from './user/balancesState';
export { distinctFills } from './user/distinctFills';
export type { DistinctFillsConfig } from './user/distinctFills';
export { privateEventKey } from './user/privateEventKey';
export { reorderByEventTime } from './operators/reorderByEventTime';
export type { ReorderByEventTimeConfig, LatePolicy } from './operators/reorderByEventTime';
export { LateEventError } from './operators/lateEventError';
