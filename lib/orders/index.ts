/**
 * The order loop: an order's price and quantity fitted to, and checked against, its symbol's rules.
 * @module
 */
export { symbolRules, fitPrice, fitQuantity, ticksAway, checkOrder, fitOrder } from './symbolRules';
export type { SymbolRules } from './symbolRules';
export type { PlaceOrderOptions } from './orderLoop';
