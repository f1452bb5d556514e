/**
 * The shape of a symbol's trading rules, declared once: the bounds, the `exchangeInfo` filter each is published
 * in, and their meaning. The client reads them from `exchangeInfo` (`symbolRules` of `ex-streams/orders`, as
 * decimal text); the simulator builds them from its options and publishes them (as scaled integers).
 *
 * @module
 */

/**
 * The bounds of one symbol's trading rules, each a `T`: `SymbolRules` holds them as decimal text (each optional).
 *
 * @example
 * ```ts
 * import type { DecimalText, RuleBounds } from 'ex-streams/orders';
 *
 * const steps: Pick<RuleBounds<DecimalText>, 'tickSize' | 'stepSize'> = { tickSize: '0.01', stepSize: '0.0001' };
 * ```
 */
export interface RuleBounds<T> {
  /** Price step (`PRICE_FILTER.tickSize`): a price is a whole multiple of it. */
  readonly tickSize: T;
  /** Lowest price (`PRICE_FILTER.minPrice`). */
  readonly minPrice: T;
  /** Highest price (`PRICE_FILTER.maxPrice`). */
  readonly maxPrice: T;
  /** Quantity step (`LOT_SIZE.stepSize`): a quantity is a whole multiple of it. */
  readonly stepSize: T;
  /** Lowest quantity (`LOT_SIZE.minQty`). */
  readonly minQty: T;
  /** Highest quantity (`LOT_SIZE.maxQty`). */
  readonly maxQty: T;
  /** Lowest order value, price × quantity, of a limit order (`MIN_NOTIONAL.minNotional`). */
  readonly minNotional: T;
  /** Lowest quote amount of a market order (`TRADE_AMOUNT.minAmount`). */
  readonly minAmount: T;
  /** Highest quote amount of a market order (`TRADE_AMOUNT.maxAmount`). */
  readonly maxAmount: T;
}

/** The name of one bound. @internal */
export type RuleBound = keyof RuleBounds<unknown>;

/**
 * The `exchangeInfo` filters that carry the bounds, and the bounds of each in the order the service writes them.
 * Other filters (and other fields) of the service are not rules here. @internal
 */
export const RULE_FILTERS: ReadonlyMap<string, readonly RuleBound[]> = new Map<string, readonly RuleBound[]>([
  ['PRICE_FILTER', ['minPrice', 'maxPrice', 'tickSize']],
  ['LOT_SIZE', ['minQty', 'maxQty', 'stepSize']],
  ['MIN_NOTIONAL', ['minNotional']],
  ['TRADE_AMOUNT', ['minAmount', 'maxAmount']],
]);
