import type { Account } from './account';
import type { RequestParams } from './auth';
import { mul, parseDecimal } from './decimal';
import { rejections, type HttpRejection } from './httpErrors';
import type { IdSource, MarketTrade, SymbolMarket } from './market';
import { accountInfo, executionReport, isOpen, orderResponse, ticketInfo, type Order } from './order';
import type { PrivateEventOut } from './privateStream';

/** Result of an order call: an HTTP status and body. @internal */
export type OrderResult = { readonly ok: true; readonly body: object } | { readonly ok: false; readonly rejection: HttpRejection };

/** @internal */
export interface MatchingDeps {
  readonly markets: ReadonlyMap<string, SymbolMarket>;
  readonly account: Account;
  readonly now: () => number;
  readonly publish: (events: readonly PrivateEventOut[]) => void;
  readonly orderIds: IdSource;
  readonly ticketIds: IdSource;
  readonly matchIds: IdSource;
  readonly accountId: string;
}

const fail = (rejection: HttpRejection): OrderResult => ({ ok: false, rejection });

/**
 * The simulated account's orders: LIMIT GTC placement against the generated book (taker fills at the book's
 * prices), resting orders that fill when market trades reach their price (maker fills at the order price),
 * cancels; every change goes out as private events and moves balances (lock on NEW, settle on fills,
 * unlock on cancel).
 * @internal
 */
export class Matching {
  private readonly orders = new Map<string, Order>();

  constructor(private readonly deps: MatchingDeps) {}

  place(params: RequestParams): OrderResult {
    const { markets, account, now } = this.deps;
    const symbol = params.get('symbol');
    if (symbol === undefined) return fail(rejections.missingParameter('symbol'));
    const market = markets.get(symbol);
    if (market === undefined) return fail(rejections.invalidSymbol);
    const side = params.get('side');
    if (side === undefined) return fail(rejections.missingParameter('side'));
    if (side !== 'BUY' && side !== 'SELL') return fail(rejections.invalidSide);
    const type = params.get('type');
    if (type === undefined) return fail(rejections.missingParameter('type'));
    if (type !== 'LIMIT') return fail(rejections.invalidOrderType);
    if ((params.get('timeInForce') ?? 'GTC') !== 'GTC') return fail(rejections.invalidTimeInForce);
    const qtyText = params.get('quantity');
    if (qtyText === undefined) return fail(rejections.missingParameter('quantity'));
    const qty = parseDecimal(qtyText, 9);
    if (qty === undefined || qty <= 0n) return fail(rejections.invalidQuantity);
    const priceText = params.get('price');
    if (priceText === undefined) return fail(rejections.missingParameter('price'));
    const price = parseDecimal(priceText, 9);
    if (price === undefined || price <= 0n) return fail(rejections.invalidPrice);
    const t = now();
    const id = this.deps.orderIds.next();
    const order: Order = {
      id,
      clientOrderId: params.get('newClientOrderId') || `${t}${(id % 1000n).toString().padStart(3, '0')}`,
      symbol,
      side,
      price,
      qty,
      executed: 0n,
      cumQuote: 0n,
      status: 'NEW',
      createdAt: t,
      updatedAt: t,
    };
    const { base, quote } = market.info;
    const lockAsset = side === 'BUY' ? quote : base;
    if (!account.lock(lockAsset, side === 'BUY' ? mul(price, qty) : qty)) {
      order.status = 'REJECTED';
      this.deps.publish([executionReport(order, t, { reason: 'INSUFFICIENT_BALANCE' })]);
      return fail(rejections.insufficientBalance);
    }
    this.orders.set(id.toString(), order);
    const events = [executionReport(order, t), this.balances(t, [lockAsset])];
    for (const fill of market.take(side, price, qty)) {
      market.recordTrade(fill.price, fill.qty, side === 'SELL', t);
      events.push(...this.fill(market, order, fill.price, fill.qty, false, t));
    }
    this.deps.publish(events);
    return { ok: true, body: orderResponse(order) };
  }

