/**
 * Which failures of a placement or a cancel leave its outcome unknown (issue 26, "No silent unknown outcome"):
 * the request may have reached the service and been carried out, but its answer was lost.
 * @module
 */
import { catchError, type MonoTypeOperatorFunction, throwError } from 'rxjs';
import { DecodeError, type OrderInDoubt, OrderOutcomeUnknownError, RateLimitedError, RequestFailedError, RequestRejectedError } from '../errors';
import { numericCode } from './rejection';

/** The service family's "execution status unknown" codes: -1006 (unexpected answer of the bus), -1007 (backend timeout). @internal */
export const STATUS_UNKNOWN_CODES: ReadonlySet<number> = new Set([-1006, -1007]);

/** Failures that prove nothing was sent: the host was not found, or refused the connection. */
const NOT_SENT = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|getaddrinfo|Failed to fetch|fetch is not available/i;

/**
 * Whether an error of an order request (placement or cancel) leaves its outcome unknown: no answer (a deadline,
 * a reset; not a refused connection or an unknown host, which sent nothing), a 5xx (a gateway's page or the
 * service's own), the service's "status unknown" codes, or a success answer that could not be read.
 * A rejection with the service's error body (4xx), a rate limit and a configuration error are definite: nothing
 * was done. @internal
 */
export function leavesOutcomeUnknown(error: unknown): boolean {
  if (error instanceof RequestFailedError) return !NOT_SENT.test(error.reason);
  if (error instanceof RateLimitedError) return false;
  if (error instanceof RequestRejectedError) {
    const code = numericCode(error.code);
    return error.status >= 500 || (code !== undefined && STATUS_UNKNOWN_CODES.has(code));
  }
  // A 2xx answer the codec refused: the order was taken, its answer cannot be read.
  return error instanceof DecodeError;
}

/**
 * Turns a failure that leaves an order request's outcome unknown into an {@link OrderOutcomeUnknownError}
 * carrying `order` (what is needed to find it; a function is called only then, off the order's path); other
 * errors pass as they are. @internal
 */
export function outcomeUnknownOn<T>(method: string, path: string, order: OrderInDoubt | (() => OrderInDoubt)): MonoTypeOperatorFunction<T> {
  return catchError((error: unknown) =>
    throwError(() =>
      leavesOutcomeUnknown(error) && !(error instanceof OrderOutcomeUnknownError)
        ? new OrderOutcomeUnknownError(method, path, typeof order === 'function' ? order() : order, error as Error)
        : error,
    ),
  );
}
