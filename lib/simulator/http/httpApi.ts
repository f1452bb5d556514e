import type { Account } from '../orders/account';
import { requestParams, verifyApiKey, verifySigned, type AuthContext, type RawRequest, type RequestParams } from './auth';
import type { LoseAnswersOptions } from '../control/controlOptions';
import type { Faults } from '../chaos/faults';
import { rejections, type HttpRejection } from './httpErrors';
import type { ListenKeys } from '../streams/listenKeys';
import type { SymbolMarket } from '../market/market';
import { depth, exchangeInfo, klines, trades, type MarketAnswer } from '../market/marketRest';
import type { RateLimiter } from './rateLimit';
import type { Matching, OrderResult } from '../orders/matching';
import type { TwoFactor } from './twoFactor';
import { batchPlace, cancelAllOfSymbol, cancelByIds, fromV1, orderHistory, PlacedOrders, tradesByClientOrderId } from '../orders/venueOrders';

/** An HTTP answer. @internal */
export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
  /** Extra response headers (e.g. `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** How this answer is lost on its way out (`loseNextAnswers`); sent as it is when absent. */
  readonly lost?: LoseAnswersOptions;
}

/** NONE: free; API_KEY: key only; SIGNED: key + signature + time rule; LISTEN_KEY: key, and full verification when signed. */
type Security = 'NONE' | 'SIGNED' | 'LISTEN_KEY';

interface Route {
  readonly method: string;
  readonly paths: readonly string[];
  readonly security: Security;
  readonly twoFactor?: boolean;
  readonly handle: (params: RequestParams, req: RawRequest) => HttpAnswer;
  /** Parameters from the query string only (the body is JSON, read by the handler). */
  readonly jsonBody?: boolean;
}

/** @internal */
export interface ApiDeps {
  readonly auth: AuthContext;
  readonly faults: Faults;
  readonly listenKeys: ListenKeys;
  readonly twoFactor: TwoFactor;
  readonly matching: Matching;
  readonly account: Account;
  readonly accountId: string;
  readonly nextId: () => string;
  readonly markets: ReadonlyMap<string, SymbolMarket>;
  /** The rate limit, when configured. */
  readonly rateLimiter?: RateLimiter;
}

const reject = (r: HttpRejection): HttpAnswer => ({ status: r.status, body: { code: r.code, msg: r.msg } });
const ok = (body: unknown): HttpAnswer => ({ status: 200, body });
const fromOrder = (r: OrderResult | MarketAnswer): HttpAnswer => (r.ok ? ok(r.body) : reject(r.rejection));

/** The v1 placement paths (a MARKET BUY's `quantity` is its quote amount) and HashKey's recommended v1.1 path. */
const ORDER_PATHS = ['/api/v1/spot/order', '/openapi/v1/order'];
const V1_1_ORDER_PATH = '/api/v1.1/spot/order';
const BATCH_PATHS = ['/api/v1.1/spot/batchOrders', '/api/v1/spot/batchOrders'];

