/**
 * The three demo orders, derived from the current order books. Pure: a limit price is computed exactly
 * (`multiplyDecimal`: 1% under the bid, say), a quantity from a quote amount (`divideDecimal`), then fitted to the
 * symbol's rules by `fitPrice` / `fitQuantity`: exact decimal text on the tick and the step, never a float.
 */
import type { OrderBook, OrderSide } from '../../../lib/index';
import { divideDecimal, fitPrice, fitQuantity, multiplyDecimal, type DecimalText, type SymbolRules } from '../../../lib/orders/index';
import type { OrderRole } from './model';

/** One order the demo will place. */
export interface PlannedOrder {
  readonly role: OrderRole;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly quantity: DecimalText;
  readonly price: DecimalText;
  readonly clientOrderId: string;
  /** Why this order behaves as it does, for the log. */
  readonly why: string;
}

/** Inputs of {@link planOrders}. */
export interface PlanInput {
  /** Book of the symbol of the resting and the cancelled order. */
  readonly restBook: OrderBook;
  /** Book of the symbol of the order that fills. */
  readonly fillBook: OrderBook;
  /** On the simulator the filling order is larger than any book level (so it fills in steps); elsewhere it is tiny. */
  readonly simulator: boolean;
  /** Makes the client order ids unique per run (e.g. the start time). */
  readonly runId: string;
  /** The symbols' rules (`symbolRules(exchangeInfo)`): prices on the tick, quantities on the step. */
  readonly rules: ReadonlyMap<string, SymbolRules>;
}

/** Quote amount of the resting orders, and of the filling order on a real deployment. */
const REST_NOTIONAL = { simulator: '1000', deployment: '20' } as const;
/** Simulated book levels hold at most 2 units: 2.5 always takes two levels or more. */
const SIMULATOR_FILL_QUANTITY = '2.5';

/** `price × factor` on the tick (a buy rounds down); `undefined` below one tick. */
const priceNear = (rules: SymbolRules, side: OrderSide, price: DecimalText, factor: DecimalText): DecimalText | undefined => {
  const value = multiplyDecimal(price, factor);
  return value === undefined ? undefined : fitPrice(rules, side, value);
};
/** The quantity worth `notional` at `price`, down to the step; at least the minimum quantity (or one step). */
const quantityFor = (rules: SymbolRules, notional: DecimalText, price: DecimalText): DecimalText | undefined => {
  const quantity = divideDecimal(notional, price);
  return (quantity === undefined ? undefined : fitQuantity(rules, quantity)) ?? rules.minQty ?? rules.stepSize;
};

/**
 * Plans, in placement order: a BUY 1% under the best bid (rests), a BUY 2% under it (cancelled later) and a
 * BUY 1% over the best ask (fills at once against the asks). `undefined` when a book has no bid or ask, or a
 * symbol has no rules.
 */
export function planOrders({ restBook, fillBook, simulator, runId, rules }: PlanInput): PlannedOrder[] | undefined {
  const bid = restBook.bestBid;
  const ask = fillBook.bestAsk;
  const restRules = rules.get(restBook.symbol);
  const fillRules = rules.get(fillBook.symbol);
  if (bid === undefined || ask === undefined || restRules === undefined || fillRules === undefined) return undefined;
  const bidPrice = bid[0];
  const askPrice = ask[0];
  const notional = simulator ? REST_NOTIONAL.simulator : REST_NOTIONAL.deployment;
  const restQuantity = quantityFor(restRules, notional, bidPrice);
  const fillQuantity = simulator ? fitQuantity(fillRules, SIMULATOR_FILL_QUANTITY) : quantityFor(fillRules, notional, askPrice);
  const restsAt = priceNear(restRules, 'BUY', bidPrice, '0.99');
  const cancelledAt = priceNear(restRules, 'BUY', bidPrice, '0.98');
  const fillsAt = priceNear(fillRules, 'BUY', askPrice, '1.01');
  if (restQuantity === undefined || fillQuantity === undefined) return undefined;
  if (restsAt === undefined || cancelledAt === undefined || fillsAt === undefined) return undefined;
  const id = (role: string): string => `demo${role}${runId}`;
  return [
    {
      role: 'rests',
      symbol: restBook.symbol,
      side: 'BUY',
      price: restsAt,
      quantity: restQuantity,
      clientOrderId: id('Rest'),
      why: '1% under the best bid: rests on the book',
    },
    {
      role: 'cancelled',
      symbol: restBook.symbol,
      side: 'BUY',
      price: cancelledAt,
      quantity: restQuantity,
      clientOrderId: id('Cancel'),
      why: '2% under the best bid: rests until the demo cancels it',
    },
    {
      role: 'fills',
      symbol: fillBook.symbol,
      side: 'BUY',
      price: fillsAt,
      quantity: fillQuantity,
      clientOrderId: id('Fill'),
      why: simulator
        ? '1% over the best ask, larger than the best level: takes several ask levels (partial fills, then FILLED)'
        : '1% over the best ask: fills at once against the asks',
    },
  ];
}
