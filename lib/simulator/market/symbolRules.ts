import { decimalsOf, formatDecimal, mul, parseDecimal, SCALE, unit } from '../../decimal/fixed';
import { isStepMultiple, type Scaled } from '../../decimal/scaled';
import { RULE_FILTERS, type RuleBound, type RuleBounds } from '../../orders/ruleBounds';
import { rejections, type HttpRejection } from '../http/httpErrors';

/**
 * Trading rules of one simulated pair (the `symbolRules` option of `startSimulator`), as decimal text. Each
 * field overrides one default; `exchangeInfo` publishes the result as the pair's filters and order placement
 * enforces it (see docs/simulator.md, "Symbol rules").
 *
 * Defaults: `tickSize` 0.01 for pairs starting at 10 or more, else 0.000001; `stepSize` 0.0001; `minPrice` the
 * tick; `maxPrice` 100000000; `minQty` the step; `maxQty` 100000000; `minNotional` 0; `minAmount` the
 * `minNotional`; `maxAmount` 100000000. The decimals of `tickSize` and `stepSize` add up to at most 18.
 *
 * @example
 * ```ts
 * import { startSimulator, type SymbolRulesOptions } from 'ex-streams/simulator';
 * const btc: SymbolRulesOptions = { tickSize: '0.5', minNotional: '10', minQty: '0.001' };
 * const sim = await startSimulator({ symbols: ['BTCUSDT'], symbolRules: { BTCUSDT: btc } });
 * // exchangeInfo now lists PRICE_FILTER tickSize "0.5", LOT_SIZE minQty "0.001", MIN_NOTIONAL "10";
 * // a BUY of 0.001 at 9000 (notional 9) is refused with -1140
 * await sim.close();
 * ```
 */
export interface SymbolRulesOptions {
  /** Price increment (`PRICE_FILTER.tickSize`); prices must be multiples of it (-1134). */
  readonly tickSize?: string | undefined;
  /** Lowest limit price (`PRICE_FILTER.minPrice`; -1133 below). */
  readonly minPrice?: string | undefined;
  /** Highest limit price (`PRICE_FILTER.maxPrice`; -1132 above). */
  readonly maxPrice?: string | undefined;
  /** Quantity increment (`LOT_SIZE.stepSize`); quantities must be multiples of it (-1137). */
  readonly stepSize?: string | undefined;
  /** Lowest quantity (`LOT_SIZE.minQty`; -1136 below). */
  readonly minQty?: string | undefined;
  /** Highest quantity (`LOT_SIZE.maxQty`; -1135 above). */
  readonly maxQty?: string | undefined;
  /** Lowest price × quantity of a limit order (`MIN_NOTIONAL.minNotional`; -1140 below). */
  readonly minNotional?: string | undefined;
  /** Lowest quote amount of a market buy by amount (`TRADE_AMOUNT.minAmount`; -1140 below). */
  readonly minAmount?: string | undefined;
  /** Highest quote amount of a market buy by amount (`TRADE_AMOUNT.maxAmount`; -1206 above). */
  readonly maxAmount?: string | undefined;
}

/** The rules of one pair, scaled decimals: the bounds of `RuleBounds`, the shape the client reads them in. @internal */
export type SymbolRules = RuleBounds<bigint>;

const MAX = 100_000_000n * unit(0);

/**
 * The rules of `symbol` from its default precisions and the overrides; throws (naming the symbol, the field
 * and the rule) when an override is not decimal text, a size is not positive, a minimum exceeds its maximum,
 * or the tick's and the step's decimals add up to more than 18 (prices × quantities would not be exact).
 * @internal
 */
