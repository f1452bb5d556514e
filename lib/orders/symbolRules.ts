// The order loop (docs/orders.md): an order's price and quantity fitted to, and checked against, its symbol's rules
// before it is sent. Exact decimal arithmetic only (lib/decimal/), never a float.
import type { OrderSide } from '../codecs/executionReport';
import type { ExchangeInfo, SymbolInfo } from '../codecs/rest/exchangeInfo';
import { isDecimalText, type DecimalText } from '../decimal';
import { ConfigError, OrderRuleError, type OrderRule } from '../errors';
import { canonicalScaled, commonScale, compareScaled, formatScaled, isStepMultiple, multiplyScaled, parseScaled, type Scaled, toStep } from '../decimal/scaled';
import { excerpt } from '../internal/redact';
import { RULE_FILTERS, type RuleBound, type RuleBounds } from './ruleBounds';
import type { NewOrderRequest } from '../rest/callTypes';

/**
 * The trading rules of one symbol, read from its `exchangeInfo` filters by {@link symbolRules}: each bound as
 * canonical decimal text (`'0.01'`, `'100000'`), absent when the service did not send it or sent zero (which
 * venues of this kind use for "no bound"). The bounds are those of {@link RuleBounds}.
 *
 * @example
 * ```ts
 * import { fitPrice, type SymbolRules } from 'ex-streams/orders';
 *
 * const btc: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.01', stepSize: '0.0001', minQty: '0.0001', minNotional: '5' };
 * fitPrice(btc, 'BUY', '30000.129'); // '30000.12'
 * ```
 */
export interface SymbolRules extends Partial<RuleBounds<DecimalText>> {
  /** The symbol these rules are for. */
  readonly symbol: string;
}

/** The value of a bound when it is decimal text above zero; `undefined` for "no bound". */
function positive(text: string | undefined): Scaled | undefined {
  const value = text === undefined ? undefined : parseScaled(text);
  return value !== undefined && value.units > 0n ? value : undefined;
}

function rulesOf(info: SymbolInfo): SymbolRules {
  const rules: { -readonly [K in keyof SymbolRules]: SymbolRules[K] } = { symbol: info.symbol };
  for (const filter of info.filters ?? []) {
    for (const bound of RULE_FILTERS.get(filter.filterType) ?? []) {
      const value = positive(filter[bound]);
      // The first filter that gives a bound keeps it.
      if (value !== undefined && rules[bound] === undefined) rules[bound] = formatScaled(canonicalScaled(value));
    }
  }
  return rules;
}

/**
 * The rules of every symbol of an `exchangeInfo` answer, by symbol: price bounds and tick (`PRICE_FILTER`),
 * quantity bounds and step (`LOT_SIZE`), the minimum notional (`MIN_NOTIONAL`) and a market order's amount
 * bounds (`TRADE_AMOUNT`). A missing filter or field leaves that bound out; a zero bound is no bound; other
 * filters the service sends are ignored. Bounds are written canonically (`'0.0100'` → `'0.01'`).
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import { symbolRules } from 'ex-streams/orders';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * rest.exchangeInfo().subscribe((info) => {
 *   const btc = symbolRules(info).get('BTCUSDT');
 *   console.log(btc?.tickSize, btc?.stepSize, btc?.minNotional); // '0.01' '0.0001' '5'
 * });
 * ```
 */
export function symbolRules(exchangeInfo: ExchangeInfo): ReadonlyMap<string, SymbolRules> {
  return new Map(exchangeInfo.symbols.map((info) => [info.symbol, rulesOf(info)]));
}

/** `text` rounded `rounding` to a multiple of `step` (when there is one), canonical; `undefined` when nothing is left. */
function fitted(text: string, step: DecimalText | undefined, rounding: 'down' | 'up'): DecimalText | undefined {
  const value = parseScaled(text);
  if (value === undefined || value.units < 0n) return undefined;
  const grid = positive(step);
  const fit = grid === undefined ? value : toStep(value, grid, rounding);
  return fit.units > 0n ? formatScaled(canonicalScaled(fit)) : undefined;
}

