/**
 * Why a websocket failed, as far as the runtime told (see {@link ConnectionClosedError.failure}):
 * - `'refused'`: nothing listens at that host and port (ECONNREFUSED);
 * - `'http-status'`: an HTTP server answered the upgrade with a status instead of switching protocols (a wrong
 *   path answers 404; see `httpStatus`);
 * - `'dns'`: the host name does not resolve (ENOTFOUND, EAI_AGAIN);
 * - `'reset'`: the connection was cut before the websocket opened (ECONNRESET, socket hang up);
 * - `'timeout'`: the TCP connection or the handshake timed out (ETIMEDOUT);
 * - `'protocol'`: the peer broke the websocket protocol (an invalid frame, a frame too large for `ws`);
 * - `'network'`: another transport error (unreachable network, TLS), told in `detail`;
 * - `'closed'`: the socket closed before opening and the runtime gave no reason (a browser never does: its
 *   error event is empty, so a refused port, a wrong path and an unreachable host all look like this).
 *
 * @example
 * ```ts
 * import { ConnectionClosedError, type ConnectionFailure } from 'ex-streams';
 * const failureOf = (e: Error): ConnectionFailure | undefined => (e instanceof ConnectionClosedError ? e.failure : undefined);
 * failureOf(new ConnectionClosedError(1006, '', false, { failure: 'refused', address: 'ws://127.0.0.1:9/quote/ws/v1' })); // 'refused'
 * ```
 */
export type ConnectionFailure = 'refused' | 'http-status' | 'dns' | 'reset' | 'timeout' | 'protocol' | 'network' | 'closed';

/**
 * What is known of a socket that failed, beyond its close code (the fourth argument of
 * {@link ConnectionClosedError}). Every field is optional; text is redacted (no listen key) before it gets here.
 *
 * @example
 * ```ts
 * import { ConnectionClosedError, type ConnectionClosedDetails } from 'ex-streams';
 * const details: ConnectionClosedDetails = { failure: 'http-status', httpStatus: 404, address: 'ws://127.0.0.1:8080/ws/v1' };
 * new ConnectionClosedError(1006, '', false, details).message;
 * // 'connection to ws://127.0.0.1:8080/ws/v1 answered HTTP 404 to the websocket upgrade (wrong path?)'
 * ```
 */
export interface ConnectionClosedDetails {
  /** Why it failed (see {@link ConnectionFailure}); absent when an open socket was closed by the peer. */
  readonly failure?: ConnectionFailure;
  /** The address connected to, redacted: a listen key in the path reads `/ws/***`; no user or password. */
  readonly address?: string;
  /** The HTTP status that answered the upgrade (with `failure: 'http-status'`). */
  readonly httpStatus?: number;
  /**
   * The wait the upgrade answer asked for in its `Retry-After` header (seconds or an HTTP date), in ms. Read on
   * Node (`ws`); a browser does not show the answer's headers.
   */
  readonly retryAfterMs?: number;
  /** The runtime's error code, e.g. `'ECONNREFUSED'`, `'ENOTFOUND'`, `'WS_ERR_INVALID_OPCODE'`. */
  readonly errorCode?: string;
  /** The runtime's own words, redacted and cut short, e.g. `'connect ECONNREFUSED 127.0.0.1:1234'`. */
  readonly detail?: string;
}

/** A hint after an HTTP status that answered a websocket upgrade. */
function statusHint(status: number): string {
  if (status === 404) return ' (wrong path?)';
  if (status === 401 || status === 403) return ' (not allowed: credentials, origin or listen key?)';
  if (status === 429 || status === 418) return ' (rate limited)';
  if (status >= 500) return ' (server error)';
  return ' (not a websocket endpoint?)';
}

