import { asyncScheduler, firstValueFrom, lastValueFrom, merge, VirtualTimeScheduler, type SchedulerLike } from 'rxjs';
import { restClient } from '../../lib/rest/restClient';
import type { RestClientConfig } from '../../lib/rest/types';
import { ConfigError, RequestRejectedError } from '../../lib/errors';
import { signatureIsValid, startHttpServer, type RecordedRequest, type Reply, type TestHttpServer } from '../helpers/httpServer';

const SECRET = 'server-clock-spec-secret';
const API_KEY = 'server-clock-spec-api-key';
const LISTEN_KEY = 'L'.repeat(64);
const T = 1_700_000_000_000;

/** A service that checks the time rule of the spec: timestamp < serverTime + 1000 and serverTime - timestamp <= recvWindow. */
let serverNow: () => number;
let timeEndpoint: 'ok' | 'html404';
let always1021: boolean;
let server: TestHttpServer;

const strictService = (r: RecordedRequest): Reply => {
  if (r.path === '/api/v1/time') {
    return timeEndpoint === 'ok'
      ? { status: 200, body: { serverTime: String(serverNow()) } } // as text: the codec takes both
      : { status: 404, body: '<html><body><h1>404 Not Found</h1></body></html>' };
  }
  const params = new URLSearchParams(`${r.rawQuery}&${r.rawBody}`);
  if (params.has('signature')) {
    if (!signatureIsValid(SECRET, r)) return { status: 401, body: { code: -1022, msg: 'Signature for this request is not valid.' } };
    const timestamp = Number(params.get('timestamp'));
    const now = serverNow();
    if (always1021 || timestamp >= now + 1000 || now - timestamp > Number(params.get('recvWindow') ?? 5000)) {
      return { status: 400, body: { code: '-1021', msg: 'Timestamp for this request is outside of the recvWindow.' } };
    }
  }
  return r.path === '/api/v1/userDataStream' ? { status: 200, body: { listenKey: LISTEN_KEY } } : { status: 200, body: { ok: true } };
};

beforeEach(async () => {
  serverNow = () => Date.now();
  timeEndpoint = 'ok';
  always1021 = false;
  server = await startHttpServer((r) => strictService(r));
});
afterEach(() => server.close());

/** The real clock moved by `aheadMs`: the local clock of a machine whose time is wrong. */
const skewedClock = (aheadMs: number): SchedulerLike => ({
  now: () => Date.now() + aheadMs,
  schedule: asyncScheduler.schedule.bind(asyncScheduler) as SchedulerLike['schedule'],
});
const virtualClockAt = (ms: number): VirtualTimeScheduler => {
  const scheduler = new VirtualTimeScheduler();
  scheduler.frame = ms;
  return scheduler;
};
const client = (extra: Partial<RestClientConfig> = {}) =>
  restClient({ baseUrl: server.baseUrl, apiKey: API_KEY, secretKey: SECRET, ...extra });
const account = { method: 'GET', path: '/api/v1/account', security: 'USER_DATA' } as const;
const paths = (): string[] => server.requests.map((r) => r.path);
const timestampOf = (r: RecordedRequest): number => Number(new URLSearchParams(`${r.rawQuery}&${r.rawBody}`).get('timestamp'));