  cancel(params: RequestParams): OrderResult {
    const found = this.find(params);
    if (!found.ok) return found;
    const order = found.order;
    if (!isOpen(order)) return fail(rejections.orderClosed);
    const t = this.deps.now();
    const market = this.deps.markets.get(order.symbol);
    if (market === undefined) return fail(rejections.invalidSymbol);
    const left = order.qty - order.executed;
    const { base, quote } = market.info;
    const asset = order.side === 'BUY' ? quote : base;
    this.deps.account.unlock(asset, order.side === 'BUY' ? mul(order.price, left) : left);
    order.status = order.executed > 0n ? 'PARTIALLY_CANCELED' : 'CANCELED';
    order.updatedAt = t;
    this.deps.publish([executionReport(order, t, { reason: 'USER_CANCEL' }), this.balances(t, [asset])]);
    return { ok: true, body: orderResponse(order) };
  }

  query(params: RequestParams): OrderResult {
    const found = this.find(params);
    return found.ok ? { ok: true, body: orderResponse(found.order) } : found;
  }

  openOrders(): object[] {
    return [...this.orders.values()].filter(isOpen).map(orderResponse);
  }

  /** Fills resting orders of the market that `trades` reached (BUY: trade price ≤ order price; SELL: ≥). */
  onTrades(market: SymbolMarket, trades: readonly MarketTrade[]): void {
    const resting = [...this.orders.values()].filter((o) => o.symbol === market.info.symbol && isOpen(o));
    if (resting.length === 0) return;
    const events: PrivateEventOut[] = [];
    for (const trade of trades) {
      let available = trade.qty;
      for (const o of resting) {
        if (available === 0n || !isOpen(o)) continue;
        if (o.side === 'BUY' ? trade.price > o.price : trade.price < o.price) continue;
        const q = o.qty - o.executed < available ? o.qty - o.executed : available;
        available -= q;
        events.push(...this.fill(market, o, o.price, q, true, this.deps.now()));
      }
    }
    this.deps.publish(events);
  }

  private find(params: RequestParams): { readonly ok: true; readonly order: Order } | { readonly ok: false; readonly rejection: HttpRejection } {
    const orderId = params.get('orderId');
    const clientId = params.get('origClientOrderId') ?? params.get('clientOrderId');
    if (orderId === undefined && clientId === undefined) return { ok: false, rejection: rejections.missingParameter('orderId') };
    const order =
      orderId !== undefined ? this.orders.get(orderId) : [...this.orders.values()].find((o) => o.clientOrderId === clientId);
    return order === undefined ? { ok: false, rejection: rejections.unknownOrder } : { ok: true, order };
  }

  private fill(market: SymbolMarket, o: Order, price: bigint, q: bigint, maker: boolean, t: number): PrivateEventOut[] {
    const { account } = this.deps;
    const { base, quote } = market.info;
    if (o.side === 'BUY') {
      account.spendLocked(quote, mul(o.price, q));
      account.credit(quote, mul(o.price, q) - mul(price, q));
      account.credit(base, q);
    } else {
      account.spendLocked(base, q);
      account.credit(quote, mul(price, q));
    }
    o.executed += q;
    o.cumQuote += mul(price, q);
    o.status = o.executed === o.qty ? 'FILLED' : 'PARTIALLY_FILLED';
    o.updatedAt = t;
    const ticketId = this.deps.ticketIds.next();
    return [
      executionReport(o, t, { lastQty: q, lastPrice: price, executionId: ticketId.toString() }),
      ticketInfo(o, t, { ticketId, matchOrderId: this.deps.matchIds.next(), price, qty: q, maker }, this.deps.accountId),
      this.balances(t, [base, quote]),
    ];
  }

  private balances(t: number, assets: readonly string[]): PrivateEventOut {
    return accountInfo(t, assets.map((asset) => ({ asset, ...this.deps.account.of(asset) })));
  }
}