export function symbolRules(symbol: string, priceDecimals: number, qtyDecimals: number, options: SymbolRulesOptions = {}): SymbolRules {
  const read = (name: RuleBound, fallback: bigint): bigint => {
    const text = options[name];
    if (text === undefined) return fallback;
    const value = parseDecimal(text);
    if (value === undefined) throw new Error(`symbolRules.${symbol}.${name} must be plain decimal text (at most 18 decimals), got '${text}'`);
    return value;
  };
  const tickSize = read('tickSize', unit(priceDecimals));
  const stepSize = read('stepSize', unit(qtyDecimals));
  const minNotional = read('minNotional', 0n);
  const rules: SymbolRules = {
    tickSize,
    minPrice: read('minPrice', tickSize),
    maxPrice: read('maxPrice', MAX),
    stepSize,
    minQty: read('minQty', stepSize),
    maxQty: read('maxQty', MAX),
    minNotional,
    minAmount: read('minAmount', minNotional),
    maxAmount: read('maxAmount', MAX),
  };
  const fail = (rule: string): never => {
    throw new Error(`symbolRules.${symbol}: ${rule}`);
  };
  if (tickSize <= 0n || stepSize <= 0n) fail('tickSize and stepSize must be positive');
  if (rules.minPrice <= 0n || rules.minQty <= 0n) fail('minPrice and minQty must be positive');
  if (rules.minPrice > rules.maxPrice || rules.minQty > rules.maxQty || rules.minAmount > rules.maxAmount) {
    fail('each minimum must be at most its maximum');
  }
  if (decimalsOf(tickSize) + decimalsOf(stepSize) > SCALE) fail('the decimals of tickSize and stepSize must add up to at most 18');
  return rules;
}

/** `exchangeInfo`'s filters of a pair, decimal text. @internal */
export function symbolFilters(r: SymbolRules): object[] {
  return [...RULE_FILTERS].map(([filterType, bounds]) => {
    const filter: Record<string, string> = { filterType };
    for (const bound of bounds) filter[bound] = formatDecimal(r[bound]);
    return filter;
  });
}

/** A scaled integer of the simulator (18 decimals) as a {@link Scaled}. */
const scaled = (units: bigint): Scaled => ({ units, scale: SCALE });

/** Whether `value` is a whole multiple of `step` (positive), both scaled integers of the simulator. */
const onStep = (value: bigint, step: bigint): boolean => isStepMultiple(scaled(value), scaled(step));

/** Why a positive quantity breaks the LOT_SIZE filter (step, then minimum, then maximum), if it does. @internal */
export function quantityRejection(r: SymbolRules, qty: bigint): HttpRejection | undefined {
  if (!onStep(qty, r.stepSize)) return rejections.quantityTooPrecise;
  if (qty < r.minQty) return rejections.quantityTooSmall;
  if (qty > r.maxQty) return rejections.quantityTooLarge;
  return undefined;
}

/**
 * Why a positive limit price and quantity break the rules, if they do: the price (tick, minimum, maximum),
 * then the quantity ({@link quantityRejection}), then price × quantity against `minNotional`.
 * @internal
 */
export function limitRejection(r: SymbolRules, price: bigint, qty: bigint): HttpRejection | undefined {
  if (!onStep(price, r.tickSize)) return rejections.priceTooPrecise;
  if (price < r.minPrice) return rejections.priceTooLow;
  if (price > r.maxPrice) return rejections.priceTooHigh;
  return quantityRejection(r, qty) ?? (mul(price, qty) < r.minNotional ? rejections.notionalTooSmall : undefined);
}

/**
 * Why a positive market-buy amount breaks the rules, if it does: more decimals than the tick's (-1148), below
 * `minAmount` (-1140), above `maxAmount` (-1206).
 * @internal
 */
export function amountRejection(r: SymbolRules, amount: bigint): HttpRejection | undefined {
  if (!onStep(amount, unit(decimalsOf(r.tickSize)))) return rejections.amountTooPrecise;
  if (amount < r.minAmount) return rejections.notionalTooSmall;
  if (amount > r.maxAmount) return rejections.amountTooLarge;
  return undefined;
}