const routes = (d: ApiDeps): Route[] => {
  const placed = new PlacedOrders();
  const place = (p: RequestParams): HttpAnswer => fromOrder(placed.add(d.matching.place(p)));
  const placeV1 = (p: RequestParams): HttpAnswer => {
    const read = fromV1(p);
    return read instanceof Map ? place(read) : reject(read as HttpRejection);
  };
  const listenKeyCall = (action: (key: string) => boolean) => (params: RequestParams): HttpAnswer => {
    const key = params.get('listenKey');
    if (key === undefined) return reject(rejections.missingParameter('listenKey'));
    return action(key) ? ok({}) : reject(rejections.invalidListenKey);
  };
  const twoFa = (method: string, path: string, answer: () => object): Route => ({
    method,
    paths: [path],
    security: 'SIGNED',
    twoFactor: true,
    handle: () => ok(answer()),
  });
  return [
    { method: 'GET', paths: ['/api/v1/time'], security: 'NONE', handle: () => ok({ serverTime: d.auth.serverTime() }) },
    { method: 'GET', paths: ['/api/v1/ping'], security: 'NONE', handle: () => ok({}) },
    { method: 'POST', paths: ['/api/v1/userDataStream'], security: 'LISTEN_KEY', handle: () => ok({ listenKey: d.listenKeys.create() }) },
    { method: 'PUT', paths: ['/api/v1/userDataStream'], security: 'LISTEN_KEY', handle: listenKeyCall((k) => d.listenKeys.extend(k)) },
    { method: 'DELETE', paths: ['/api/v1/userDataStream'], security: 'LISTEN_KEY', handle: listenKeyCall((k) => d.listenKeys.delete(k)) },
    { method: 'POST', paths: ORDER_PATHS, security: 'SIGNED', handle: placeV1 },
    { method: 'POST', paths: [V1_1_ORDER_PATH], security: 'SIGNED', handle: place },
    { method: 'POST', paths: BATCH_PATHS, security: 'SIGNED', jsonBody: true, handle: (_p, req) => fromOrder(batchPlace(d.matching, placed, req.body)) },
    { method: 'DELETE', paths: ['/api/v1/spot/cancelOrderByIds'], security: 'SIGNED', handle: (p) => fromOrder(cancelByIds(d.matching, p)) },
    { method: 'GET', paths: ['/api/v1/spot/tradeOrders'], security: 'SIGNED', handle: (p) => fromOrder(orderHistory(d.matching, placed, p)) },
    { method: 'GET', paths: ['/api/v1/account/tradesByClOrderId'], security: 'SIGNED', handle: (p) => fromOrder(tradesByClientOrderId(d.matching, p)) },
    { method: 'DELETE', paths: ORDER_PATHS, security: 'SIGNED', handle: (p) => fromOrder(d.matching.cancel(p)) },
    { method: 'GET', paths: ORDER_PATHS, security: 'SIGNED', handle: (p) => fromOrder(d.matching.query(p)) },
    {
      method: 'POST',
      paths: ['/api/v1/spot/orderTest'],
      security: 'SIGNED',
      handle: (p) => {
        const read = fromV1(p);
        if (!(read instanceof Map)) return reject(read as HttpRejection);
        const checked = d.matching.check(read);
        return checked.ok ? ok({}) : reject(checked.rejection);
      },
    },
    { method: 'GET', paths: ['/api/v1/spot/openOrders'], security: 'SIGNED', handle: (p) => ok(d.matching.openOrders(p)) },
    { method: 'DELETE', paths: ['/api/v1/spot/openOrders'], security: 'SIGNED', handle: (p) => fromOrder(cancelAllOfSymbol(d.matching, p)) },
    {
      method: 'GET',
      paths: ['/api/v1/account'],
      security: 'SIGNED',
      handle: () => ok({ balances: d.account.snapshot(), userId: d.accountId }),
    },
    { method: 'GET', paths: ['/api/v1/account/trades'], security: 'SIGNED', handle: (p) => fromOrder(d.matching.accountTrades(p)) },
    { method: 'GET', paths: ['/api/v1/exchangeInfo'], security: 'NONE', handle: () => ok(exchangeInfo(d.markets, d.auth.serverTime())) },
    { method: 'GET', paths: ['/quote/v1/depth'], security: 'NONE', handle: (p) => fromOrder(depth(d.markets, p, d.auth.serverTime())) },
    { method: 'GET', paths: ['/quote/v1/trades'], security: 'NONE', handle: (p) => fromOrder(trades(d.markets, p)) },
    { method: 'GET', paths: ['/quote/v1/klines'], security: 'NONE', handle: (p) => fromOrder(klines(d.markets, p, d.auth.serverTime())) },
    twoFa('GET', '/api/v1/whitelist/verify', () => ({ address: 'sim-micro-payment-address', network: 'SIM' })),
    twoFa('POST', '/api/v1/account/withdraw', () => ({ success: true, id: d.nextId() })),
    twoFa('POST', '/api/v1/account/fiat/withdraw', () => ({ success: true, id: d.nextId() })),
    twoFa('POST', '/api/v1/whitelist/walletSigning', () => ({ success: true })),
  ];
};

const header = (req: RawRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The HTTP API: the rate limit first (429 / 418 with `Retry-After`), then fault injection, then routing (404 / 405), verification by security type, 2FA on the
 * four affected endpoints, then the handler. The answer, whatever it is, carries how it is lost when a queued
 * `loseNextAnswers` matches the request.
 * @internal
 */
export function apiHandler(deps: ApiDeps): (method: string, path: string, req: RawRequest, ip: string) => HttpAnswer {
  const answer = processRequest(deps);
  return (method, path, req, ip) => {
    const processed = answer(method, path, req, ip);
    const lost = deps.faults.takeLoss(method, path);
    return lost === undefined ? processed : { ...processed, lost };
  };
}

function processRequest(deps: ApiDeps): (method: string, path: string, req: RawRequest, ip: string) => HttpAnswer {
  const table = routes(deps);
  return (method, path, req, ip) => {
    const limited = deps.rateLimiter?.take(verifyApiKey(deps.auth, req) === undefined ? `key:${deps.auth.apiKey}` : `ip:${ip}`);
    if (limited !== undefined) {
      const { retryAfterS } = limited;
      return retryAfterS === undefined ? reject(limited.rejection) : { ...reject(limited.rejection), headers: { 'Retry-After': String(retryAfterS) } };
    }
    const injected = deps.faults.takeRejection();
    if (injected !== undefined) return reject(injected);
    const onPath = table.filter((r) => r.paths.includes(path));
    if (onPath.length === 0) return reject(rejections.unknownEndpoint);
    const route = onPath.find((r) => r.method === method);
    if (route === undefined) return reject(rejections.methodNotAllowed);
    const params = requestParams(route.jsonBody === true ? { query: req.query, body: '' } : req);
    const signed = route.security === 'SIGNED' || (route.security === 'LISTEN_KEY' && (params.has('signature') || params.has('timestamp')));
    const authError =
      route.security === 'NONE' ? undefined : signed ? verifySigned(deps.auth, req) : verifyApiKey(deps.auth, req);
    if (authError !== undefined) return reject(authError);
    if (route.twoFactor === true && deps.twoFactor.enabled) {
      const token = header(req, 'x-two-fa-token');
      if (token === undefined || token === '') return reject(rejections.twoFactorRequired);
      if (!deps.twoFactor.consume(token)) return reject(rejections.twoFactorInvalid);
    }
    return route.handle(params, req);
  };
}