/**
 * `price` on the symbol's tick, never more aggressive than asked: a `BUY` rounds down, a `SELL` up, to a
 * multiple of `tickSize` (unchanged without one). Canonical plain text (`'20000.1'`, not `'20000.10'`).
 * `undefined` when `price` is not decimal text, is negative, or a buy below one tick rounds to zero. It does not
 * move a price into `[minPrice, maxPrice]`: {@link checkOrder} tells.
 *
 * @example
 * ```ts
 * import { fitPrice, type SymbolRules } from 'ex-streams/orders';
 *
 * const rules: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.01' };
 * fitPrice(rules, 'BUY', '20000.129');  // '20000.12'
 * fitPrice(rules, 'SELL', '20000.121'); // '20000.13'
 * fitPrice(rules, 'SELL', '20000.10');  // '20000.1'
 * fitPrice(rules, 'BUY', '0.004');      // undefined
 * ```
 */
export function fitPrice(rules: SymbolRules, side: OrderSide, price: string): DecimalText | undefined {
  return fitted(price, rules.tickSize, side === 'BUY' ? 'down' : 'up');
}

/**
 * `quantity` rounded down to a multiple of the symbol's `stepSize` (unchanged without one), so an order never
 * asks for more than `quantity`. Canonical plain text. `undefined` when `quantity` is not decimal text, is
 * negative, or is below one step.
 *
 * @example
 * ```ts
 * import { fitQuantity, type SymbolRules } from 'ex-streams/orders';
 *
 * const rules: SymbolRules = { symbol: 'BTCUSDT', stepSize: '0.001' };
 * fitQuantity(rules, '0.12345'); // '0.123'
 * fitQuantity(rules, '1.5000');  // '1.5'
 * fitQuantity(rules, '0.0009');  // undefined
 * ```
 */
export function fitQuantity(rules: SymbolRules, quantity: string): DecimalText | undefined {
  return fitted(quantity, rules.stepSize, 'down');
}

/** Characters of a value that is not decimal text quoted in an error. */
const QUOTED_CHARACTERS = 16;

type Field = OrderRuleError['field'];
type Test = 'min' | 'max' | 'multiple';
type Checks = readonly (readonly [RuleBound & OrderRule, Test])[];

const PRICE_CHECKS: Checks = [['minPrice', 'min'], ['maxPrice', 'max'], ['tickSize', 'multiple']];
const RANGE_CHECKS: Checks = [['minPrice', 'min'], ['maxPrice', 'max']];
const QUANTITY_CHECKS: Checks = [['minQty', 'min'], ['maxQty', 'max'], ['stepSize', 'multiple']];
const AMOUNT_CHECKS: Checks = [['minAmount', 'min'], ['maxAmount', 'max']];
const NOTIONAL_CHECKS: Checks = [['minNotional', 'min']];

function breaks(test: Test, value: Scaled, bound: Scaled): boolean {
  switch (test) {
    case 'min':
      return compareScaled(value, bound) < 0;
    case 'max':
      return compareScaled(value, bound) > 0;
    case 'multiple':
      return !isStepMultiple(value, bound);
    default: {
      const never: never = test;
      return never;
    }
  }
}

/** The first of `checks` that `value` breaks, as an error; `undefined` when it keeps them all. */
function firstBroken(rules: SymbolRules, symbol: string, field: Field, text: string, value: Scaled, checks: Checks): OrderRuleError | undefined {
  for (const [rule, test] of checks) {
    const boundText = rules[rule];
    const bound = positive(boundText);
    if (bound !== undefined && breaks(test, value, bound)) return new OrderRuleError(symbol, field, rule, boundText, text);
  }
  return undefined;
}

/**
 * The value of `text` with the error of the first of `checks` it breaks (`'decimal'` when it is not plain text,
 * or not text at all: a request built without the types).
 */
