/**
 * A placement as it is sent: checked, with its client order id, and written in the form of the path it goes to.
 * @module
 */
import type { Params } from '../auth/formEncode';
import { isDecimalText } from '../decimal';
import { ConfigError, type OrderInDoubt } from '../errors';
import { excerpt } from '../internal/redact';
import type { NewOrderRequest } from './callTypes';

/** The placement paths. @internal */
export const PLACEMENT_PATHS = { 'v1.1': '/api/v1.1/spot/order', v1: '/api/v1/spot/order' } as const;

/** Which placement path. @internal */
export type PlacementPath = keyof typeof PLACEMENT_PATHS;

/** The decimal fields of a new order, each checked as plain decimal text before anything is sent. */
const DECIMAL_FIELDS = ['price', 'quantity', 'amount'] as const;
const STP_MODES: readonly string[] = ['EXPIRE_TAKER', 'EXPIRE_MAKER'];

/**
 * A placement as it is sent: with a client order id (the caller's, or a generated one), its decimals checked, a
 * MARKET order with exactly one of `quantity` and `amount`, `stpMode` one of the documented values.
 * @internal
 */
export function placement(req: NewOrderRequest, newClientOrderId: () => string): NewOrderRequest {
  for (const field of DECIMAL_FIELDS) {
    const value = (req as Partial<Record<(typeof DECIMAL_FIELDS)[number], unknown>>)[field];
    if (value !== undefined && (typeof value !== 'string' || !isDecimalText(value))) {
      throw new ConfigError(field, `must be plain decimal text (digits, optionally a point and digits), got ${excerpt(String(value), [])}`);
    }
  }
  if (req.type === 'MARKET') {
    const { quantity, amount } = req;
    if (quantity !== undefined && amount !== undefined) throw new ConfigError('amount', 'and quantity cannot both be given for a MARKET order: give one');
    if (quantity === undefined && amount === undefined) throw new ConfigError('quantity', 'or amount is required for a MARKET order');
  }
  if (req.stpMode !== undefined && !STP_MODES.includes(req.stpMode)) {
    throw new ConfigError('stpMode', `must be one of ${STP_MODES.join(', ')} (got ${excerpt(String(req.stpMode), [])})`);
  }
  const id = req.newClientOrderId;
  if (id !== undefined && (typeof id !== 'string' || id === '')) throw new ConfigError('newClientOrderId', 'must be a non-empty string');
  return id === undefined ? { ...req, newClientOrderId: newClientOrderId() } : req;
}

/** What an {@link OrderOutcomeUnknownError} of this placement says of it. @internal */
export const placementInDoubt = (req: NewOrderRequest): OrderInDoubt => {
  const { symbol, side, type, price, quantity, newClientOrderId } = req;
  const amount = req.type === 'MARKET' ? req.amount : undefined;
  return dropUndefined({ action: 'place', clientOrderId: newClientOrderId, symbol, side, type, price, quantity, amount });
};

/** The object without its `undefined` fields. @internal */
export const dropUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * The parameters of a checked placement in the form of `path`. On v1.1 they are the request's own (`quantity` in
 * base, `amount` in quote). On v1 there is no `amount` and a MARKET BUY's `quantity` is read as the quote amount
 * (HashKey's "Create Order v1.0"): a MARKET BUY by `amount` is sent as `quantity`; a MARKET BUY by base quantity
 * and a MARKET SELL by amount cannot be said there and are refused with a {@link ConfigError}, never guessed.
 * @internal
 */
export function wireParams(req: NewOrderRequest, path: PlacementPath): Params {
  const params = { ...req } as Record<string, string | undefined>;
  if (path === 'v1.1' || req.type !== 'MARKET') return params as Params;
  if (req.side === 'BUY') {
    if (req.amount === undefined) {
      throw new ConfigError('quantity', 'of a MARKET BUY is read as the quote amount on /api/v1/spot/order: give `amount` (quote), or place through v1.1 for a base quantity');
    }
    return { ...params, quantity: req.amount, amount: undefined } as Params;
  }
  if (req.amount !== undefined) {
    throw new ConfigError('amount', 'is not a parameter of /api/v1/spot/order: a MARKET SELL gives its base `quantity` there (or place through v1.1)');
  }
  return params as Params;
}
