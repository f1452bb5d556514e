import type * as t from 'io-ts';
import type { SchedulerLike, Observable } from 'rxjs';
import type { Params } from '../auth/formEncode';
import type { SignFunction } from '../auth/signConfig';
import type { VenuePreset } from '../venue/venuePreset';
import type { RestCalls } from './callTypes';

/**
 * Security type of an endpoint (SPEC, Authentication 3): `NONE` sends no key; `USER_STREAM` and
 * `MARKET_DATA` send the API-key header; `TRADE` and `USER_DATA` send the key header and are signed.
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import type { SecurityType } from 'ex-streams/rest';
 *
 * declare const apiKey: string, secretKey: string;
 * const security: SecurityType = 'USER_DATA'; // API-key header and signature
 * restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey })
 *   .request({ method: 'GET', path: '/api/v1/account', security })
 *   .subscribe((account) => console.log(account));
 * ```
 */
export type SecurityType = 'NONE' | 'TRADE' | 'USER_DATA' | 'USER_STREAM' | 'MARKET_DATA';

/**
 * HTTP method of a {@link RestRequest}.
 *
 * @example
 * ```ts
 * import type { HttpMethod } from 'ex-streams/rest';
 *
 * const method: HttpMethod = 'DELETE';
 * ```
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One HTTP call made by {@link RestClient.request}.
 *
 * @example
 * ```ts
 * import * as t from 'io-ts';
 * import { restClient } from 'ex-streams';
 * import type { RestRequest } from 'ex-streams/rest';
 *
 * declare const apiKey: string, secretKey: string;
 * const OpenOrders = t.array(t.type({ orderId: t.string, status: t.string }));
 * const openOrders: RestRequest<t.TypeOf<typeof OpenOrders>> = {
 *   method: 'GET', path: '/api/v1/spot/openOrders', security: 'USER_DATA', query: { symbol: 'BTCUSDT' }, codec: OpenOrders,
 * };
 * restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey }).request(openOrders)
 *   .subscribe((orders) => console.log(orders.length, 'open orders'));
 * ```
 */
export interface RestRequest<A = unknown> {
  readonly method: HttpMethod;
  /** Path below `baseUrl`, e.g. `/api/v1/spot/order`, without query string (put parameters in `query`). */
  readonly path: string;
  /** Query-string parameters, sent in order. */
  readonly query?: Params | undefined;
  /** Body parameters, form-encoded (`application/x-www-form-urlencoded;charset=UTF-8`). Not allowed on GET. */
  readonly body?: Params | undefined;
  /**
   * A JSON body instead (HashKey's batch placement), sent as this exact text with `application/json`. Not with
   * `body`, not on GET. A signed call then puts `recvWindow`, `timestamp` and `signature` in the query string and
   * signs the query string immediately followed by this text (totalParams).
   */
  readonly jsonBody?: string | undefined;
  /**
   * How many slots of the client-side rate limit this call takes (its documented request weight), at most the
   * limit itself. Default 1.
   */
  readonly weight?: number | undefined;
  /** Security type of the endpoint. Default `'NONE'`. */
  readonly security?: SecurityType | undefined;
  /** Send a fresh `X-TWO-FA-TOKEN` from `twoFactorToken()` (the four 2FA endpoints of the spec). Default `false`. */
  readonly twoFactor?: boolean | undefined;
  /** Decodes the JSON response body; without it the parsed JSON (or `undefined` for an empty body) is emitted. */
  readonly codec?: t.Decoder<unknown, A> | undefined;
  /** Deadline of this call in ms (aborted with a `RequestTimeoutError` when it passes). Default: the client's `requestTimeoutMs`. */
  readonly timeoutMs?: number | undefined;
}

/**
 * An optional client-side rate limit of {@link index!restClient}: calls beyond it wait in a queue (in order, on the
 * client's scheduler) instead of earning a 429 or a ban. Each limit counts call starts in any one-second
 * window; the clock call and a -1021 retry count too.
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * import type { RestRateLimit } from 'ex-streams/rest';
 *
 * declare const apiKey: string, secretKey: string;
 * const rateLimit: RestRateLimit = { requestsPerSecond: 10, ordersPerSecond: 5 };
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey, rateLimit });
 * ```
 */
