/**
 * Whether an answer speaks of the order asked about: its client order id, its order id once known, its symbol.
 * The one place the order loop and the reconciliation check an answer before adopting it.
 * @internal
 * @module
 */
import { OrderMismatchError, type OrderIdentity } from '../errors';

/** What an answer says of its order (a REST order, an order state). @internal */
export interface AnsweredOrder {
  readonly orderId: string;
  readonly clientOrderId?: string | undefined;
  readonly symbol: string;
}

/**
 * `undefined` when `got` may be the order `expected` names, else the {@link OrderMismatchError} to report. A field
 * that either side does not know (or an empty client order id, which some answers carry) is not compared. @internal
 */
export function identityMismatch(source: OrderMismatchError['source'], expected: OrderIdentity, got: AnsweredOrder): OrderMismatchError | undefined {
  const differs = (a: string | undefined, b: string | undefined): boolean => a !== undefined && a !== '' && b !== undefined && b !== '' && a !== b;
  if (differs(expected.orderId, got.orderId) || differs(expected.clientOrderId, got.clientOrderId) || differs(expected.symbol, got.symbol)) {
    return new OrderMismatchError(source, expected, { orderId: got.orderId, clientOrderId: got.clientOrderId, symbol: got.symbol });
  }
  return undefined;
}
