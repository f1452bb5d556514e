import * as E from 'fp-ts/Either';
import { asyncScheduler, catchError, EMPTY, ignoreElements, map, type Observable } from 'rxjs';
import { restCalls } from './calls';
import { clientOrderIds } from './clientOrderId';
import { DEFAULT_RECV_WINDOW_MS } from '../auth/signConfig';
import { createListenKeyCall, listenKeyCall } from './listenKeyCalls';
import { decodeBody } from './parseBody';
import { rejection } from './rejection';
import { DEFAULT_SERVER_TIME_REFRESH_MS, restClock, SERVER_TIME_PATH } from './restClock';
import { onServerClock } from './signedTransport';
import { isOrderPlacement, rateGate } from './rateLimit';
import { transport, validTimeout, type Transport } from './transport';
import type { RestClient, RestClientConfig, RestRequest } from './types';

/**
 * Creates a client for the service's HTTP API that signs requests the way the service checks them.
 *
 * `request(req)` returns a cold observable: each subscription makes one HTTP call (a signed call may be preceded
 * by the clock call below, and is sent once more after a -1021; nothing else is retried) and
 * unsubscribing before the answer aborts it. By `security`: `NONE` sends no key; `USER_STREAM` and
 * `MARKET_DATA` send the `apiKeyHeader`; `TRADE` and `USER_DATA` send it and are signed: `recvWindow`,
 * `timestamp` (clock + the server-clock offset) and finally `signature` are appended to the body when the
 * request has one, else to the query string.
 *
 * The server's clock by itself: before the first signed call the client asks `GET /api/v1/time` once and takes
 * `serverTime - (sent + received) / 2` as the offset; a signed call made more than `serverTimeRefreshMs` after the
 * last estimate is signed with it at once and the time call goes out just after it (no call waits for the clock
 * again); a -1021 answer (code as number or text) refreshes it and
 * sends the rejected call once more, signed anew. No timer runs for this. `rest.serverTimeOffsetMs()` shows the
 * estimate; `rest.clockSample(offsetMs, rttMs)` feeds samples from elsewhere (a public stream's pongs); the
 * `serverTimeOffsetMs` config replaces all of this.
 * `rest.warm()` opens the connection and learns the clock before the first order (no wait for either then).
 *
 * Every call has a deadline (`requestTimeoutMs`, per request `timeoutMs`): without an answer by then it is
 * aborted and fails with `RequestTimeoutError`. 429, 418 and HashKey's rate-limit body codes on a 4xx (`0003`,
 * `-1015`, `-3145`, `-1193`) fail with `RateLimitedError { retryAfterMs }` (from `Retry-After`, else 1 min, as
 * HashKey asks, and 2 min for 418): nothing was done. Body parameters are sent form-encoded with the content type
 * `application/x-www-form-urlencoded;charset=UTF-8`. With `twoFactor: true` a fresh token from
 * `twoFactorToken()` goes in `X-TWO-FA-TOKEN` (one call of the provider per request).
 *
 * A 2xx answer emits the JSON body (decoded by `codec` when given; a failure is a `DecodeError`), then
 * completes. Other answers error with `RequestRejectedError { status, code?, msg? }` (`msg` or `desc` of the
 * error body); network failures with `RequestFailedError`; configuration problems with `ConfigError` before
 * anything is sent. No secret key, signature, 2FA token or listen key appears in any of these errors.
 *
 * The listen-key calls are signed (as in the service's samples) and use `/api/v1/userDataStream`. The typed
 * calls of {@link rest!RestCalls} (`serverTime`, `exchangeInfo`, `depth`, `trades`, `klines`, `newOrder`,
 * `batchOrders`, `testOrder`, `cancelOrder`, `cancelOrdersByIds`, `getOrder`, `openOrders`, `cancelOpenOrders`,
 * `orderHistory`, `account`, `myTrades`, `myTradesByClientOrderId`) are built on `request()` with their paths,
 * security types, documented weights and tolerant codecs (docs/rest.md); `newOrder` places through
 * `/api/v1.1/spot/order` unless `placementPath: 'v1'`.
 *
 * Config: `baseUrl` or `venue` (a preset such as `hashkey.global.production`: address, key header, rate limit,
 * `recvWindow` cap, market-data `site`); `apiKey`; `secretKey` or `sign`; `apiKeyHeader` (default: the venue's,
 * else `'X-EX-APIKEY'`); `recvWindow` (default 5000, positive integer at most the venue's cap, else `ConfigError`
 * thrown here); `placementPath` (default `'v1.1'`); `twoFactorToken`;
 * `fetch` (default: on Node `node:http(s)` on the client's keep-alive agents, in browsers `globalThis.fetch` at call
 * time); `scheduler` (default `asyncScheduler`);
 * `serverTimeOffsetMs` (default none: learned); `serverTimeRefreshMs` (default 600 000);
 * `requestTimeoutMs` (default 10 000); `rateLimit` (default: the venue's, else none:
 * `{ requestsPerSecond?, queriesPerSecond?, ordersPerSecond? }` queues calls beyond it, in order, signing each when
 * it starts).
 *
 * @example
 * ```ts
 * import { restClient } from 'ex-streams';
 * const rest = restClient({ baseUrl: 'https://api.example.com', apiKey: 'my-key', secretKey: 'my-secret' });
 * rest
 *   .request({ method: 'POST', path: '/api/v1/spot/order', security: 'TRADE',
 *              body: { symbol: 'LTCBTC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '0.1' } })
 *   .subscribe({ next: (order) => console.log(order), error: (e) => console.error(String(e)) });
 * rest.createListenKey().subscribe((key) => console.log(key.length)); // 64
 * // A venue preset instead of the address and header: restClient({ venue: hashkey.hk.production, apiKey, secretKey })
 * // Typed calls (docs/rest.md): amounts are decimal text, sides and types unions
 * rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '30000', quantity: '0.01' })
 *   .subscribe((order) => console.log(order.orderId, order.status));
 * rest.account().subscribe(({ balances }) => console.log(balances));
 * ```
 */
