import { div, formatDecimal } from '../../decimal/fixed';
import { EXCHANGE_ID } from '../market/marketRecords';
import { RawNumber, rawJson } from './rawJson';
import type { PrivateEventOut } from '../streams/privateStream';

/** Order status values of the specification. @internal */
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'PARTIALLY_CANCELED' | 'CANCELED' | 'REJECTED';

/** The passing statuses HashKey reports before a state: a placement not yet on the book, a cancel not yet done. @internal */
export type PendingStatus = 'PENDING_NEW' | 'PENDING_CANCEL';

/** Order types the simulator accepts. @internal */
export type OrderType = 'LIMIT' | 'MARKET' | 'LIMIT_MAKER';

/** Times in force the simulator accepts. @internal */
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';

/** A simulated order, scaled decimals. @internal */
export interface Order {
  readonly id: bigint;
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  /** Limit price; 0 for a market order. */
  readonly price: bigint;
  /** Base quantity; 0 for a market buy by amount. */
  readonly qty: bigint;
  /** Quote amount to spend (a market buy by amount); 0 otherwise. */
  readonly reqAmount: bigint;
  /** What the order still holds locked (quote for a BUY, base for a SELL); released when it closes. */
  locked: bigint;
  executed: bigint;
  cumQuote: bigint;
  status: OrderStatus;
  readonly createdAt: number;
  updatedAt: number;
}

/** Open statuses. @internal */
export const isOpen = (o: Order): boolean => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';

/** Quantity left to fill (0 for a market buy by amount, which has no quantity). */
const remaining = (o: Order): bigint => (o.qty > o.executed ? o.qty - o.executed : 0n);

/** A numeric client order id goes out as a JSON number literal (as shown in the specification), others as text. */
const clientId = (c: string): RawNumber | string => (/^[1-9]\d{0,19}$/.test(c) ? new RawNumber(c) : c);

/** Fill details of an executionReport. @internal */
export interface ExecDetail {
  readonly lastQty?: bigint;
  readonly lastPrice?: bigint;
  readonly executionId?: string;
  readonly reason?: string;
  /** The status the report says instead of the order's own (a passing one: the order's state does not change). */
  readonly status?: PendingStatus;
}

/** executionReport event (order id `i` as a raw 64-bit number literal). @internal */
export function executionReport(o: Order, E: number, d: ExecDetail = {}): PrivateEventOut {
  const json = rawJson({
    e: 'executionReport',
    E,
    s: o.symbol,
    c: clientId(o.clientOrderId),
    S: o.side,
    o: o.type,
    f: o.timeInForce,
    q: formatDecimal(o.qty),
    p: formatDecimal(o.price),
    reqAmt: formatDecimal(o.reqAmount),
    X: d.status ?? o.status,
    d: d.executionId ?? '',
    i: new RawNumber(o.id.toString()),
    l: formatDecimal(d.lastQty ?? 0n),
    r: formatDecimal(remaining(o)),
    z: formatDecimal(o.executed),
    L: formatDecimal(d.lastPrice ?? 0n),
    V: formatDecimal(div(o.cumQuote, o.executed)),
    n: '0',
    N: null,
    u: true,
    w: d.status !== 'PENDING_NEW' && isOpen(o),
    m: false,
    O: o.createdAt,
    U: o.updatedAt,
    Z: formatDecimal(o.cumQuote),
    x: d.reason ?? 'NONE',
  });
  return { kind: 'executionReport', E, id: o.id.toString(), status: d.status ?? o.status, json };
}

/** ticketInfo event (all ids and times as text, as in the specification's field table). @internal */
export function ticketInfo(
  o: Order,
  E: number,
  fill: { readonly ticketId: bigint; readonly matchOrderId: bigint; readonly price: bigint; readonly qty: bigint; readonly maker: boolean },
  accountId: string,
): PrivateEventOut {
  const json = rawJson({
    e: 'ticketInfo',
    E: String(E),
    s: o.symbol,
    q: formatDecimal(fill.qty),
    t: String(E),
    p: formatDecimal(fill.price),
    T: fill.ticketId.toString(),
    o: o.id.toString(),
    c: o.clientOrderId,
    O: fill.matchOrderId.toString(),
    a: accountId,
    A: 0,
    m: fill.maker,
    S: o.side,
  });
  return { kind: 'ticketInfo', E, id: fill.ticketId.toString(), json };
}

/** outboundAccountInfo event listing the given balances. @internal */
export function accountInfo(E: number, balances: ReadonlyArray<{ readonly asset: string; readonly free: bigint; readonly locked: bigint }>): PrivateEventOut {
  const json = rawJson({
    e: 'outboundAccountInfo',
    E,
    T: true,
    W: true,
    D: true,
    B: balances.map((b) => ({ a: b.asset, f: formatDecimal(b.free), l: formatDecimal(b.locked) })),
  });
  return { kind: 'outboundAccountInfo', E, id: '', json };
}

/**
 * HTTP body of an order (placement, cancel, query, open orders): ids, times and amounts as text.
 * @internal
 */
export function orderResponse(o: Order, accountId: string): object {
  return {
    accountId,
    exchangeId: String(EXCHANGE_ID),
    symbol: o.symbol,
    symbolName: o.symbol,
    clientOrderId: o.clientOrderId,
    orderId: o.id.toString(),
    price: formatDecimal(o.price),
    origQty: formatDecimal(o.qty),
    executedQty: formatDecimal(o.executed),
    cumulativeQuoteQty: formatDecimal(o.cumQuote),
    avgPrice: formatDecimal(div(o.cumQuote, o.executed)),
    status: o.status,
    timeInForce: o.timeInForce,
    type: o.type,
    side: o.side,
    stopPrice: '0',
    icebergQty: '0',
    time: String(o.createdAt),
    updateTime: String(o.updatedAt),
    isWorking: isOpen(o),
    reqAmount: formatDecimal(o.reqAmount),
  };
}

/** One fill of the account, for `GET /api/v1/account/trades`. @internal */
export interface AccountFill {
  readonly ticketId: bigint;
  readonly order: Order;
  readonly matchOrderId: bigint;
  readonly price: bigint;
  readonly qty: bigint;
  readonly maker: boolean;
  readonly time: number;
}

/** HTTP body of one account trade: ids, time and amounts as text. @internal */
export function accountTradeResponse(f: AccountFill, accountId: string): object {
  return {
    id: f.ticketId.toString(),
    ticketId: f.ticketId.toString(),
    orderId: f.order.id.toString(),
    matchOrderId: f.matchOrderId.toString(),
    clientOrderId: f.order.clientOrderId,
    accountId,
    symbol: f.order.symbol,
    symbolName: f.order.symbol,
    price: formatDecimal(f.price),
    qty: formatDecimal(f.qty),
    commission: '0',
    commissionAsset: '',
    time: String(f.time),
    isBuyer: f.order.side === 'BUY',
    isMaker: f.maker,
  };
}
