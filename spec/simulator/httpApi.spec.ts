import { Account } from '../../lib/simulator/orders/account';
import { hmacHex, type RawRequest } from '../../lib/simulator/http/auth';
import { manualClock } from '../../lib/simulator/core/clock';
import { Faults } from '../../lib/simulator/chaos/faults';
import { apiHandler, type ApiDeps } from '../../lib/simulator/http/httpApi';
import { rejections, type HttpRejection } from '../../lib/simulator/http/httpErrors';
import { ListenKeys } from '../../lib/simulator/streams/listenKeys';
import { idSource, SymbolMarket } from '../../lib/simulator/market/market';
import { Matching } from '../../lib/simulator/orders/matching';
import { mulberry32 } from '../../lib/simulator/core/random';
import { RateLimiter, type RateLimitOptions } from '../../lib/simulator/http/rateLimit';
import { symbolInfo, type SymbolInfo } from '../../lib/simulator/market/symbols';
import { Timers } from '../../lib/simulator/core/timers';
import { TwoFactor } from '../../lib/simulator/http/twoFactor';

const T0 = 1_700_000_000_000;
const KEY = 'the-api-key';
const SECRET = 'the-secret';

function setup(options: { readonly rateLimit?: RateLimitOptions } = {}) {
  const clock = manualClock(T0);
  const now = (): number => clock.now();
  const timers = new Timers(clock);
  const ended: string[] = [];
  const markets = new Map([['BTCUSDT', new SymbolMarket(symbolInfo('BTCUSDT') as SymbolInfo, 1, idSource(1n), T0)]]);
  const account = new Account({ USDT: '1000' });
  const faults = new Faults();
  const twoFactor = new TwoFactor(false, now, mulberry32(2), 30_000);
  const listenKeys = new ListenKeys(timers, now, mulberry32(3), 3_600_000, (key, why) => ended.push(`${why} ${key}`));
  const misc = idSource(42n);
  const deps: ApiDeps = {
    auth: { apiKey: KEY, secretKey: SECRET, apiKeyHeader: 'X-EX-APIKEY', serverTime: now },
    faults,
    listenKeys,
    twoFactor,
    matching: new Matching({
      markets,
      account,
      now,
      publish: () => undefined,
      orderIds: idSource(100n),
      ticketIds: idSource(200n),
      matchIds: idSource(300n),
      accountId: 'acc',
    }),
    account,
    accountId: 'acc',
    nextId: () => misc.next().toString(),
    markets,
    ...(options.rateLimit !== undefined ? { rateLimiter: new RateLimiter(options.rateLimit, now) } : {}),
  };
  const api = apiHandler(deps);
  const headers = (extra: Record<string, string> = {}) => ({ 'x-ex-apikey': KEY, ...extra });
  /** A request with the key and nothing else. */
  const plain = (method: string, path: string, query = '', extra: Partial<RawRequest> = {}, ip = '10.0.0.1') =>
    api(method, path, { query, body: '', headers: headers(), ...extra }, ip);
  /** A signed request: `timestamp` = server time, signature over query + body. */
  const signed = (method: string, path: string, query = '', body = '', extraHeaders: Record<string, string> = {}) => {
    const q = query === '' ? `timestamp=${now()}` : `${query}&timestamp=${now()}`;
    return api(method, path, { query: `${q}&signature=${hmacHex(SECRET, q + body)}`, body, headers: headers(extraHeaders) }, '10.0.0.1');
  };
  return { api, plain, signed, faults, twoFactor, listenKeys, ended, clock };
}

const rejected = (r: HttpRejection) => ({ status: r.status, body: { code: r.code, msg: r.msg } });
const ORDER = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=29000';

