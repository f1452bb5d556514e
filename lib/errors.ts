/**
 * Typed errors of ex-streams. Every error is a plain `class XxxError extends Error` with `name` set and
 * structured, readonly fields. None of them ever carries a secret key, a signature, a 2FA token or a
 * listen key in its message, its fields or its `toString()`.
 *
 * @module
 */

/**
 * Where a {@link DecodeError} happened: the frame layer or the codec layer.
 *
 * @example
 * ```ts
 * import { DecodeError, marketStreams, type DecodeErrorKind } from 'ex-streams';
 *
 * const kindOf = (error: Error): DecodeErrorKind | undefined => (error instanceof DecodeError ? error.kind : undefined);
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).errors$
 *   .subscribe((e) => console.warn(kindOf(e) ?? e.name)); // 'json', 'codec', 'zip', ...
 * ```
 */
export type DecodeErrorKind =
  | 'frame-too-large'
  | 'inflated-too-large'
  | 'zip'
  | 'utf8'
  | 'json'
  | 'codec';

/**
 * A frame or a payload that could not be turned into a typed value. The stream it arrived on keeps going;
 * the error is reported on the `errors$` side stream of the stream factories.
 *
 * @example
 * ```ts
 * import { DecodeError } from 'ex-streams';
 * const e = new DecodeError('codec', 'TradeRecord failed', ['Invalid value "x" supplied to : TradeRecord/t: Int']);
 * e.paths; // ['Invalid value "x" supplied to : TradeRecord/t: Int']
 * ```
 */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  constructor(
    /** Which layer rejected the input. */
    readonly kind: DecodeErrorKind,
    message: string,
    /**
     * PathReporter-style lines (`Invalid value <v> supplied to : A/b: C`), one per failed path, empty for
     * frame-level errors. Bounded whatever the input: each value is redacted, then cut at 40 characters
     * (`…`); at most 10 lines, then `… and N more`. When several records (or events, or batch messages) of
     * one frame fail, the frame gives ONE error whose message counts them and whose paths are the first's.
     */
    readonly paths: readonly string[] = [],
    /**
     * The offending input, redacted (listen keys, signatures, tokens, opaque 32+ character keys), then cut
     * at 300 characters (`…`).
     */
    readonly raw?: string,
  ) {
    super(message);
  }
}

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
 * A configuration value that cannot work (a non-positive `recvWindow`, a missing secret, ...), reported
 * before anything is sent.
 *
 * @example
 * ```ts
 * import { ConfigError } from 'ex-streams';
 * new ConfigError('recvWindow', 'must be a positive integer').message; // 'recvWindow must be a positive integer'
 * ```
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    /** The option at fault. */
    readonly option: string,
    reason: string,
  ) {
    super(`${option} ${reason}`);
  }
}

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

/**
 * The service answered one subscription with an error frame (unknown symbol or topic). Only the
 * observable of that subscription errors; every other topic keeps flowing.
 *
 * @example
 * ```ts
 * import { SubscriptionRejectedError } from 'ex-streams';
 * new SubscriptionRejectedError('NOPE', 'trade', '-100010', 'Invalid Symbols!').message;
 * // 'subscription NOPE trade rejected: code -100010: Invalid Symbols!'
 * ```
 */
export class SubscriptionRejectedError extends Error {
  override readonly name = 'SubscriptionRejectedError';
  constructor(
    readonly symbol: string,
    readonly topic: string,
    readonly code?: number | string,
    readonly msg?: string,
  ) {
    super(
      `subscription ${symbol} ${topic} rejected` +
        (code !== undefined ? `: code ${code}` : '') +
        (msg !== undefined ? `: ${msg}` : ''),
    );
  }
}

/**
 * What kind of refusal a {@link SubscriptionRetriedError} reports (the service's code, read with the table in
 * docs/market-streams.md, "When the service says no"): a rate limit (`-1003`, `-1015`), a busy or failing service (`-1000`,
 * `-1001`, `-1006`, `-1007`, `-1016`), or a code the library does not know.
 *
 * @example
 * ```ts
 * import { SubscriptionRetriedError, type SubscriptionRetryKind } from 'ex-streams';
 *
 * const kindOf = (e: Error): SubscriptionRetryKind | undefined => (e instanceof SubscriptionRetriedError ? e.kind : undefined);
 * kindOf(new SubscriptionRetriedError(['BTCUSDT'], 'trade', '-1003', 'Too many requests', 'rate-limit')); // 'rate-limit'
 * ```
 */
