/**
 * An HTTP request the service answered with a rejection (non-2xx status, an error body, or a body that
 * lacks what the call needs, e.g. a listen-key response without `listenKey`).
 *
 * @example
 * ```ts
 * import { RequestRejectedError } from 'ex-streams';
 * const e = new RequestRejectedError(401, -1022, 'Signature for this request is not valid.');
 * String(e); // 'RequestRejectedError: HTTP 401, code -1022: Signature for this request is not valid.'
 * ```
 */
export class RequestRejectedError extends Error {
  override readonly name: string = 'RequestRejectedError';
  constructor(
    /** HTTP status code. */
    readonly status: number,
    /** The service's error code, as sent (number or text), when the body had one. */
    readonly code?: number | string,
    /** The service's message (`msg` or `desc`), when the body had one. */
    readonly msg?: string,
  ) {
    super(
      `HTTP ${status}` +
        (code !== undefined ? `, code ${code}` : '') +
        (msg !== undefined ? `: ${msg}` : ''),
    );
  }
}

/**
 * An HTTP request that never got an answer: DNS, connection refused, reset, or an abort by the runtime.
 *
 * @example
 * ```ts
 * import { RequestFailedError } from 'ex-streams';
 * new RequestFailedError('POST', '/api/v1/userDataStream', 'fetch failed').message;
 * // 'POST /api/v1/userDataStream failed: fetch failed'
 * ```
 */
export class RequestFailedError extends Error {
  override readonly name: string = 'RequestFailedError';
  constructor(
    readonly method: string,
    /** The request path, without query string (so no signature or listen key). */
    readonly path: string,
    /** The runtime's own description of the failure. */
    readonly reason: string,
  ) {
    super(`${method} ${path} failed: ${reason}`);
  }
}

/**
 * The service answered HTTP 429 (too many requests) or 418 (an IP ban after ignoring 429s). Everything the
 * library retries by itself waits at least `retryAfterMs` before the next call.
 *
 * @example
 * ```ts
 * import { RateLimitedError } from 'ex-streams';
 * const e = new RateLimitedError(429, 30_000, -1003, 'Too many requests');
 * e.retryAfterMs; // 30000
 * ```
 */
export class RateLimitedError extends RequestRejectedError {
  override readonly name = 'RateLimitedError';
  constructor(
    status: number,
    /** From the `Retry-After` header (seconds or an HTTP date), else a conservative default of the caller. */
    readonly retryAfterMs: number,
    code?: number | string,
    msg?: string,
  ) {
    super(status, code, msg);
    this.message = `${this.message} (retry after ${retryAfterMs} ms)`;
  }
}

/**
 * An HTTP request that got no answer within its deadline (`requestTimeoutMs` of `restClient`, or `timeoutMs`
 * of the request): the call was aborted. A {@link RequestFailedError}, so code that handles "no answer"
 * handles this too.
 *
 * @example
 * ```ts
 * import { RequestTimeoutError } from 'ex-streams';
 * const e = new RequestTimeoutError('POST', '/api/v1/spot/order', 10_000);
 * e.message; // 'POST /api/v1/spot/order failed: no answer within 10000 ms (timed out)'
 * ```
 */
export class RequestTimeoutError extends RequestFailedError {
  override readonly name = 'RequestTimeoutError';
  constructor(
    method: string,
    /** The request path, without query string. */
    path: string,
    /** The deadline that passed, in ms. */
    readonly timeoutMs: number,
  ) {
    super(method, path, `no answer within ${timeoutMs} ms (timed out)`);
  }
}
