import type { Account } from './account';
import type { RequestParams } from './auth';
import { mul, parseDecimal } from './decimal';
import { rejections, type HttpRejection } from './httpErrors';
import type { IdSource, MarketTrade, SymbolMarket } from './market';
import { accountInfo, accountTradeResponse, executionReport, isOpen, orderResponse, ticketInfo, type AccountFill, type Order } from './order';
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

/** A checked new order. @internal */
export interface NewOrder {
  readonly market: SymbolMarket;
  readonly side: 'BUY' | 'SELL';
  readonly qty: bigint;
  readonly price: bigint;
  /** '' when not given. */
  readonly clientOrderId: string;
}

/**
 * The simulated account's orders: LIMIT GTC placement against the generated book (taker fills at the book's
 * prices), resting orders that fill when market trades reach their price (maker fills at the order price),
 * cancels; every change goes out as private events and moves balances (lock on NEW, settle on fills,
 * unlock on cancel).
 * @internal
 */
export class Matching {
  private readonly orders = new Map<string, Order>();
  private readonly fills: AccountFill[] = [];

  constructor(private readonly deps: MatchingDeps) {}

  /** Checks an order's parameters (the whole of `orderTest`). */
  check(params: RequestParams): { readonly ok: true; readonly order: NewOrder } | { readonly ok: false; readonly rejection: HttpRejection } {
    const { markets } = this.deps;
    const no = (rejection: HttpRejection) => ({ ok: false as const, rejection });
    const symbol = params.get('symbol');
    if (symbol === undefined) return no(rejections.missingParameter('symbol'));
    const market = markets.get(symbol);
    if (market === undefined) return no(rejections.invalidSymbol);
    const side = params.get('side');
    if (side === undefined) return no(rejections.missingParameter('side'));
    if (side !== 'BUY' && side !== 'SELL') return no(rejections.invalidSide);
    const type = params.get('type');
    if (type === undefined) return no(rejections.missingParameter('type'));
    if (type !== 'LIMIT') return no(rejections.invalidOrderType);
    if ((params.get('timeInForce') ?? 'GTC') !== 'GTC') return no(rejections.invalidTimeInForce);
    const qtyText = params.get('quantity');
    if (qtyText === undefined) return no(rejections.missingParameter('quantity'));
    const qty = parseDecimal(qtyText, 9);
    if (qty === undefined || qty <= 0n) return no(rejections.invalidQuantity);
    const priceText = params.get('price');
    if (priceText === undefined) return no(rejections.missingParameter('price'));
    const price = parseDecimal(priceText, 9);
    if (price === undefined || price <= 0n) return no(rejections.invalidPrice);
    return { ok: true, order: { market, side, qty, price, clientOrderId: params.get('newClientOrderId') ?? '' } };
  }

  place(params: RequestParams): OrderResult {
    const { account, now } = this.deps;
    const checked = this.check(params);
    if (!checked.ok) return checked;
    const { market, side, qty, price } = checked.order;
    const { symbol } = market.info;
    const t = now();
    const id = this.deps.orderIds.next();
    const order: Order = {
      id,
      clientOrderId: checked.order.clientOrderId || `${t}${(id % 1000n).toString().padStart(3, '0')}`,
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
    return { ok: true, body: orderResponse(order, this.deps.accountId) };
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
    return { ok: true, body: orderResponse(order, this.deps.accountId) };
  }

  query(params: RequestParams): OrderResult {
    const found = this.find(params);
    return found.ok ? { ok: true, body: orderResponse(found.order, this.deps.accountId) } : found;
  }

  /** Open orders, of `symbol` when given, newest first, at most `limit` (default 500, max 1000). */
  openOrders(params: RequestParams): object[] {
    const symbol = params.get('symbol');
    const limit = Math.min(1000, Math.max(1, Number(params.get('limit') ?? '500') || 500));
    return [...this.orders.values()]
      .filter((o) => isOpen(o) && (symbol === undefined || o.symbol === symbol))
      .reverse()
      .slice(0, limit)
      .map((o) => orderResponse(o, this.deps.accountId));
  }

  /** Cancels every open order (of `symbol` and `side` when given). */
  cancelAll(params: RequestParams): OrderResult {
    const symbol = params.get('symbol');
    const side = params.get('side');
    if (symbol !== undefined && !this.deps.markets.has(symbol)) return fail(rejections.invalidSymbol);
    if (side !== undefined && side !== 'BUY' && side !== 'SELL') return fail(rejections.invalidSide);
    const open = [...this.orders.values()].filter((o) => isOpen(o) && (symbol === undefined || o.symbol === symbol) && (side === undefined || o.side === side));
    for (const o of open) this.cancel(new Map([['orderId', o.id.toString()]]));
    return { ok: true, body: { success: true } };
  }

  /**
   * The account's fills, oldest first: of `symbol` when given, `time` in [startTime, endTime], ticket id in
   * [fromId, toId], the last `limit` (default 500, max 1000) of those.
   */
  accountTrades(params: RequestParams): OrderResult {
    const bound = (name: string): bigint | undefined | null => {
      const v = params.get(name);
      if (v === undefined) return undefined;
      return /^\d{1,20}$/.test(v) ? BigInt(v) : null;
    };
    const names = ['startTime', 'endTime', 'fromId', 'toId', 'limit'] as const;
    const b = Object.fromEntries(names.map((n) => [n, bound(n)])) as Record<(typeof names)[number], bigint | undefined | null>;
    const bad = names.find((n) => b[n] === null);
    if (bad !== undefined) return fail(rejections.invalidParameter(bad));
    const symbol = params.get('symbol');
    if (symbol !== undefined && !this.deps.markets.has(symbol)) return fail(rejections.invalidSymbol);
    const limit = Number(b.limit ?? 500n);
    if (limit < 1 || limit > 1000) return fail(rejections.invalidParameter('limit'));
    const inRange = (v: bigint, from: bigint | undefined | null, to: bigint | undefined | null): boolean =>
      (from == null || v >= from) && (to == null || v <= to);
    const found = this.fills.filter(
      (f) => (symbol === undefined || f.order.symbol === symbol) && inRange(BigInt(f.time), b.startTime, b.endTime) && inRange(f.ticketId, b.fromId, b.toId),
    );
    return { ok: true, body: found.slice(-limit).map((f) => accountTradeResponse(f, this.deps.accountId)) };
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
    const matchOrderId = this.deps.matchIds.next();
    this.fills.push({ ticketId, order: o, matchOrderId, price, qty: q, maker, time: t });
    return [
      executionReport(o, t, { lastQty: q, lastPrice: price, executionId: ticketId.toString() }),
      ticketInfo(o, t, { ticketId, matchOrderId, price, qty: q, maker }, this.deps.accountId),
      this.balances(t, [base, quote]),
    ];
  }

  private balances(t: number, assets: readonly string[]): PrivateEventOut {
    return accountInfo(t, assets.map((asset) => ({ asset, ...this.deps.account.of(asset) })));
  }
}