export type SubscriptionRetryKind = 'rate-limit' | 'busy' | 'unknown';

const RETRY_WORDS: Readonly<Record<SubscriptionRetryKind, string>> = {
  'rate-limit': 'a rate limit',
  busy: 'the service is busy or failing',
  unknown: 'a code the library does not know',
};

/** `A, B, C and 17 more`. */
function symbolList(symbols: readonly string[]): string {
  const shown = symbols.slice(0, 3).join(', ');
  return symbols.length > 3 ? `${shown} and ${symbols.length - 3} more` : shown;
}

/**
 * The service refused subscriptions for now: a rate limit, a busy or failing service, or a code the library does
 * not know. Reported on `errors$`; the topics do not end: each is subscribed again after a jittered backoff
 * (1 s, doubling, capped at 30 s). `symbols` are the topics it applied to (empty when the frame named nothing
 * and no subscription was waiting for an answer).
 *
 * @example
 * ```ts
 * import { SubscriptionRetriedError } from 'ex-streams';
 * new SubscriptionRetriedError(['BTCUSDT'], 'trade', '-1003', 'Too many requests', 'rate-limit').message;
 * // 'subscription BTCUSDT trade refused for now: code -1003: Too many requests (a rate limit); sent again after a backoff'
 * ```
 */
export class SubscriptionRetriedError extends Error {
  override readonly name = 'SubscriptionRetriedError';
  constructor(
    /** The symbols of the topics sent again. */
    readonly symbols: readonly string[],
    /** Their request topic (`trade`, `kline_1m`, …), when known. */
    readonly topic: string | undefined,
    /** The service's code, as sent. */
    readonly code: number | string,
    /** The service's words (`desc` or `msg`), redacted and cut short. */
    readonly msg: string | undefined,
    /** What the code says. */
    readonly kind: SubscriptionRetryKind,
  ) {
    super(
      (symbols.length === 0 ? 'a request refused for now' : `subscription ${symbolList(symbols)}${topic === undefined ? '' : ` ${topic}`} refused for now`) +
        `: code ${code}${msg !== undefined ? `: ${msg}` : ''} (${RETRY_WORDS[kind]})` +
        (symbols.length === 0 ? '; nothing was waiting for an answer' : '; sent again after a backoff'),
    );
  }
}

/**
 * A topic whose `sub` the connection did not survive: it closed right after that `sub` (before any data) several
 * times in a row (`quarantineAfterCloses`, default 3), the topic alone waiting for an answer each time. The topic
 * ends with this error so that the other topics of the connection keep flowing; `closeCode` is the last close's
 * code (`undefined` when the socket was lost without one).
 *
 * @example
 * ```ts
 * import { TopicQuarantinedError, marketStreams } from 'ex-streams';
 *
 * const market = marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' });
 * market.trades('BADPAIR').subscribe({
 *   error: (e) => {
 *     if (e instanceof TopicQuarantinedError) console.warn(e.symbol, e.topic, e.closeCode, e.closes); // 'BADPAIR' 'trade' 1008 3
 *   },
 * });
 * new TopicQuarantinedError('BADPAIR', 'trade', 1008, 3).message;
 * // 'topic BADPAIR trade quarantined: the connection closed (code 1008) right after its sub 3 times in a row, before any data'
 * ```
 */
