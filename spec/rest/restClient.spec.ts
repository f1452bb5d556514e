import { firstValueFrom, lastValueFrom } from 'rxjs';
import * as t from 'io-ts';
import { restClient } from '../../lib/rest/restClient';
import type { RestClientConfig } from '../../lib/rest/types';
import { ConfigError, DecodeError, RateLimitedError, RequestFailedError, RequestRejectedError, RequestTimeoutError } from '../../lib/errors';
import { signatureIsValid, startHttpServer, type Reply, type RecordedRequest } from '../helpers/httpServer';
import { API_KEY, clockAt, replyingServer, SECRET, T } from '../helpers/restFixtures';


const http = replyingServer();

// A fixed clock offset keeps these requests to one per call (the learned clock is tested in serverClock.spec.ts).
const client = (extra: Partial<RestClientConfig> = {}) =>
  restClient({ baseUrl: http.server.baseUrl, apiKey: API_KEY, secretKey: SECRET, scheduler: clockAt(T), serverTimeOffsetMs: () => 0, ...extra });

const errorOf = (p: Promise<unknown>): Promise<Error> => p.then(
  () => { throw new Error('expected an error'); },
  (e: Error) => e,
);

describe('restClient', () => {
  describe('request', () => {
    it('sends a NONE request without key or signature and emits the JSON body', async () => {
      await expect(firstValueFrom(client().request({ method: 'GET', path: '/api/v1/time', query: { a: '1' } }))).resolves.toEqual({ ok: true });
      const [r] = http.server.requests;
      expect(r).toMatchObject({ method: 'GET', path: '/api/v1/time', rawQuery: 'a=1', rawBody: '' });
      expect(r!.headers['x-ex-apikey']).toBeUndefined();
      expect(r!.headers['content-type']).toBeUndefined();
    });

    it.each(['USER_STREAM', 'MARKET_DATA'] as const)('sends the key header but no signature for %s', async (security) => {
      await firstValueFrom(client().request({ method: 'GET', path: '/x', query: { symbol: 'LTCBTC' }, security }));
      expect(http.server.requests[0]!.headers['x-ex-apikey']).toBe(API_KEY);
      expect(http.server.requests[0]!.rawQuery).toBe('symbol=LTCBTC');
    });

    it('signs a TRADE body: key header, form content type, verifiable signature, timestamp and recvWindow', async () => {
      const body = { symbol: 'LTCBTC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '0.1' };
      await firstValueFrom(client().request({ method: 'POST', path: '/api/v1/spot/order', body, security: 'TRADE' }));
      const r = http.server.requests[0]!;
      expect(r.headers['x-ex-apikey']).toBe(API_KEY);
      expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
      expect(r.rawQuery).toBe('');
      expect(r.rawBody).toBe(
        'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559' +
          '&signature=c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71',
      );
      expect(signatureIsValid(SECRET, r)).toBe(true);
      expect(signatureIsValid('another-secret', r)).toBe(false);
    });

    it('signs a USER_DATA query with a custom key header, recvWindow and server-time offset', async () => {
      const rest = client({ apiKeyHeader: 'X-OPR-APIKEY', recvWindow: 2500, serverTimeOffsetMs: () => -1234 });
      await firstValueFrom(rest.request({ method: 'GET', path: '/api/v1/account', query: { asset: 'BTC' }, security: 'USER_DATA' }));
      const r = http.server.requests[0]!;
      expect(r.headers['x-opr-apikey']).toBe(API_KEY);
      expect(r.headers['x-ex-apikey']).toBeUndefined();
      expect(r.rawQuery).toMatch(new RegExp(`^asset=BTC&recvWindow=2500&timestamp=${T - 1234}&signature=[0-9a-f]{64}$`));
      expect(signatureIsValid(SECRET, r)).toBe(true);
    });

    it('signs a split query + body, special and non-ASCII values arriving intact', async () => {
      const query = { symbol: 'LTCBTC', note: 'a b&c=d+e%f' };
      const body = [['name', 'é 日本 💹'], ['price', '0.1']] as const;
      await firstValueFrom(client().request({ method: 'POST', path: '/o', query, body, security: 'TRADE' }));
      const r = http.server.requests[0]!;
      expect(signatureIsValid(SECRET, r)).toBe(true);
      expect(Object.fromEntries(new URLSearchParams(r.rawQuery))).toEqual(query);
      const received = [...new URLSearchParams(r.rawBody)];
      expect(received.slice(0, 2)).toEqual(body);
      expect(received.map(([n]) => n)).toEqual(['name', 'price', 'recvWindow', 'timestamp', 'signature']);
    });

    it('signs with a custom sign function', async () => {
      const messages: string[] = [];
      await firstValueFrom(client({ secretKey: undefined, sign: (m) => (messages.push(m), 'cafe') }).request({ method: 'DELETE', path: '/o', query: { id: '1' }, security: 'TRADE' }));
      expect(messages).toEqual(['id=1&recvWindow=5000&timestamp=1499827319559']);
      expect(http.server.requests[0]!.rawQuery).toBe('id=1&recvWindow=5000&timestamp=1499827319559&signature=cafe');
    });

    it('is cold: nothing is sent before subscribing, one call per subscription', async () => {
      const once = client().request({ method: 'GET', path: '/x' });
      expect(http.server.requests).toHaveLength(0);
      await lastValueFrom(once);
      await lastValueFrom(once);
      expect(http.server.requests).toHaveLength(2);
    });

    it('decodes with a codec, and maps a codec or JSON failure to a DecodeError', async () => {
      const Ok = t.type({ ok: t.boolean }, 'Ok');
      await expect(firstValueFrom(client().request({ method: 'GET', path: '/x', codec: Ok }))).resolves.toEqual({ ok: true });
      const bad = await errorOf(firstValueFrom(client().request({ method: 'GET', path: '/x', codec: t.type({ ok: t.string }, 'Bad') })));
      expect(bad).toBeInstanceOf(DecodeError);
      expect((bad as DecodeError).kind).toBe('codec');
      http.reply = () => ({ status: 200, body: 'not json' });
      const json = await errorOf(firstValueFrom(client().request({ method: 'GET', path: '/x' })));
      expect(json).toMatchObject({ name: 'DecodeError', kind: 'json', raw: 'not json' });
      http.reply = () => ({ status: 200 });
      await expect(firstValueFrom(client().request({ method: 'PUT', path: '/x' }))).resolves.toBeUndefined();
    });

    it('keeps 64-bit ids of a JSON answer exact', async () => {
      http.reply = () => ({ status: 200, body: '{"orderId":1291488620385157122,"price":"0.1"}' });
      await expect(firstValueFrom(client().request({ method: 'GET', path: '/x' }))).resolves.toEqual({
        orderId: '1291488620385157122',
        price: '0.1',
      });
    });

    it('aborts the HTTP call on unsubscribe; the server sees the request closed', async () => {
      http.reply = () => 'hang';
      const subscription = client().request({ method: 'GET', path: '/slow' }).subscribe({
        error: () => { throw new Error('no error expected after unsubscribe'); },
      });
      const r = await http.server.nextRequest();
      subscription.unsubscribe();
      await r.closedBeforeAnswer;
    });
  });

  describe('deadline', () => {
    it('aborts a call the server never answers after requestTimeoutMs and fails it with a RequestTimeoutError', async () => {
      http.reply = () => 'hang';
      const scheduler = clockAt(T);
      const result = errorOf(firstValueFrom(client({ scheduler, requestTimeoutMs: 2500 })
        .request({ method: 'POST', path: '/api/v1/spot/order', query: { symbol: 'BTCUSDT' }, body: { quantity: '1' }, security: 'TRADE' })));
      const r = await http.server.nextRequest();
      scheduler.flush();
      const e = await result;
      expect(e).toBeInstanceOf(RequestTimeoutError);
      expect(e).toBeInstanceOf(RequestFailedError);
      expect(e).toMatchObject({ name: 'RequestTimeoutError', method: 'POST', path: '/api/v1/spot/order', timeoutMs: 2500 });
      expect(e.message).toBe('POST /api/v1/spot/order failed: no answer within 2500 ms (timed out)');
      expect(scheduler.now()).toBe(T + 2500);
      await r.closedBeforeAnswer;
    });

    it('has a 10 s default, overridable per request', async () => {
      http.reply = () => 'hang';
      const scheduler = clockAt(T);
      const rest = client({ scheduler });
      const byDefault = errorOf(firstValueFrom(rest.request({ method: 'GET', path: '/a' })));
      const short = errorOf(firstValueFrom(rest.request({ method: 'GET', path: '/b', timeoutMs: 300 })));
      await http.server.nextRequest();
      await http.server.nextRequest();
      scheduler.flush();
      await expect(byDefault).resolves.toMatchObject({ name: 'RequestTimeoutError', path: '/a', timeoutMs: 10_000 });
      await expect(short).resolves.toMatchObject({ name: 'RequestTimeoutError', path: '/b', timeoutMs: 300 });
    });

    it('does not fire once the answer is in', async () => {
      const scheduler = clockAt(T);
      await expect(firstValueFrom(client({ scheduler, requestTimeoutMs: 1 }).request({ method: 'GET', path: '/x' }))).resolves.toEqual({ ok: true });
      expect(scheduler.actions).toHaveLength(0);
    });

    it('rejects a deadline that cannot work', async () => {
      expect(() => client({ requestTimeoutMs: 0 })).toThrow(/^requestTimeoutMs must be a positive number/);
      expect(() => client({ requestTimeoutMs: Number.NaN })).toThrow(ConfigError);
      await expect(firstValueFrom(client().request({ method: 'GET', path: '/x', timeoutMs: -1 }))).rejects.toMatchObject({ name: 'ConfigError', option: 'timeoutMs' });
      expect(http.server.requests).toHaveLength(0);
    });
  });

  describe('two-factor token', () => {
    it('sends a fresh token per request with twoFactor: true, and none otherwise', async () => {
      let calls = 0;
      const rest = client({ twoFactorToken: () => `token-${++calls}` });
      const withdraw = rest.request({ method: 'POST', path: '/account/withdraw', body: { amount: '1' }, security: 'USER_DATA', twoFactor: true });
      await lastValueFrom(withdraw);
      await lastValueFrom(withdraw);
      await lastValueFrom(rest.request({ method: 'GET', path: '/account', security: 'USER_DATA' }));
      expect(http.server.requests.map((r) => r.headers['x-two-fa-token'])).toEqual(['token-1', 'token-2', undefined]);
      expect(calls).toBe(2);
      expect(http.server.requests.every((r) => signatureIsValid(SECRET, r))).toBe(true);
    });

    it('reads the timestamp after the token arrives (a person may take a while to type it)', async () => {
      const scheduler = clockAt(T);
      const twoFactorToken = async (): Promise<string> => {
        scheduler.frame = T + 7000;
        return '424242';
      };
      await firstValueFrom(client({ scheduler, twoFactorToken }).request({ method: 'POST', path: '/account/fiat/withdraw', body: {}, security: 'USER_DATA', twoFactor: true }));
      expect(http.server.requests[0]!.rawBody).toContain(`timestamp=${T + 7000}&`);
    });

    it('accepts an async token provider', async () => {
      await firstValueFrom(client({ twoFactorToken: async () => '123456' }).request({ method: 'GET', path: '/whitelist/verify', security: 'USER_DATA', twoFactor: true }));
      expect(http.server.requests[0]!.headers['x-two-fa-token']).toBe('123456');
    });
  });

  describe('configuration errors, before any fetch', () => {
    let fetchCalls = 0;
    const countingFetch: typeof fetch = (input, init) => (fetchCalls++, fetch(input, init));
    beforeEach(() => (fetchCalls = 0));

    it.each([0, -5, 1.5])('throws a ConfigError for recvWindow %p', (recvWindow) => {
      expect(() => client({ recvWindow, fetch: countingFetch })).toThrow(ConfigError);
      expect(() => client({ recvWindow })).toThrow(/^recvWindow must be a positive integer/);
    });

    it('errors with a ConfigError for a signed request without secret', async () => {
      const rest = client({ secretKey: undefined, fetch: countingFetch });
      const e = await errorOf(firstValueFrom(rest.request({ method: 'POST', path: '/o', body: {}, security: 'TRADE' })));
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).option).toBe('secretKey');
      await expect(firstValueFrom(rest.createListenKey())).rejects.toBeInstanceOf(ConfigError);
      await expect(firstValueFrom(rest.request({ method: 'GET', path: '/public' }))).resolves.toEqual({ ok: true });
      expect(fetchCalls).toBe(1);
      expect(() => client({ secretKey: '' })).toThrow('secretKey must be a non-empty string');
    });

    it('errors with a ConfigError for 2FA without provider, a GET body, a path with a query, or no apiKey', async () => {
      const rest = client({ fetch: countingFetch });
      const cases = [
        rest.request({ method: 'POST', path: '/account/withdraw', body: {}, security: 'USER_DATA', twoFactor: true }),
        rest.request({ method: 'GET', path: '/x', body: { a: '1' } }),
        rest.request({ method: 'GET', path: '/x?a=1' }),
        client({ apiKey: undefined, fetch: countingFetch }).request({ method: 'GET', path: '/x', security: 'MARKET_DATA' }),
      ];
      for (const call of cases) await expect(firstValueFrom(call)).rejects.toBeInstanceOf(ConfigError);
      expect(fetchCalls).toBe(0);
    });
  });

  describe('rejections and failures', () => {
    it('maps an error body with a numeric code and msg', async () => {
      http.reply = () => ({ status: 400, body: { code: -1022, msg: 'Signature for this request is not valid.' } });
      const e = await errorOf(firstValueFrom(client().request({ method: 'GET', path: '/x' })));
      expect(e).toBeInstanceOf(RequestRejectedError);
      expect(e).toMatchObject({ status: 400, code: -1022, msg: 'Signature for this request is not valid.' });
    });

    it('maps an error body with a code as text and desc', async () => {
      http.reply = () => ({ status: 404, body: { code: '-100010', desc: 'Invalid Symbols!' } });
      const e = await errorOf(firstValueFrom(client().request({ method: 'GET', path: '/x' })));
      expect(e).toMatchObject({ name: 'RequestRejectedError', status: 404, code: '-100010', msg: 'Invalid Symbols!' });
    });

    it('maps a non-JSON rejection to its status and an excerpt of the text', async () => {
      http.reply = () => ({ status: 502, body: 'Bad Gateway' });
      const e = await errorOf(firstValueFrom(client().request({ method: 'GET', path: '/x' })));
      expect(e).toMatchObject({ status: 502, code: undefined, msg: 'Bad Gateway' });
    });

    it.each([
      [{ code: '-1021', msg: 'Timestamp outside recvWindow' }, '-1021', 'Timestamp outside recvWindow'],
      [{ code: '0001', desc: 'Invalid parameter' }, '0001', 'Invalid parameter'],
      [{ code: -1021, desc: 'late', msg: 'Timestamp outside recvWindow' }, -1021, 'Timestamp outside recvWindow'],
      [{ code: 0 }, 0, undefined],
    ])('keeps the error code as sent (text or number) and msg or desc: %j', async (body, code, msg) => {
      http.reply = () => ({ status: 400, body });
      const e = await errorOf(firstValueFrom(client().request({ method: 'GET', path: '/x' })));
      expect(e).toMatchObject({ name: 'RequestRejectedError', status: 400, code, msg });
    });

    it('turns an HTML 404 labelled as JSON into a short excerpt of its words, and an empty body into no msg', async () => {
      const page = `<!DOCTYPE html><html><head><title>404 Not Found</title><style>body{color:red}</style></head>` +
        `<body><h1>Not Found</h1><p>The requested URL was not found on this server.</p>${'<p>filler</p>'.repeat(500)}</body></html>`;
      http.reply = () => ({ status: 404, body: page });
      const e = await errorOf(firstValueFrom(client().request({ method: 'GET', path: '/api/v1/nope' })));
      expect(e).toBeInstanceOf(RequestRejectedError);
      const { msg } = e as RequestRejectedError;
      expect(msg).toMatch(/^404 Not Found Not Found The requested URL was not found on this server\. filler/);
      expect(msg!.length).toBeLessThanOrEqual(121);
      expect(msg).not.toMatch(/[<>]|color/);
      http.reply = () => ({ status: 503 });
      await expect(errorOf(firstValueFrom(client().request({ method: 'GET', path: '/x' })))).resolves.toMatchObject({ status: 503, code: undefined, msg: undefined });
    });

    it('fails 429 with a RateLimitedError whose retryAfterMs comes from Retry-After in seconds', async () => {
      http.reply = () => ({ status: 429, body: { code: -1003, msg: 'Too many requests' }, headers: { 'Retry-After': '30' } });
      const e = await errorOf(firstValueFrom(client().request({ method: 'GET', path: '/x' })));
      expect(e).toBeInstanceOf(RateLimitedError);
      expect(e).toBeInstanceOf(RequestRejectedError);
      expect(e).toMatchObject({ name: 'RateLimitedError', status: 429, code: -1003, msg: 'Too many requests', retryAfterMs: 30_000 });
    });

    it('reads an HTTP-date Retry-After against the scheduler clock', async () => {
      http.reply = () => ({ status: 429, headers: { 'Retry-After': new Date(T + 45_500).toUTCString() } });
      const e = await errorOf(firstValueFrom(client().request({ method: 'GET', path: '/x' })));
      // The date has whole seconds: T + 45.5 s is cut to T + 45 s (T ends in .559 s).
      expect(e).toMatchObject({ name: 'RateLimitedError', retryAfterMs: Math.floor((T + 45_500) / 1000) * 1000 - T });
    });

    it.each([
      [429, undefined, 60_000], // HashKey: "Please wait 1 minute",
      [418, undefined, 120_000],
      [418, 'soon', 120_000],
      [418, '600', 600_000],
    ])('waits long without a usable Retry-After: HTTP %p, header %p → %p ms', async (status, header, wait) => {
      http.reply = () => ({ status, body: '<html>banned</html>', ...(header === undefined ? {} : { headers: { 'Retry-After': header } }) });
      const e = await errorOf(firstValueFrom(client().request({ method: 'GET', path: '/x' })));
      expect(e).toMatchObject({ name: 'RateLimitedError', status, retryAfterMs: wait, msg: 'banned' });
    });

    it('maps a network failure to a RequestFailedError without the query string', async () => {
      const closed = await startHttpServer();
      await closed.close();
      const rest = restClient({ baseUrl: closed.baseUrl, apiKey: API_KEY, secretKey: SECRET });
      const e = await errorOf(firstValueFrom(rest.request({ method: 'DELETE', path: '/api/v1/order', query: { orderId: '7' }, security: 'TRADE' })));
      expect(e).toBeInstanceOf(RequestFailedError);
      expect(e).toMatchObject({ method: 'DELETE', path: '/api/v1/order' });
      // node:http's words on Node (the default fetch there); undici's `fetch failed (…)` with the global fetch.
      expect(e.message).toMatch(/^DELETE \/api\/v1\/order failed: (?:fetch failed \()?connect ECONNREFUSED 127\.0\.0\.1:\d+\)?$/);
      expect(e.message).not.toContain('orderId');
      expect(e.message).not.toContain('signature');
    });

    it('never shows the secret, signature, 2FA token or listen key, even when the service echoes them', async () => {
      const LISTEN_KEY = 'lk-8b4e0c7e3a5f4c8d9e1f2a3b4c5d6e7f';
      const TOKEN = '987654';
      const echo = (r: RecordedRequest) => `${r.rawQuery} ${r.rawBody} ${r.headers['x-two-fa-token']} ${SECRET}`;
      const bodies: Array<(r: RecordedRequest) => Reply> = [
        (r) => ({ status: 400, body: { code: -1, msg: echo(r) } }),
        (r) => ({ status: 400, body: { code: echo(r), desc: echo(r) } }),
        (r) => ({ status: 500, body: echo(r) }),
        (r) => ({ status: 200, body: { ok: echo(r) } }),
        (r) => ({ status: 200, body: `{ "broken": ${JSON.stringify(echo(r))}` }),
      ];
      const rest = client({ twoFactorToken: () => TOKEN });
      const signatures: string[] = [];
      for (const body of bodies) {
        http.reply = (r) => {
          signatures.push(new URLSearchParams(r.rawBody).get('signature')!);
          return body(r);
        };
        const e = await errorOf(
          firstValueFrom(
            rest.request({
              method: 'POST', path: '/account/withdraw', query: { listenKey: LISTEN_KEY }, body: { amount: '1' },
              security: 'USER_DATA', twoFactor: true, codec: t.type({ ok: t.number }, 'Ok'),
            }),
          ),
        );
        const shown = [e.message, String(e), JSON.stringify(e), e.stack ?? ''].join('\n');
        for (const secret of [SECRET, signatures[signatures.length - 1]!, TOKEN, LISTEN_KEY]) expect(shown).not.toContain(secret);
        expect(shown).toContain('***');
      }
    });
  });
});
