/**
 * `ex-streams/orders`: exact prices and quantities. An order's price and quantity fitted to, and checked against,
 * its symbol's rules (tick size, step size, minimum notional), and the decimal-text arithmetic they are computed
 * with, never through a float. Runs in browsers and in Node.
 *
 * @packageDocumentation
 */

// Symbol rules
export { symbolRules, fitPrice, fitQuantity, ticksAway, checkOrder, fitOrder } from './symbolRules';
export type { SymbolRules } from './symbolRules';
export type { RuleBounds } from './ruleBounds';
export { OrderRuleError } from '../errors';
export type { OrderRule } from '../errors';

// Decimal text
export { addDecimal, averagePrice, decimalToNumber, divideDecimal, isDecimalText, multiplyDecimal, subtractDecimal, toDecimalText } from '../decimal';
export type { DecimalText } from '../decimal';