describe('restClient server clock', () => {
  it('with the local clock 2 s ahead, signed calls and listen-key creation succeed without any wiring', async () => {
    // Control: the same service rejects the skewed clock when the offset is pinned to 0.
    const pinned = client({ scheduler: skewedClock(2000), serverTimeOffsetMs: () => 0 });
    await expect(firstValueFrom(pinned.request(account))).rejects.toMatchObject({ name: 'RequestRejectedError', code: '-1021' });
    server.requests.length = 0;

    const rest = client({ scheduler: skewedClock(2000) });
    await expect(firstValueFrom(rest.request(account))).resolves.toEqual({ ok: true });
    await expect(firstValueFrom(rest.createListenKey())).resolves.toBe(LISTEN_KEY);
    expect(paths()).toEqual(['/api/v1/time', '/api/v1/account', '/api/v1/userDataStream']);
    expect(rest.serverTimeOffsetMs()).toBeGreaterThan(-2100);
    expect(rest.serverTimeOffsetMs()).toBeLessThan(-1900);
    // The time call is unsigned and carries no key.
    expect(server.requests[0]!.rawQuery).toBe('');
    expect(server.requests[0]!.headers['x-ex-apikey']).toBeUndefined();
  });

  it('learns the clock once for concurrent signed calls', async () => {
    const rest = client({ scheduler: skewedClock(2000) });
    await lastValueFrom(merge(rest.request(account), rest.request(account), rest.createListenKey()));
    expect(paths().filter((p) => p === '/api/v1/time')).toHaveLength(1);
    expect(server.requests).toHaveLength(4);
  });

  it('after a -1021 (code as text) refreshes the offset and sends the rejected call once more, signed anew', async () => {
    const rest = client({ scheduler: skewedClock(2000) });
    await firstValueFrom(rest.request(account));
    const shift = -3000; // the service's clock moves 3 s back: the learned offset is now wrong
    serverNow = () => Date.now() + shift;
    await expect(firstValueFrom(rest.request({ method: 'POST', path: '/api/v1/spot/order', body: { quantity: '1' }, security: 'TRADE' }))).resolves.toEqual({ ok: true });
    expect(paths()).toEqual(['/api/v1/time', '/api/v1/account', '/api/v1/spot/order', '/api/v1/time', '/api/v1/spot/order']);
    const [first, retry] = server.requests.filter((r) => r.path === '/api/v1/spot/order');
    expect(new URLSearchParams(first!.rawBody).get('signature')).not.toBe(new URLSearchParams(retry!.rawBody).get('signature'));
    expect(rest.serverTimeOffsetMs()).toBeLessThan(-4900);
    expect(rest.serverTimeOffsetMs()).toBeGreaterThan(-5100);
  });

  it('retries a -1021 only once: a service that keeps rejecting gets two calls and the rejection', async () => {
    always1021 = true;
    const rest = client();
    const e = await firstValueFrom(rest.request(account)).catch((error: Error) => error);
    expect(e).toBeInstanceOf(RequestRejectedError);
    expect(e).toMatchObject({ status: 400, code: '-1021' });
    expect(paths()).toEqual(['/api/v1/time', '/api/v1/account', '/api/v1/time', '/api/v1/account']);
  });

  it('signs with offset 0 when the time endpoint answers an HTML 404, and does not ask again before the refresh', async () => {
    timeEndpoint = 'html404';
    const rest = client();
    await expect(firstValueFrom(rest.request(account))).resolves.toEqual({ ok: true });
    await expect(firstValueFrom(rest.request(account))).resolves.toEqual({ ok: true });
    expect(paths()).toEqual(['/api/v1/time', '/api/v1/account', '/api/v1/account']);
    expect(rest.serverTimeOffsetMs()).toBe(0);
  });

  it('refreshes on demand after serverTimeRefreshMs (10 min by default), behind the call that found it old, and leaves no timer running', async () => {
    const scheduler = virtualClockAt(T);
    serverNow = () => scheduler.now() + 500;
    const rest = client({ scheduler });
    await firstValueFrom(rest.request(account));
    expect(rest.serverTimeOffsetMs()).toBe(500);
    expect(timestampOf(server.requests[1]!)).toBe(T + 500);
    scheduler.frame = T + 599_999;
    await firstValueFrom(rest.request(account));
    expect(paths()).toEqual(['/api/v1/time', '/api/v1/account', '/api/v1/account']);
    scheduler.frame = T + 600_000;
    serverNow = () => scheduler.now() - 250;
    // The old estimate signs this call at once (no wait for the clock); the refresh goes out with it.
    await lastValueFrom(rest.request(account));
    expect([...paths()].sort()).toEqual(['/api/v1/account', '/api/v1/account', '/api/v1/account', '/api/v1/time', '/api/v1/time']);
    const third = server.requests.filter((r) => r.path === '/api/v1/account')[2]!;
    expect(timestampOf(third)).toBe(T + 600_000 + 500);
    expect(rest.serverTimeOffsetMs()).toBe(-250);
    await firstValueFrom(rest.request(account));
    expect(timestampOf(server.requests[server.requests.length - 1]!)).toBe(T + 600_000 - 250);
    expect(paths()).toHaveLength(6);
    expect(scheduler.actions).toHaveLength(0);
  });

  it('takes samples from elsewhere (a public pong): a fresh one spares the time call; better round trips win', async () => {
    const scheduler = virtualClockAt(T);
    serverNow = () => T - 1990;
    const rest = client({ scheduler });
    rest.clockSample(-2000, 40);
    expect(rest.serverTimeOffsetMs()).toBe(-2000);
    rest.clockSample(-1500, 80); // worse round trip: ignored
    rest.clockSample(Number.NaN, 1);
    expect(rest.serverTimeOffsetMs()).toBe(-2000);
    rest.clockSample(-1990, 20);
    expect(rest.serverTimeOffsetMs()).toBe(-1990);
    await expect(firstValueFrom(rest.request(account))).resolves.toEqual({ ok: true });
    expect(paths()).toEqual(['/api/v1/account']);
    expect(timestampOf(server.requests[0]!)).toBe(T - 1990);
  });

  it('uses the serverTimeOffsetMs override as it is: no time call, samples ignored', async () => {
    const scheduler = virtualClockAt(T);
    serverNow = () => T - 700;
    const rest = client({ scheduler, serverTimeOffsetMs: () => -700 });
    rest.clockSample(5000, 1);
    expect(rest.serverTimeOffsetMs()).toBe(-700);
    await firstValueFrom(rest.request(account));
    expect(paths()).toEqual(['/api/v1/account']);
    expect(timestampOf(server.requests[0]!)).toBe(T - 700);
  });

  it('reports configuration problems of signed calls before anything is sent, the time call included', async () => {
    const rest = client({ secretKey: undefined });
    await expect(firstValueFrom(rest.createListenKey())).rejects.toBeInstanceOf(ConfigError);
    await expect(firstValueFrom(rest.request(account))).rejects.toBeInstanceOf(ConfigError);
    expect(server.requests).toHaveLength(0);
  });
});
