/**
 * The service's answers for an order it does not know, in one place (the order loop and the reconciliation read them).
 * @internal
 * @module
 */
import { RequestRejectedError } from '../errors';
import { numericCode } from '../rest/rejection';

/** -2013 "Order does not exist.", -2011 "Unknown order sent.", -1143 "Cannot be found on order book". @internal */
export const NO_SUCH_ORDER_CODES: ReadonlySet<number> = new Set([-2013, -2011, -1143]);

/** Whether `error` is the service saying it has no such order. @internal */
export const noSuchOrder = (error: unknown): boolean => error instanceof RequestRejectedError && NO_SUCH_ORDER_CODES.has(numericCode(error.code) ?? 0);