export interface RestRateLimit {
  /** Most calls started per second, all kinds (a call of weight `n` counts `n`). Default none (no limit). */
  readonly requestsPerSecond?: number | undefined;
  /**
   * Most calls other than order placements started per second (HashKey's per-key limit of "query-related"
   * calls; cancels count here too). Default none (no limit).
   */
  readonly queriesPerSecond?: number | undefined;
  /** Most order placements (`POST` on an order path, a batch counting its weight) started per second. Default none (no limit). */
  readonly ordersPerSecond?: number | undefined;
}

/**
 * Configuration of {@link restClient}.
 *
 * @example
 * ```ts
 * import { restClient, type RestClientConfig } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const config: RestClientConfig = {
 *   baseUrl: 'https://api.example.com',
 *   apiKey,
 *   secretKey,
 *   apiKeyHeader: 'X-OPR-APIKEY', // your operator's header name
 *   recvWindow: 3000,
 * };
 * const rest = restClient(config);
 * ```
 */
export interface RestClientConfig {
  /**
   * The HTTP API base address, e.g. `https://api.example.com` (a trailing `/` is ignored). Default: the
   * `venue`'s `restUrl`; one of the two is required.
   */
  readonly baseUrl?: string | undefined;
  /**
   * A venue preset (e.g. `hashkey.global.production`): its `restUrl`, `apiKeyHeader`, `rateLimit` and `site` are
   * the defaults of `baseUrl`, `apiKeyHeader`, `rateLimit` and the market-data calls' `site`; a `recvWindow` above
   * its `maxRecvWindowMs` is a `ConfigError` thrown here. Default none.
   */
  readonly venue?: VenuePreset | undefined;
  /**
   * Where `newOrder` places: `'v1.1'` (default: `POST /api/v1.1/spot/order`, HashKey's recommended path; `quantity`
   * is base, `amount` is quote) or `'v1'` (`POST /api/v1/spot/order`: no `amount`; a MARKET BUY's `quantity` is
   * read as the quote amount, so a MARKET BUY by `amount` is sent as `quantity` and one by base quantity is
   * refused with a `ConfigError`).
   */
  readonly placementPath?: 'v1.1' | 'v1' | undefined;
  /** The API key, sent in `apiKeyHeader` on every request that is not `NONE`. */
  readonly apiKey?: string | undefined;
  /** The secret key for HMAC SHA256 signatures. Give this or `sign` for signed calls. */
  readonly secretKey?: string | undefined;
  /** A custom signing function instead of `secretKey`: totalParams in, hex signature out. */
  readonly sign?: SignFunction | undefined;
  /**
   * Name of the API-key header. Default: the `venue`'s (`X-HK-APIKEY` on HashKey HK and Global, `X-APIKEY` on MENA),
   * else `'X-EX-APIKEY'`.
   */
  readonly apiKeyHeader?: string | undefined;
  /** `recvWindow` of signed requests, a positive integer in ms, at most the `venue`'s `maxRecvWindowMs`. Default `5000`. */
  readonly recvWindow?: number | undefined;
  /** Provider of 2FA tokens, called once per request with `twoFactor: true`; a token is never reused. */
  readonly twoFactorToken?: (() => string | Promise<string>) | undefined;
  /**
   * The fetch function. Default: on Node, one request through `node:http` / `node:https` on this client's own
   * keep-alive agents (no redirects followed); in the browser build, `globalThis.fetch`, looked up at call time.
   */
  readonly fetch?: typeof fetch | undefined;
  /** Clock of signing timestamps. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
  /**
   * An override of the clock estimate: serverTime - localTime in ms, read at every signature and added to
   * `timestamp`. Default none: the client learns the offset itself from `GET /api/v1/time` (see
   * `serverTimeRefreshMs`).
   */
  readonly serverTimeOffsetMs?: (() => number) | undefined;
  /**
   * Age in ms after which the learned clock offset is refreshed by the next signed call (one
   * `GET /api/v1/time` sent just after that call, which is signed with the old estimate; no timer runs meanwhile). Default `600000` (10 minutes). Unused with
   * `serverTimeOffsetMs`.
   */
  readonly serverTimeRefreshMs?: number | undefined;
  /**
   * Deadline of every request in ms, on `scheduler`: a call without an answer by then is aborted and fails
   * with a `RequestTimeoutError`. Default `10000`. Override per request with `RestRequest.timeoutMs`.
   */
  readonly requestTimeoutMs?: number | undefined;
  /** A client-side rate limit: calls beyond it are queued, not sent. Default: the `venue`'s, else none. See {@link RestRateLimit}. */
  readonly rateLimit?: RestRateLimit | undefined;
  /**
   * Makes the client order id of a placement (`newOrder`, `placeOrder`) sent without `newClientOrderId`. Default:
   * `xs` + the clock in base 36 + 12 random base-36 characters from the platform's `crypto.getRandomValues`
   * (22 characters of `[0-9a-z]`), unique across processes and restarts. Give your own to tag orders by
   * strategy; it must return a new id on every call (the service refuses a duplicate with -1141).
   */
  readonly newClientOrderId?: (() => string) | undefined;
}