export function restClient(config: RestClientConfig): RestClient {
  const { scheduler = asyncScheduler, serverTimeOffsetMs: override } = config;
  const refreshMs = validTimeout('serverTimeRefreshMs', config.serverTimeRefreshMs ?? DEFAULT_SERVER_TIME_REFRESH_MS);
  let clockOffsetMs = (): number => 0;
  const offsetMs = (): number => {
    const ms = override === undefined ? clockOffsetMs() : override();
    return Number.isFinite(ms) ? ms : 0;
  };
  const direct = transport(config, offsetMs);
  const gate = rateGate(config.rateLimit ?? config.venue?.rateLimit, scheduler);
  const plain: Transport = (request, signed) => gate(direct(request, signed), isOrderPlacement(request), request.weight);
  const clock = override === undefined ? restClock(plain, scheduler, refreshMs) : undefined;
  if (clock) clockOffsetMs = clock.offsetMs;
  const canSign = config.secretKey !== undefined || config.sign !== undefined;
  const send = clock ? onServerClock(config, canSign, plain, clock) : plain;
  const newClientOrderId = config.newClientOrderId ?? clientOrderIds(scheduler);
  const request = <A>(req: RestRequest<A>): Observable<A> => {
    const signed = req.security === 'TRADE' || req.security === 'USER_DATA';
    return send(req, signed).pipe(
      map((answer) => {
        const { status, text, secrets } = answer;
        if (status < 200 || status >= 300) throw rejection(answer);
        const body = decodeBody(text, req.codec, secrets);
        if (E.isLeft(body)) throw body.left;
        return body.right;
      }),
    );
  };
  return {
    ...restCalls(request, newClientOrderId, { placementPath: config.placementPath, site: config.venue?.site }),
    newClientOrderId,
    recvWindowMs: config.recvWindow ?? DEFAULT_RECV_WINDOW_MS,
    request,
    serverTimeOffsetMs: offsetMs,
    serverTimeOffsetErrorMs: () => clock?.offsetErrorMs() ?? 0,
    clockSample: (offset, rttMs) => clock?.sample(offset, rttMs),
    // The clock's own call when it learns (forced: a fresh estimate and a used connection); else one plain call.
    warm: (): Observable<void> =>
      clock ? clock.ready(true) : plain({ method: 'GET', path: SERVER_TIME_PATH }, false).pipe(ignoreElements(), catchError(() => EMPTY)),
    createListenKey: () => createListenKeyCall(send),
    extendListenKey: (listenKey) => listenKeyCall(send, 'PUT', listenKey),
    closeListenKey: (listenKey) => listenKeyCall(send, 'DELETE', listenKey),
  };
}