function checked(rules: SymbolRules, symbol: string, field: Field, text: string, checks: Checks): Scaled | OrderRuleError {
  const value = typeof text === 'string' && isDecimalText(text) ? parseScaled(text) : undefined;
  if (value === undefined) return new OrderRuleError(symbol, field, 'decimal', undefined, JSON.stringify(excerpt(String(text), undefined, QUOTED_CHARACTERS)));
  return firstBroken(rules, symbol, field, text, value, checks) ?? value;
}

/**
 * The price `ticks` whole ticks of the symbol's `tickSize` away from `price` (up for a positive `ticks`, down for
 * a negative one), on the tick grid and inside `[minPrice, maxPrice]`: "one tick under the best bid" in one
 * exact call. Canonical plain text (`'30000.1'`), ready for an order. From a price on the grid the result is
 * `price ± ticks × tickSize`. From a price between two ticks, the first tick in the direction of the step
 * counts as the first tick (`+1` is the tick just above it, `-1` the tick just below it), so the result is
 * always strictly on the side asked for; `ticks` of 0 returns `price` when it keeps the rules, and throws for
 * an off-grid price (fit it with {@link fitPrice}, which knows the side).
 *
 * `price` is decimal text (the wire grammar: a book's or a trade's price goes in as it is), not below zero.
 * Throws an `OrderRuleError` (field `'price'`) for a `price` that is not decimal text or is negative (rule
 * `'decimal'`), for a result below `minPrice` or above `maxPrice` (that rule and bound: nothing is clamped), and
 * for a result at or below zero when there is no `minPrice` (rule `'minPrice'`, the tick as its bound: one tick is
 * the lowest price). Throws a `ConfigError` when the rules have no `tickSize`, or `ticks` is not a safe integer.
 *
 * @example
 * ```ts
 * import { ticksAway, type SymbolRules } from 'ex-streams/orders';
 *
 * const rules: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.01', minPrice: '0.01', maxPrice: '100000' };
 * ticksAway(rules, '30000.10', -1);  // '30000.09': one tick under the best bid
 * ticksAway(rules, '30000.10', 5);   // '30000.15'
 * ticksAway(rules, '30000.105', 1);  // '30000.11': off the grid, the next tick up
 * ticksAway(rules, '30000.105', -1); // '30000.1'
 * ticksAway(rules, '0.01', -1);      // throws OrderRuleError: 'BTCUSDT price 0 is below the minimum price 0.01'
 * ```
 */
export function ticksAway(rules: SymbolRules, price: string, ticks: number): DecimalText {
  const { symbol } = rules;
  const tick = positive(rules.tickSize);
  if (tick === undefined) throw new ConfigError('rules', `of ${symbol} have no tick size`);
  if (!Number.isSafeInteger(ticks)) throw new ConfigError('ticks', `must be a whole number of ticks: ${String(ticks)}`);
  const start = typeof price === 'string' ? parseScaled(price) : undefined;
  if (start === undefined || start.units < 0n) {
    throw new OrderRuleError(symbol, 'price', 'decimal', undefined, JSON.stringify(excerpt(String(price), undefined, QUOTED_CHARACTERS)));
  }
  const [units, step, scale] = commonScale(start, tick);
  const rest = units % step;
  if (ticks === 0 && rest !== 0n) throw new OrderRuleError(symbol, 'price', 'tickSize', rules.tickSize, price);
  // The grid price the steps count from: the tick at or below `price` going up, at or above it going down.
  const from = rest === 0n || ticks > 0 ? units - rest : units - rest + step;
  const result = { units: from + BigInt(ticks) * step, scale };
  const text = formatScaled(canonicalScaled(result));
  const broken = firstBroken(rules, symbol, 'price', text, result, RANGE_CHECKS);
  if (broken !== undefined) throw broken;
  if (result.units <= 0n) throw new OrderRuleError(symbol, 'price', 'minPrice', rules.tickSize, text);
  return text;
}

