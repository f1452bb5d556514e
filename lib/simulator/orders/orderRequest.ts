import type { RequestParams } from '../http/auth';
import { parseOrderDecimal } from '../../decimal/fixed';
import { rejections, type HttpRejection } from '../http/httpErrors';
import type { SymbolMarket } from '../market/market';
import type { OrderType, TimeInForce } from './order';
import { amountRejection, limitRejection, quantityRejection } from '../market/symbolRules';

/** A checked new order, scaled decimals. @internal */
export interface NewOrder {
  readonly market: SymbolMarket;
  readonly side: 'BUY' | 'SELL';
  readonly type: OrderType;
  /** As sent; when absent GTC for a limit order, IOC for a market order. */
  readonly timeInForce: TimeInForce;
  /** Base quantity; 0 for a market buy by amount. */
  readonly qty: bigint;
  /** Limit price; 0 for a market order (a `price` sent with one is ignored). */
  readonly price: bigint;
  /** Quote amount to spend (a market buy by amount); 0 otherwise. */
  readonly amount: bigint;
  /** '' when not given. */
  readonly clientOrderId: string;
}

/** A checked order, or why it is refused. @internal */
export type OrderCheck = { readonly ok: true; readonly order: NewOrder } | { readonly ok: false; readonly rejection: HttpRejection };

const TYPES: readonly OrderType[] = ['LIMIT', 'MARKET', 'LIMIT_MAKER'];
const TIMES_IN_FORCE: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK'];

const isOneOf = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);

/**
 * A positive order decimal, or why not: -1102 when absent, -1130 when not plain decimal text or not positive,
 * `tooPrecise` when its digits go on beyond 18 decimals.
 */
const positive = (params: RequestParams, name: string, tooPrecise: HttpRejection): bigint | HttpRejection => {
  const text = params.get(name);
  if (text === undefined) return rejections.missingParameter(name);
  const value = parseOrderDecimal(text);
  if (value === 'tooPrecise') return tooPrecise;
  return value === undefined || value <= 0n ? rejections.invalidParameter(name) : value;
};

/**
 * Reads and checks the parameters of `POST /api/v1/spot/order` (the whole of `orderTest`), first failure wins:
 * `symbol` (-1102, -1121), `side` (-1117), `type` (-1116), `timeInForce` (-1115); for a limit order
 * `quantity`, `price`, then the pair's rules (`limitRejection`); for a market order `quantity` (a SELL, or a BUY
 * by quantity: LOT_SIZE) or `amount` (a BUY: TRADE_AMOUNT), not both (-1128); last, a `newClientOrderId` the
 * account already used (-1141).
 * @internal
 */
export function readNewOrder(params: RequestParams, markets: ReadonlyMap<string, SymbolMarket>, usedClientId: (id: string) => boolean): OrderCheck {
  const no = (rejection: HttpRejection): OrderCheck => ({ ok: false, rejection });
  const symbol = params.get('symbol');
  if (symbol === undefined) return no(rejections.missingParameter('symbol'));
  const market = markets.get(symbol);
  if (market === undefined) return no(rejections.invalidSymbol);
  const side = params.get('side');
  if (side === undefined) return no(rejections.missingParameter('side'));
  if (side !== 'BUY' && side !== 'SELL') return no(rejections.invalidSide);
  const type = params.get('type');
  if (type === undefined) return no(rejections.missingParameter('type'));
  if (!isOneOf(TYPES, type)) return no(rejections.invalidOrderType);
  const timeInForce = params.get('timeInForce') ?? (type === 'MARKET' ? 'IOC' : 'GTC');
  if (!isOneOf(TIMES_IN_FORCE, timeInForce)) return no(rejections.invalidTimeInForce);
  const { rules } = market.info;
  let qty = 0n;
  let price = 0n;
  let amount = 0n;
  if (type === 'MARKET') {
    const byAmount = side === 'BUY' && params.has('amount');
    if (params.has('amount') && params.has('quantity')) return no(rejections.parameterCombination);
    const value = byAmount ? positive(params, 'amount', rejections.amountTooPrecise) : positive(params, 'quantity', rejections.quantityTooPrecise);
    if (typeof value !== 'bigint') return no(value);
    const refused = byAmount ? amountRejection(rules, value) : quantityRejection(rules, value);
    if (refused !== undefined) return no(refused);
    if (byAmount) amount = value;
    else qty = value;
  } else {
    if (!params.has('quantity')) return no(rejections.missingParameter('quantity'));
    if (!params.has('price')) return no(rejections.missingParameter('price'));
    const q = positive(params, 'quantity', rejections.quantityTooPrecise);
    if (typeof q !== 'bigint') return no(q);
    const p = positive(params, 'price', rejections.priceTooPrecise);
    if (typeof p !== 'bigint') return no(p);
    const refused = limitRejection(rules, p, q);
    if (refused !== undefined) return no(refused);
    qty = q;
    price = p;
  }
  const clientOrderId = params.get('newClientOrderId') ?? '';
  if (clientOrderId !== '' && usedClientId(clientOrderId)) return no(rejections.duplicateClientOrderId);
  return { ok: true, order: { market, side, type, timeInForce, qty, price, amount, clientOrderId } };
}
