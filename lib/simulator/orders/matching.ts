import type { Account } from './account';
import type { RequestParams } from '../http/auth';
import { ClientOrderIds } from './clientOrderIds';
import { mul } from '../../decimal/fixed';
import { rejections, type HttpRejection } from '../http/httpErrors';
import type { Fill, IdSource, MarketTrade, SymbolMarket } from '../market/market';
import { accountInfo, accountTradeResponse, executionReport, isOpen, orderResponse, ticketInfo, type AccountFill, type Order } from './order';
import { readNewOrder, type NewOrder, type OrderCheck } from './orderRequest';
import type { PrivateEventOut } from '../streams/privateStream';

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
  /** Report `PENDING_NEW` before the `NEW` of an accepted placement, as HashKey does (`startSimulator`'s default true). */
  readonly pendingNew?: boolean | undefined;
  /** Report `PENDING_CANCEL` before the `CANCELED` / `PARTIALLY_CANCELED` of a cancel request, as HashKey does (`startSimulator`'s default true). */
  readonly pendingCancel?: boolean | undefined;
}

const fail = (rejection: HttpRejection): OrderResult => ({ ok: false, rejection });

const sum = (fills: readonly Fill[], of: (f: Fill) => bigint): bigint => fills.reduce((total, f) => total + of(f), 0n);

/**
 * What a new order locks: a SELL its quantity (base); a limit BUY price × quantity, a market BUY its amount, or
 * (by quantity) the cost of the `fills` it will take (quote).
 */
const lockFor = (n: NewOrder, fills: readonly Fill[]): bigint => {
  if (n.side === 'SELL') return n.qty;
  if (n.type !== 'MARKET') return mul(n.price, n.qty);
  return n.amount > 0n ? n.amount : sum(fills, (f) => mul(f.price, f.qty));
};

/**
 * The simulated account's orders: LIMIT, LIMIT_MAKER and MARKET placement against the generated book (taker
 * fills at the book's prices, best level first), GTC orders that rest and fill when market trades reach their
 * price (maker fills at the order price), IOC / FOK / MARKET orders whose unfilled rest is cancelled at once,
 * cancels; every change goes out as private events and moves balances (lock on NEW, settle on fills, unlock
 * what is left when the order closes). As HashKey does, an accepted placement is reported `PENDING_NEW` then `NEW`,
 * and a cancel request `PENDING_CANCEL` then `CANCELED` / `PARTIALLY_CANCELED` (each can be turned off: the
 * `pendingNew` / `pendingCancel` options); an order that closes by itself (IOC, FOK, MARKET) has no `PENDING_CANCEL`. On a recorded market (paper fills) the same paths run: orders take from the
 * recorded book without consuming it and without making public trades, and recorded trades fill resting orders.
 * @internal
 */
export class Matching {
  private readonly orders = new Map<string, Order>();
  private readonly clientIds = new ClientOrderIds();
  private readonly fills: AccountFill[] = [];

  constructor(private readonly deps: MatchingDeps) {}

  /** Checks an order's parameters and the pair's rules (the whole of `orderTest`). */
  check(params: RequestParams): OrderCheck {
    return readNewOrder(params, this.deps.markets, (id) => this.clientIds.get(id) !== undefined);
  }

  /**
   * Places an order. What it would take is found first: a LIMIT_MAKER that would take is REJECTED (-2010), a
   * FOK that cannot fill whole takes nothing; then it locks what it may spend (REJECTED, -2010, when the
   * account cannot), takes, and a GTC limit order rests while every other closes (CANCELED or
   * PARTIALLY_CANCELED with what it did not fill).
   */
  place(params: RequestParams): OrderResult {
    const { account, now } = this.deps;
    const checked = this.check(params);
    if (!checked.ok) return checked;
    const n = checked.order;
    const { market } = n;
    const { symbol, base, quote } = market.info;
    const t = now();
    const id = this.deps.orderIds.next();
    const order: Order = {
      id,
      clientOrderId: n.clientOrderId || `${t}${(id % 1000n).toString().padStart(3, '0')}`,
      symbol,
      side: n.side,
      type: n.type,
      timeInForce: n.timeInForce,
      price: n.price,
      qty: n.qty,
      reqAmount: n.amount,
      locked: 0n,
      executed: 0n,
      cumQuote: 0n,
      status: 'NEW',
      createdAt: t,
      updatedAt: t,
    };
    const limit = n.type === 'MARKET' ? undefined : n.price;
    const plan = market.preview(n.side, limit, n.amount > 0n ? { amount: n.amount } : { qty: n.qty });
    if (n.type === 'LIMIT_MAKER' && plan.fills.length > 0) return this.reject(order, t, rejections.wouldTake, 'NONE');
    const fills = n.timeInForce === 'FOK' && !plan.complete ? [] : plan.fills;
    const lockAsset = n.side === 'BUY' ? quote : base;
    const toLock = lockFor(n, fills);
    if (!account.lock(lockAsset, toLock)) return this.reject(order, t, rejections.insufficientBalance, 'INSUFFICIENT_BALANCE');
    order.locked = toLock;
    this.orders.set(id.toString(), order);
    this.clientIds.add(order);
    const events = [
      ...(this.deps.pendingNew ? [executionReport(order, t, { status: 'PENDING_NEW' })] : []),
      executionReport(order, t),
      this.balances(t, [lockAsset]),
    ];
    const taken = fills.length === 0 ? [] : market.take(n.side, limit, sum(fills, (f) => f.qty));
    taken.forEach((f, i) => {
      if (!market.recorded) market.recordTrade(f.price, f.qty, n.side === 'SELL', t); // a paper fill is no public trade
      events.push(...this.fill(market, order, f.price, f.qty, false, t, plan.complete && i === taken.length - 1));
    });
    const rests = n.type !== 'MARKET' && n.timeInForce === 'GTC';
    if (isOpen(order) && !rests) events.push(...this.close(order, t, 'NONE'));
    this.deps.publish(events);
    return { ok: true, body: orderResponse(order, this.deps.accountId) };
  }

