/**
 * A "user project" file: prices that flow. A price or a quantity the library hands out (a book level, a trade,
 * a candle, an execution report, a balance) goes into a `NewOrderRequest` as it is, with no cast; text the
 * user computes goes in through `toDecimalText` or the symbol rules' `fitPrice` / `fitQuantity`; a number or a
 * plain `string` does not compile. Type-checked against the built package under the strictest settings
 * (`tsconfig.strictest.json`, `scripts/check-strict-consumers.ts`), never run.
 */
import { map, type Observable } from 'rxjs';
import {
  marketStreams,
  orderBook,
  type Balance,
  type ExecutionReport,
  type KlineRecord,
  type NewOrderRequest,
  type OrderBook,
  type OrderState,
  type TradeRecord,
} from 'ex-streams';
import { fitOrder, fitPrice, fitQuantity, isDecimalText, symbolRules, toDecimalText, type DecimalText } from 'ex-streams/orders';
import type { ExchangeInfo, RestTrade } from 'ex-streams/rest';

/** A limit buy at the best bid, for the best bid's quantity. */
export function joinBestBid(book: OrderBook): NewOrderRequest | undefined {
  const best = book.bestBid;
  if (best === undefined) return undefined;
  return { symbol: book.symbol, side: 'BUY', type: 'LIMIT', price: best[0], quantity: best[1] };
}

/** A sell at the last trade's price; the stream's and the REST trade's alike. */
export function atLastTrade(trade: TradeRecord | RestTrade, quantity: DecimalText): NewOrderRequest {
  return { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: trade.p, quantity };
}

/** Candles, order states, reports and balances hand out decimal text too. */
export function fromOtherValues(candle: KlineRecord, state: OrderState, report: ExecutionReport, balance: Balance): NewOrderRequest[] {
  return [
    { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: candle.l, quantity: balance.f },
    { symbol: state.symbol, side: state.side, type: 'LIMIT', price: state.price, quantity: state.quantity },
    { symbol: report.s, side: report.S, type: 'LIMIT', price: report.p, quantity: report.z },
    { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: balance.f },
  ];
}

/** Text from a form: checked, then fitted to the symbol's rules. */
export function fromForm(info: ExchangeInfo, price: string, quantity: string): NewOrderRequest | undefined {
  const rules = symbolRules(info).get('BTCUSDT');
  if (rules === undefined) return undefined;
  const fittedPrice = fitPrice(rules, 'BUY', price);
  const fittedQuantity = fitQuantity(rules, quantity);
  if (fittedPrice === undefined || fittedQuantity === undefined) return undefined;
  const order: NewOrderRequest = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: fittedPrice, quantity: fittedQuantity };
  return fitOrder(rules, order);
}

/** `isDecimalText` narrows; `toDecimalText` checks or throws. */
export function narrowed(price: string, quantity: string): NewOrderRequest | undefined {
  if (!isDecimalText(price)) return undefined;
  return { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price, quantity: toDecimalText(quantity, 'quantity') };
}

/** The README's book, piped into orders. */
export function bidsToOrders(): Observable<NewOrderRequest | undefined> {
  return marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).depth('BTCUSDT').pipe(orderBook(), map(joinBestBid));
}

export function rejected(text: string): NewOrderRequest[] {
  return [
    // @ts-expect-error a number is not decimal text: no binary rounding reaches an order
    { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: 30000.5, quantity: '1' },
    // @ts-expect-error plain text must be checked first (isDecimalText, toDecimalText) or fitted (fitPrice)
    { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: text, quantity: '1' },
  ];
}