export class TopicQuarantinedError extends Error {
  override readonly name = 'TopicQuarantinedError';
  constructor(
    readonly symbol: string,
    readonly topic: string,
    /** The close code of the last of those closes, `undefined` without one. */
    readonly closeCode: number | undefined,
    /** How many closes in a row followed its `sub`. */
    readonly closes: number,
  ) {
    super(
      `topic ${symbol} ${topic} quarantined: the connection closed${closeCode === undefined ? '' : ` (code ${closeCode})`} ` +
        `right after its sub ${closes} times in a row, before any data`,
    );
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
 * An event whose event time `E` lies further from the (server-corrected) clock than the configured bound:
 * it is reported and dropped, so it neither moves the reorder buffer's watermark nor wins in the order and
 * balance state.
 *
 * @example
 * ```ts
 * import { EventTimeOutOfRangeError } from 'ex-streams';
 * const e = new EventTimeOutOfRangeError('outboundAccountInfo', 1_700_086_400_000, 1_700_000_000_000, 300_000);
 * e.message; // 'outboundAccountInfo event time 1700086400000 is 86400000 ms from the clock (bound 300000 ms): dropped'
 * ```
 */
export class EventTimeOutOfRangeError extends Error {
  override readonly name = 'EventTimeOutOfRangeError';
  constructor(
    /** The event type (`e`). */
    readonly eventType: string,
    /** The event's `E`. */
    readonly eventTime: number,
    /** The clock's time (server-corrected) when it arrived. */
    readonly clockTime: number,
    /** The bound in force, in ms. */
    readonly maxSkewMs: number,
  ) {
    super(
      `${eventType} event time ${eventTime} is ${Math.abs(eventTime - clockTime)} ms from the clock (bound ${maxSkewMs} ms): dropped`,
    );
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

/**
 * A rule of a symbol's filters (`exchangeInfo`) an order breaks (see {@link OrderRuleError}):
 * - `'decimal'`: the price, quantity or amount is not plain decimal text (digits, optionally a point and digits);
 * - `'tickSize'`, `'minPrice'`, `'maxPrice'`: the price (`PRICE_FILTER`);
 * - `'stepSize'`, `'minQty'`, `'maxQty'`: the quantity (`LOT_SIZE`);
 * - `'minNotional'`: price × quantity (`MIN_NOTIONAL`);
 * - `'minAmount'`, `'maxAmount'`: the amount of a market order (`TRADE_AMOUNT`).
 *
 * @example
 * ```ts
 * import { OrderRuleError, type OrderRule } from 'ex-streams';
 *
 * const ruleOf = (error: Error): OrderRule | undefined => (error instanceof OrderRuleError ? error.rule : undefined);
 * ruleOf(new OrderRuleError('BTCUSDT', 'price', 'tickSize', '0.01', '20000.123')); // 'tickSize'
 * ```
 */
export type OrderRule =
  | 'decimal'
  | 'tickSize'
  | 'minPrice'
  | 'maxPrice'
  | 'stepSize'
  | 'minQty'
  | 'maxQty'
  | 'minNotional'
  | 'minAmount'
  | 'maxAmount';

/** What a rule is about, in a message: `tickSize` → `'not a multiple of the tick size'`. */
const RULE_WORDS: Readonly<Record<OrderRule, string>> = {
  decimal: 'not plain decimal text (digits, optionally a point and digits)',
  tickSize: 'not a multiple of the tick size',
  minPrice: 'below the minimum price',
  maxPrice: 'above the maximum price',
  stepSize: 'not a multiple of the step size',
  minQty: 'below the minimum quantity',
  maxQty: 'above the maximum quantity',
  minNotional: 'below the minimum notional',
  minAmount: 'below the minimum amount',
  maxAmount: 'above the maximum amount',
};

/**
 * An order that breaks one of its symbol's rules (`checkOrder`, `fitOrder`), found before anything is sent:
 * which `field` of the order, which `rule`, the rule's `bound` and the order's `value`. For `'minNotional'` the
 * field is `'notional'` and the value is price × quantity; for `'decimal'` there is no bound and the value is
 * a short excerpt of the text at fault.
 *
 * @example
 * ```ts
 * import { OrderRuleError } from 'ex-streams';
 *
 * const e = new OrderRuleError('BTCUSDT', 'price', 'tickSize', '0.01', '20000.123');
 * e.message; // 'BTCUSDT price 20000.123 is not a multiple of the tick size 0.01'
 * e.rule;    // 'tickSize'
 * ```
 */
export class OrderRuleError extends Error {
  override readonly name = 'OrderRuleError';
  constructor(
    /** The order's symbol. */
    readonly symbol: string,
    /** The value at fault: the order's `price`, `quantity` or `amount`, or its `notional` (price × quantity). */
    readonly field: 'price' | 'quantity' | 'amount' | 'notional',
    /** The rule broken. */
    readonly rule: OrderRule,
    /** The rule's bound as decimal text (the tick size, the minimum, ...); `undefined` for `'decimal'`. */
    readonly bound: string | undefined,
    /** The order's value that breaks it, as text. */
    readonly value: string,
  ) {
    super(`${symbol} ${field} ${value} is ${RULE_WORDS[rule]}${bound === undefined ? '' : ` ${bound}`}`);
  }
}

/**
 * What {@link OrderOutcomeUnknownError} knows of the order it may have placed or cancelled: enough to find it
 * (`clientOrderId`, with the symbol) and to recognise it.
 *
 * @example
 * ```ts
 * import type { OrderInDoubt } from 'ex-streams';
 *
 * const order: OrderInDoubt = { action: 'place', clientOrderId: 'xs1k2j3h4g5f6d7s8a9', symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' };
 * ```
 */
export interface OrderInDoubt {
  /** What the request did: place a new order, or cancel one. */
  readonly action: 'place' | 'cancel';
  /** The client order id sent with the placement (or the one the cancel named). */
  readonly clientOrderId?: string | undefined;
  /** The order id the cancel named. */
  readonly orderId?: string | undefined;
  readonly symbol?: string | undefined;
  readonly side?: string | undefined;
  readonly type?: string | undefined;
  readonly price?: string | undefined;
  readonly quantity?: string | undefined;
  /** Quote amount of a market order. */
  readonly amount?: string | undefined;
}

/**
 * A placement or a cancel whose request may have reached the service, but whose answer was lost: no answer
 * within the deadline, a connection reset, a gateway's 5xx page without the service's error body, the
 * service's own "execution status unknown" (-1006, -1007), or a success answer that could not be read. The
 * order may exist (or may be cancelled): the library never sends the request again by itself. Find out with
 * `getOrder({ clientOrderId })` (what `userStream(...).placeOrder` does for you), or watch `orders$`.
 * A {@link RequestFailedError}, so code that handles "no answer" handles this too.
 *
 * @example
 * ```ts
 * import { OrderOutcomeUnknownError, restClient } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' }).subscribe({
 *   error: (e) => {
 *     if (e instanceof OrderOutcomeUnknownError) rest.getOrder({ clientOrderId: e.order.clientOrderId! }).subscribe(console.log);
 *   },
 * });
 * ```
 */
export class OrderOutcomeUnknownError extends RequestFailedError {
  override readonly name = 'OrderOutcomeUnknownError';
  constructor(
    method: string,
    path: string,
    /** The order in doubt. */
    readonly order: OrderInDoubt,
    /** Why the answer is missing: the deadline, the reset, the gateway page, … (the error of the request). */
    readonly underlying: Error,
  ) {
    super(method, path, `${underlying instanceof RequestFailedError ? underlying.reason : underlying.message}; the order ${inDoubtWords(order)}`);
  }
}

/**
 * A batch call (a batch placement, a cancel by ids) whose answer was lost after the request may have reached the
 * service (the same failures as {@link OrderOutcomeUnknownError}): every order of the batch is in doubt, each in
 * `orders` with what finds it (its client order id). The library never sends the batch again by itself; look each
 * order up (`getOrder({ clientOrderId })`) or watch `orders$`. A {@link RequestFailedError}.
 *
 * @example
 * ```ts
 * import { BatchOutcomeUnknownError, restClient } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * rest.batchOrders([{ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' }]).subscribe({
 *   error: (e) => {
 *     if (e instanceof BatchOutcomeUnknownError) for (const o of e.orders) rest.getOrder({ clientOrderId: o.clientOrderId! }).subscribe(console.log);
 *   },
 * });
 * ```
 */
export class BatchOutcomeUnknownError extends RequestFailedError {
  override readonly name = 'BatchOutcomeUnknownError';
  constructor(
    method: string,
    path: string,
    /** Every order of the batch, each in doubt. */
    readonly orders: readonly OrderInDoubt[],
    /** Why the answer is missing (the error of the request). */
    readonly underlying: Error,
  ) {
    super(
      method,
      path,
      `${underlying instanceof RequestFailedError ? underlying.reason : underlying.message}; ${orders.length} order(s) in doubt: ${orders
        .map((o) => o.clientOrderId ?? o.orderId)
        .join(', ')}`,
    );
  }
}

function inDoubtWords(o: OrderInDoubt): string {
  const what = [o.symbol, o.side, o.type, o.quantity, o.amount === undefined ? undefined : `amount ${o.amount}`, o.price === undefined ? undefined : `@ ${o.price}`]
    .filter((w) => w !== undefined)
    .join(' ');
  const id = o.clientOrderId !== undefined ? `clientOrderId ${o.clientOrderId}` : `orderId ${o.orderId}`;
  return o.action === 'place'
    ? `may have been placed: look it up by ${id}${what === '' ? '' : ` (${what})`}`
    : `may have been cancelled: look up ${id}${what === '' ? '' : ` (${what})`}`;
}

/**
 * The service says it has no order with this client order id, at a time when a placement sent with it can no
 * longer arrive (its `recvWindow` has passed): the placement whose outcome was unknown did not place an order.
 *
 * @example
 * ```ts
 * import { OrderNotPlacedError } from 'ex-streams';
 * new OrderNotPlacedError('BTCUSDT', 'xs1k2j3h4g5f6d7s8a9').message;
 * // 'BTCUSDT order xs1k2j3h4g5f6d7s8a9 was not placed: the service has no order with this client order id'
 * ```
 */
export class OrderNotPlacedError extends Error {
  override readonly name = 'OrderNotPlacedError';
  constructor(
    readonly symbol: string | undefined,
    readonly clientOrderId: string,
  ) {
    super(`${symbol === undefined ? '' : `${symbol} `}order ${clientOrderId} was not placed: the service has no order with this client order id`);
  }
}

/**
 * Which order an answer was expected to be about, or which one it was about (see {@link OrderMismatchError}).
 *
 * @example
 * ```ts
 * import type { OrderIdentity } from 'ex-streams';
 *
 * const ours: OrderIdentity = { clientOrderId: 'grid-7', orderId: '1470000001', symbol: 'BTCUSDT' };
 * ```
 */
export interface OrderIdentity {
  readonly clientOrderId?: string | undefined;
  readonly orderId?: string | undefined;
  readonly symbol?: string | undefined;
}

/**
 * An answer (a placement's, a lookup's, a stream report) that speaks of another order than the one it was asked
 * about: another client order id, another order id once ours is known, or another symbol. It is never taken for
 * ours: the answer is dropped, this error goes to the user stream's `errors$`, and the order is looked up again.
 *
 * @example
 * ```ts
 * import { OrderMismatchError } from 'ex-streams';
 *
 * const explain = (e: unknown) =>
 *   e instanceof OrderMismatchError ? `${e.source}: asked ${e.expected.clientOrderId}, got ${e.got.clientOrderId}` : String(e);
 * // 'lookup: asked grid-7, got grid-8'
 * ```
 */
export class OrderMismatchError extends Error {
  override readonly name = 'OrderMismatchError';
  constructor(
    /** Where the answer came from. */
    readonly source: 'placement' | 'cancel' | 'lookup' | 'snapshot' | 'stream',
    /** The order asked about (what is known of it). */
    readonly expected: OrderIdentity,
    /** The order the answer is about. */
    readonly got: OrderIdentity,
  ) {
    super(`${source} answer about another order: expected ${identityWords(expected)}, got ${identityWords(got)}; ignored`);
  }
}

const identityWords = (o: OrderIdentity): string =>
  [o.symbol, o.orderId === undefined ? undefined : `orderId ${o.orderId}`, o.clientOrderId === undefined ? undefined : `clientOrderId ${o.clientOrderId}`]
    .filter((w) => w !== undefined)
    .join(' ') || 'an unnamed order';