  cancel(params: RequestParams): OrderResult {
    const found = this.find(params);
    if (!found.ok) return found;
    const order = found.order;
    if (!isOpen(order)) return fail(order.status === 'FILLED' ? rejections.orderFilled : rejections.orderCanceled);
    const t = this.deps.now();
    const pending = this.deps.pendingCancel ? [executionReport(order, t, { status: 'PENDING_CANCEL' })] : [];
    this.deps.publish([...pending, ...this.close(order, t, 'USER_CANCEL')]);
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

  /** The order of `orderId`, else of `origClientOrderId`, else of `clientOrderId` (-1102 with none, -2013 unknown). */
  private find(params: RequestParams): { readonly ok: true; readonly order: Order } | { readonly ok: false; readonly rejection: HttpRejection } {
    const orderId = params.get('orderId');
    const clientId = params.get('origClientOrderId') ?? params.get('clientOrderId');
    if (orderId === undefined && clientId === undefined) return { ok: false, rejection: rejections.missingParameter('orderId') };
    const order = orderId !== undefined ? this.orders.get(orderId) : this.clientIds.get(clientId ?? '');
    return order === undefined ? { ok: false, rejection: rejections.unknownOrder } : { ok: true, order };
  }

  /** An order refused after it got its id: an executionReport REJECTED, nothing kept. */
  private reject(order: Order, t: number, rejection: HttpRejection, reason: string): OrderResult {
    order.status = 'REJECTED';
    this.deps.publish([executionReport(order, t, { reason })]);
    return fail(rejection);
  }

  /** Closes an open order: CANCELED, or PARTIALLY_CANCELED after fills; what it still held is unlocked. */
  private close(order: Order, t: number, reason: string): PrivateEventOut[] {
    const asset = this.lockAsset(order);
    this.deps.account.unlock(asset, order.locked);
    order.locked = 0n;
    order.status = order.executed > 0n ? 'PARTIALLY_CANCELED' : 'CANCELED';
    order.updatedAt = t;
    return [executionReport(order, t, { reason }), this.balances(t, [asset])];
  }

  /** The asset an order locks: the quote for a BUY, the base for a SELL. */
  private lockAsset(order: Order): string {
    const info = this.deps.markets.get(order.symbol)?.info;
    return (order.side === 'BUY' ? info?.quote : info?.base) ?? '';
  }

  /**
   * One fill of `q` at `price`: a BUY spends what it locked for `q` (the limit price × q; the fill's cost for a
   * market order) and gets the difference back, a SELL spends `q`. The order is FILLED when its quantity is
   * (or, `last`, when the fill completes a market buy by amount); then what it still holds is unlocked.
   */
  private fill(market: SymbolMarket, o: Order, price: bigint, q: bigint, maker: boolean, t: number, last = false): PrivateEventOut[] {
    const { account } = this.deps;
    const { base, quote } = market.info;
    const cost = mul(price, q);
    if (o.side === 'BUY') {
      const reserved = o.type === 'MARKET' ? cost : mul(o.price, q);
      account.spendLocked(quote, reserved);
      account.credit(quote, reserved - cost);
      account.credit(base, q);
      o.locked -= reserved;
    } else {
      account.spendLocked(base, q);
      account.credit(quote, cost);
      o.locked -= q;
    }
    o.executed += q;
    o.cumQuote += cost;
    o.status = last || o.executed === o.qty ? 'FILLED' : 'PARTIALLY_FILLED';
    o.updatedAt = t;
    if (o.status === 'FILLED' && o.locked > 0n) {
      account.unlock(o.side === 'BUY' ? quote : base, o.locked);
      o.locked = 0n;
    }
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