/** The message of a {@link ConnectionClosedError}: the plain close without an address, else what failed where. */
function closedMessage(code: number, reason: string, d: ConnectionClosedDetails): string {
  const closed = `code ${code}${reason ? `, ${reason}` : ''}`;
  if (d.address === undefined) return `connection closed (${closed})`;
  const to = `connection to ${d.address}`;
  const why = d.errorCode ?? d.detail;
  const failure = d.failure;
  if (failure === undefined) return `${to} closed (${closed})`;
  switch (failure) {
    case 'refused':
      return `${to} refused (${d.errorCode ?? 'ECONNREFUSED'})`;
    case 'http-status':
      return d.httpStatus === undefined
        ? `${to} got an HTTP answer instead of a websocket upgrade${d.detail ? ` (${d.detail})` : ''}`
        : `${to} answered HTTP ${d.httpStatus} to the websocket upgrade${statusHint(d.httpStatus)}` +
            (d.retryAfterMs === undefined ? '' : `, retry after ${d.retryAfterMs} ms`);
    case 'dns':
      return `${to} failed: host not found${why ? ` (${why})` : ''}`;
    case 'reset':
      return `${to} was reset before the websocket opened${d.detail ? ` (${d.detail})` : ''}`;
    case 'timeout':
      return `${to} timed out${d.detail ? ` (${d.detail})` : ''}`;
    case 'protocol':
      return `${to} closed (${closed}): protocol error${d.detail ? `: ${d.detail}` : ''}`;
    case 'network':
      return `${to} failed${d.detail ? `: ${d.detail}` : ''} (${closed})`;
    case 'closed':
      return `${to} closed before the websocket opened (${closed}; no reason given: refused, unreachable or not a websocket endpoint)`;
    default: {
      const unknown: never = failure;
      return `${to} failed (${String(unknown)}, ${closed})`;
    }
  }
}

/**
 * The websocket closed without being asked to, or never opened. `code`, `reason` and `wasClean` come from the
 * close event (reason redacted). When the socket failed to open, or the runtime reported an error, the
 * details say what went wrong and where, in typed fields and in the message.
 *
 * @example
 * ```ts
 * import { ConnectionClosedError } from 'ex-streams';
 * new ConnectionClosedError(1006, '', false).message; // 'connection closed (code 1006)'
 * const refused = new ConnectionClosedError(1006, '', false, {
 *   failure: 'refused', address: 'ws://127.0.0.1:1234/quote/ws/v1', errorCode: 'ECONNREFUSED',
 * });
 * refused.message; // 'connection to ws://127.0.0.1:1234/quote/ws/v1 refused (ECONNREFUSED)'
 * refused.failure; // 'refused'
 * ```
 */
export class ConnectionClosedError extends Error {
  override readonly name = 'ConnectionClosedError';
  /** Why it failed; absent when an open socket was closed by the peer (`code` and `reason` say why). */
  readonly failure?: ConnectionFailure;
  /** The redacted address (a listen key reads `/ws/***`). */
  readonly address?: string;
  /** The HTTP status that answered the upgrade (`failure: 'http-status'`). */
  readonly httpStatus?: number;
  /**
   * The upgrade answer's `Retry-After`, in ms (Node only). `connection` waits at least this long (capped at its
   * `reconnect.maxDelayMs`) before the next attempt.
   */
  readonly retryAfterMs?: number;
  /** The runtime's error code (`'ECONNREFUSED'`, …). */
  readonly errorCode?: string;
  /** The runtime's own words, redacted and cut short. */
  readonly detail?: string;
  constructor(
    /** Close code: 1006 when no close frame came (a network failure, a refused connection). */
    readonly code: number,
    /** The peer's close reason, redacted (may be empty). */
    readonly reason: string,
    /** Whether the closing handshake completed. */
    readonly wasClean: boolean,
    details: ConnectionClosedDetails = {},
  ) {
    super(closedMessage(code, reason, details));
    // Only the fields known are set, so an error without details equals one built with three arguments.
    if (details.failure !== undefined) this.failure = details.failure;
    if (details.address !== undefined) this.address = details.address;
    if (details.httpStatus !== undefined) this.httpStatus = details.httpStatus;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.errorCode !== undefined) this.errorCode = details.errorCode;
    if (details.detail !== undefined) this.detail = details.detail;
  }
}

/**
 * No frame at all arrived within the heartbeat window: the peer is considered dead and the connection is
 * failed so that reconnection takes over.
 *
 * @example
 * ```ts
 * import { HeartbeatTimeoutError } from 'ex-streams';
 * new HeartbeatTimeoutError(30000).message; // 'no frame received for 30000 ms'
 * ```
 */
export class HeartbeatTimeoutError extends Error {
  override readonly name = 'HeartbeatTimeoutError';
  constructor(readonly silentForMs: number) {
    super(`no frame received for ${silentForMs} ms`);
  }
}

/**
 * A frame could not be queued because the outgoing queue (frames waiting for the socket to open) is full.
 *
 * @example
 * ```ts
 * import { SendQueueFullError } from 'ex-streams';
 * new SendQueueFullError(1000).message; // 'send queue full (1000 frames waiting for an open socket)'
 * ```
 */
export class SendQueueFullError extends Error {
  override readonly name = 'SendQueueFullError';
  constructor(readonly capacity: number) {
    super(`send queue full (${capacity} frames waiting for an open socket)`);
  }
}