describe('apiHandler', () => {
  it('serves a free route without a key', () => {
    const { api } = setup();
    expect(api('GET', '/api/v1/time', { query: '', body: '', headers: {} }, '')).toEqual({ status: 200, body: { serverTime: T0 } });
    expect(api('GET', '/api/v1/ping', { query: '', body: '', headers: {} }, '').status).toBe(200);
  });

  it('answers 404 for an unknown path and 405 for a known path with another method', () => {
    const { plain } = setup();
    expect(plain('GET', '/api/v1/nothing')).toEqual(rejected(rejections.unknownEndpoint));
    expect(plain('PATCH', '/api/v1/spot/order')).toEqual(rejected(rejections.methodNotAllowed));
  });

  it('verifies a signed route in full before its handler runs', () => {
    const { api, plain, signed } = setup();
    expect(api('POST', '/api/v1/spot/order', { query: ORDER, body: '', headers: {} }, '')).toEqual(rejected(rejections.missingApiKey));
    expect(plain('POST', '/api/v1/spot/order', ORDER)).toEqual(rejected(rejections.missingParameter('signature')));
    expect(plain('POST', '/api/v1/spot/order', `${ORDER}&timestamp=${T0}&signature=00`)).toEqual(rejected(rejections.badSignature));
    expect(plain('GET', '/api/v1/account', '', { headers: { 'x-ex-apikey': 'other' } })).toEqual(rejected(rejections.invalidApiKey));
    const placed = signed('POST', '/api/v1/spot/order', ORDER);
    expect(placed).toMatchObject({ status: 200, body: { orderId: '100', status: 'NEW' } });
  });

  it('routes the order, account and market endpoints to their handlers', () => {
    const { signed, plain } = setup();
    expect(signed('POST', '/openapi/v1/order', '', ORDER)).toMatchObject({ status: 200, body: { orderId: '100' } });
    expect(signed('GET', '/api/v1/spot/order', 'orderId=100')).toMatchObject({ status: 200, body: { orderId: '100' } });
    expect(signed('GET', '/api/v1/spot/openOrders')).toMatchObject({ status: 200, body: [{ orderId: '100' }] });
    expect(signed('DELETE', '/api/v1/spot/order', 'orderId=100')).toMatchObject({ status: 200, body: { status: 'CANCELED' } });
    expect(signed('DELETE', '/api/v1/spot/order', 'orderId=100')).toEqual(rejected(rejections.orderCanceled));
    expect(signed('GET', '/api/v1/spot/order', 'orderId=99')).toEqual(rejected(rejections.unknownOrder));
    expect(signed('DELETE', '/api/v1/spot/openOrders', 'symbol=BTCUSDT')).toEqual({ status: 200, body: { success: true } });
    expect(signed('DELETE', '/api/v1/spot/openOrders')).toEqual(rejected(rejections.symbolRequired));
    expect(signed('POST', '/api/v1/spot/orderTest', ORDER)).toEqual({ status: 200, body: {} });
    expect(signed('POST', '/api/v1/spot/orderTest', 'symbol=BTCUSDT')).toEqual(rejected(rejections.missingParameter('side')));
    expect(signed('GET', '/api/v1/account')).toEqual({
      status: 200,
      body: { balances: [{ asset: 'USDT', assetId: 'USDT', assetName: 'USDT', total: '1000', free: '1000', locked: '0' }], userId: 'acc' },
    });
    expect(signed('GET', '/api/v1/account/trades')).toEqual({ status: 200, body: [] });
    expect(plain('GET', '/api/v1/exchangeInfo')).toMatchObject({ status: 200, body: { serverTime: String(T0) } });
    expect(plain('GET', '/quote/v1/depth', 'symbol=BTCUSDT&limit=1')).toMatchObject({ status: 200, body: { t: T0 } });
    expect(plain('GET', '/quote/v1/trades', 'symbol=XUSDT')).toEqual(rejected(rejections.invalidSymbol));
    expect(plain('GET', '/quote/v1/klines', 'symbol=BTCUSDT')).toEqual(rejected(rejections.missingParameter('interval')));
  });

  it('listen-key calls need the key only, and full verification once they carry a timestamp or signature', () => {
    const { plain, signed, listenKeys, ended } = setup();
    const created = plain('POST', '/api/v1/userDataStream');
    const key = (created.body as { listenKey: string }).listenKey;
    expect(created.status).toBe(200);
    expect(listenKeys.isActive(key)).toBe(true);
    expect(plain('POST', '/api/v1/userDataStream', `timestamp=${T0}`)).toEqual(rejected(rejections.missingParameter('signature')));
    expect(plain('PUT', '/api/v1/userDataStream')).toEqual(rejected(rejections.missingParameter('listenKey')));
    expect(plain('PUT', '/api/v1/userDataStream', 'listenKey=unknown')).toEqual(rejected(rejections.invalidListenKey));
    expect(signed('PUT', '/api/v1/userDataStream', `listenKey=${key}`)).toEqual({ status: 200, body: {} });
    expect(plain('DELETE', '/api/v1/userDataStream', `listenKey=${key}`)).toEqual({ status: 200, body: {} });
    expect(ended).toEqual([`deleted ${key}`]);
    expect(plain('DELETE', '/api/v1/userDataStream', `listenKey=${key}`)).toEqual(rejected(rejections.invalidListenKey));
  });

  it('asks for a single-use 2FA token on the four 2FA endpoints once 2FA is on', () => {
    const { signed, twoFactor } = setup();
    expect(signed('POST', '/api/v1/account/withdraw')).toEqual({ status: 200, body: { success: true, id: '42' } });
    twoFactor.enabled = true;
    for (const [method, path] of [
      ['GET', '/api/v1/whitelist/verify'],
      ['POST', '/api/v1/account/withdraw'],
      ['POST', '/api/v1/account/fiat/withdraw'],
      ['POST', '/api/v1/whitelist/walletSigning'],
    ] as const) {
      expect(signed(method, path)).toEqual(rejected(rejections.twoFactorRequired));
      expect(signed(method, path, '', '', { 'x-two-fa-token': 'guess' })).toEqual(rejected(rejections.twoFactorInvalid));
      expect(signed(method, path, '', '', { 'x-two-fa-token': twoFactor.issue() }).status).toBe(200);
    }
    const token = twoFactor.issue();
    expect(signed('POST', '/api/v1/account/fiat/withdraw', '', '', { 'x-two-fa-token': token })).toEqual({ status: 200, body: { success: true, id: '45' } });
    expect(signed('POST', '/api/v1/account/fiat/withdraw', '', '', { 'x-two-fa-token': token })).toEqual(rejected(rejections.twoFactorInvalid));
    expect(signed('GET', '/api/v1/account').status).toBe(200);
  });

  it('answers an injected rejection before routing, once per queued request', () => {
    const { plain, faults } = setup();
    faults.rejectNext(2, { status: 503, code: -1001, msg: 'down' });
    expect(plain('GET', '/api/v1/nothing')).toEqual({ status: 503, body: { code: -1001, msg: 'down' } });
    expect(plain('GET', '/api/v1/time')).toEqual({ status: 503, body: { code: -1001, msg: 'down' } });
    expect(plain('GET', '/api/v1/time').status).toBe(200);
    expect(faults.counts.rejectedRequests).toBe(2);
  });

  it('applies the rate limit first, with Retry-After, per API key when the key is valid, else per IP', () => {
    const { api, plain, faults } = setup({ rateLimit: { maxRequests: 1, windowMs: 2000 } });
    faults.rejectNext(5);
    // within the limit: the injected rejection answers
    expect(plain('GET', '/api/v1/time', '', {}, '1.1.1.1')).toEqual(rejected({ status: 429, code: -1003, msg: 'Request rejected by fault injection.' }));
    // the same key from another IP: over the limit, and no injected rejection is used up
    expect(plain('GET', '/api/v1/time', '', {}, '2.2.2.2')).toEqual({ ...rejected(rejections.tooManyRequests), headers: { 'Retry-After': '2' } });
    expect(faults.counts.rejectedRequests).toBe(1);
    // without a valid key, each IP is a client
    const anonymous = (ip: string) => api('GET', '/api/v1/time', { query: '', body: '', headers: {} }, ip);
    expect(anonymous('1.1.1.1').body).toEqual({ code: -1003, msg: 'Request rejected by fault injection.' });
    expect(anonymous('1.1.1.1').headers).toEqual({ 'Retry-After': '2' });
    expect(anonymous('3.3.3.3').headers).toBeUndefined();
  });
});