/**
 * A signed HTTP client; see {@link restClient}.
 *
 * @example
 * ```ts
 * import { restClient, type RestClient } from 'ex-streams';
 *
 * declare const apiKey: string, secretKey: string;
 * const rest: RestClient = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
 * rest.request({ method: 'GET', path: '/api/v1/time' }).subscribe((body) => console.log(body)); // { serverTime: 1700000000000 }
 * ```
 */
export interface RestClient extends RestCalls {
  /** One HTTP call per subscription (cold), aborted on unsubscribe; emits the decoded body once. */
  request<A = unknown>(request: RestRequest<A>): Observable<A>;
  /**
   * The current estimate of serverTime - localTime in ms that signed timestamps add (the config's
   * `serverTimeOffsetMs()` when given; else learned from `GET /api/v1/time`, 0 before the first answer).
   */
  serverTimeOffsetMs(): number;
  /**
   * How far off `serverTimeOffsetMs()` can be, in ms: half the round trip it was measured over (the service read
   * its clock somewhere within it, not necessarily in the middle); 0 before the first estimate and with the
   * `serverTimeOffsetMs` override. The user stream uses both ends: a gap starts at the earliest local time an
   * event time can stand for, and a balance snapshot is dated the earliest the service's clock can have read.
   *
   * @example
   * ```ts
   * import { restClient } from 'ex-streams';
   * const rest = restClient({ baseUrl: 'https://example.test' });
   * const earliestLocal = (serverTime: number) => serverTime - (rest.serverTimeOffsetMs() + rest.serverTimeOffsetErrorMs());
   * ```
   */
  serverTimeOffsetErrorMs(): number;
  /**
   * Feeds a clock sample measured elsewhere, e.g. a public stream's pong (`serverTime - localTime` and the
   * round trip, in ms). Kept when its round trip is no longer than the current estimate's, or the current one
   * is older than `serverTimeRefreshMs`; a fresh sample spares the next `GET /api/v1/time`. Ignored with the
   * `serverTimeOffsetMs` override.
   */
  clockSample(offsetMs: number, rttMs: number): void;
  /**
   * Gets the client ready to place at once: one `GET /api/v1/time`, which opens the HTTP connection (kept alive
   * for the calls that follow) and makes the server-clock estimate fresh, so the first order after it waits for
   * neither a connection nor the clock. Call it once the client is made and again after a long quiet spell (a
   * server closes idle connections).
   * Completes without a value and never errors (an unreachable service is met by the first call itself).
   *
   * @example
   * ```ts
   * import { restClient } from 'ex-streams';
   * declare const apiKey: string, secretKey: string;
   * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey, secretKey });
   * rest.warm().subscribe({ complete: () => console.log('ready to place') });
   * ```
   */
  warm(): Observable<void>;
  /**
   * A new client order id, as `newOrder` makes for a placement sent without one (the config's
   * `newClientOrderId`, or the default generator).
   */
  newClientOrderId(): string;
  /** The `recvWindow` signed calls carry, in ms: a placement not taken within it never will be. */
  readonly recvWindowMs: number;
  /** `POST /api/v1/userDataStream`, signed; emits the listen key. */
  createListenKey(): Observable<string>;
  /** `PUT /api/v1/userDataStream?listenKey=…`, signed; emits once on HTTP 200. */
  extendListenKey(listenKey: string): Observable<void>;
  /** `DELETE /api/v1/userDataStream?listenKey=…`, signed; emits once on a 2xx answer. */
  closeListenKey(listenKey: string): Observable<void>;
}