/**
 * The first rule of its symbol that `request` breaks, as an {@link OrderRuleError} naming the rule, its bound
 * and the order's value; `undefined` when the order keeps them all. Checked in this order: a limit order's
 * price (plain decimal text, `minPrice`, `maxPrice`, `tickSize`), its quantity (plain, `minQty`, `maxQty`,
 * `stepSize`), then price × quantity against `minNotional`; a market order's quantity (as above) and amount
 * (plain, `minAmount`, `maxAmount`). A bound the rules lack is not checked (so a zero price passes when there
 * is no `minPrice`; the service refuses it). Throws a `ConfigError` when `rules` are another symbol's.
 *
 * @example
 * ```ts
 * import { checkOrder, type SymbolRules } from 'ex-streams/orders';
 *
 * const rules: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.01', minQty: '0.001', minNotional: '5' };
 * checkOrder(rules, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '20000.1', quantity: '0.01' }); // undefined
 * checkOrder(rules, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '20000.123', quantity: '0.01' })?.message;
 * // 'BTCUSDT price 20000.123 is not a multiple of the tick size 0.01'
 * checkOrder(rules, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '100', quantity: '0.01' })?.rule; // 'minNotional'
 * ```
 */
export function checkOrder(rules: SymbolRules, request: NewOrderRequest): OrderRuleError | undefined {
  const { symbol } = request;
  if (symbol !== rules.symbol) throw new ConfigError('rules', `are for ${rules.symbol}, the order is for ${symbol}`);
  if (request.type === 'MARKET') {
    const quantity = request.quantity === undefined ? undefined : checked(rules, symbol, 'quantity', request.quantity, QUANTITY_CHECKS);
    if (quantity instanceof OrderRuleError) return quantity;
    const amount = request.amount === undefined ? undefined : checked(rules, symbol, 'amount', request.amount, AMOUNT_CHECKS);
    return amount instanceof OrderRuleError ? amount : undefined;
  }
  const price = checked(rules, symbol, 'price', request.price, PRICE_CHECKS);
  if (price instanceof OrderRuleError) return price;
  const quantity = checked(rules, symbol, 'quantity', request.quantity, QUANTITY_CHECKS);
  if (quantity instanceof OrderRuleError) return quantity;
  const notional = multiplyScaled(price, quantity);
  return firstBroken(rules, symbol, 'notional', formatScaled(canonicalScaled(notional)), notional, NOTIONAL_CHECKS);
}

/**
 * `request` with its price fitted to the tick ({@link fitPrice}: a buy down, a sell up) and its quantity to the
 * step ({@link fitQuantity}: down), then checked ({@link checkOrder}): the order to send, or an
 * {@link OrderRuleError} thrown for the rule it still breaks (a quantity below `minQty`, a value below
 * `minNotional`, ...). A value that cannot be fitted (not decimal text, or nothing left after rounding) is
 * checked as it is, so the error names it. A market order's amount is checked, not changed.
 *
 * @example
 * ```ts
 * import { fitOrder, type SymbolRules } from 'ex-streams/orders';
 *
 * const rules: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.01', stepSize: '0.0001', minNotional: '5' };
 * fitOrder(rules, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000.005', quantity: '0.123456' });
 * // { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000.01', quantity: '0.1234' }
 * fitOrder(rules, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.0001' });
 * // throws OrderRuleError: 'BTCUSDT notional 3 is below the minimum notional 5'
 * ```
 */
export function fitOrder(rules: SymbolRules, request: NewOrderRequest): NewOrderRequest {
  const quantity = request.quantity === undefined ? undefined : fitQuantity(rules, request.quantity) ?? request.quantity;
  const order: NewOrderRequest =
    request.type === 'MARKET'
      ? quantity === undefined ? request : { ...request, quantity }
      : { ...request, price: fitPrice(rules, request.side, request.price) ?? request.price, quantity: quantity ?? request.quantity };
  const broken = checkOrder(rules, order);
  if (broken !== undefined) throw broken;
  return order;
}
