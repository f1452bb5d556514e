/**
 * The three demo orders, derived from the current order books. Pure: prices are chosen with `Number` at the
 * edge (a display-grade choice of a limit price), then written back as decimal text with the book's precision.
 */
import type { DecimalText, OrderBook, OrderSide } from '../../../lib/index';
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
}

/** Quote amount of the resting orders, and of the filling order on a real deployment. */
const REST_NOTIONAL = { simulator: 1000, deployment: 20 } as const;
/** Simulated book levels hold at most 2 units: 2.5 always takes two levels or more. */
const SIMULATOR_FILL_QUANTITY = 2.5;

const decimalsOf = (text: string): number => text.split('.')[1]?.length ?? 0;
/** `toFixed` writes decimal text (the values here are finite and far below 1e21). */
const atPrecision = (value: number, decimals: number): DecimalText => value.toFixed(decimals) as DecimalText;
const quantityFor = (notional: number, price: number, decimals: number): DecimalText => {
  const lot = 10 ** -decimals;
  return atPrecision(Math.max(lot, notional / price), decimals);
};

/**
 * Plans, in placement order: a BUY 1% under the best bid (rests), a BUY 2% under it (cancelled later) and a
 * BUY 1% over the best ask (fills at once against the asks). `undefined` when a book has no bid or ask.
 */
export function planOrders({ restBook, fillBook, simulator, runId }: PlanInput): PlannedOrder[] | undefined {
  const bid = restBook.bestBid;
  const ask = fillBook.bestAsk;
  if (bid === undefined || ask === undefined) return undefined;
  const [bidPrice, bidQty] = bid;
  const [askPrice, askQty] = ask;
  const notional = simulator ? REST_NOTIONAL.simulator : REST_NOTIONAL.deployment;
  const restPrice = (factor: number): DecimalText => atPrecision(Number(bidPrice) * factor, decimalsOf(bidPrice));
  const fillQuantity = simulator
    ? atPrecision(SIMULATOR_FILL_QUANTITY, decimalsOf(askQty))
    : quantityFor(notional, Number(askPrice), decimalsOf(askQty));
  const id = (role: string): string => `demo${role}${runId}`;
  return [
    {
      role: 'rests',
      symbol: restBook.symbol,
      side: 'BUY',
      price: restPrice(0.99),
      quantity: quantityFor(notional, Number(bidPrice), decimalsOf(bidQty)),
      clientOrderId: id('Rest'),
      why: '1% under the best bid: rests on the book',
    },
    {
      role: 'cancelled',
      symbol: restBook.symbol,
      side: 'BUY',
      price: restPrice(0.98),
      quantity: quantityFor(notional, Number(bidPrice), decimalsOf(bidQty)),
      clientOrderId: id('Cancel'),
      why: '2% under the best bid: rests until the demo cancels it',
    },
    {
      role: 'fills',
      symbol: fillBook.symbol,
      side: 'BUY',
      price: atPrecision(Number(askPrice) * 1.01, decimalsOf(askPrice)),
      quantity: fillQuantity,
      clientOrderId: id('Fill'),
      why: simulator
        ? '1% over the best ask, larger than the best level: takes several ask levels (partial fills, then FILLED)'
        : '1% over the best ask: fills at once against the asks',
    },
  ];
}
