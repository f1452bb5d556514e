import { firstValueFrom } from 'rxjs';
import {
  DEFAULT_API_KEY_HEADER,
  FORM_CONTENT_TYPE,
  problemOf,
  transport,
  TWO_FA_HEADER,
  validTimeout,
} from '../../lib/rest/transport';
import type { RestClientConfig, RestRequest } from '../../lib/rest/types';
import { ConfigError, RequestTimeoutError } from '../../lib/errors';
import { signatureIsValid } from '../helpers/httpServer';
import { API_KEY, clockAt, replyingServer, SECRET, T } from '../helpers/restFixtures';


const errorOf = (p: Promise<unknown>): Promise<Error> =>
  p.then(
    () => {
      throw new Error('expected an error');
    },
    (e: Error) => e,
  );

const configError = (thunk: () => unknown): ConfigError => {
  try {
    thunk();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
};

describe('validTimeout', () => {
  it('returns a positive finite number of milliseconds', () => {
    expect(validTimeout('x', 1)).toBe(1);
    expect(validTimeout('x', 0.5)).toBe(0.5);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, '10' as unknown as number])('rejects %p with a ConfigError naming the option', (ms) => {
    expect(configError(() => validTimeout('requestTimeoutMs', ms)).option).toBe('requestTimeoutMs');
  });
});

describe('problemOf', () => {
  const base: RestClientConfig = { baseUrl: 'http://127.0.0.1:1', apiKey: API_KEY, twoFactorToken: () => 'otp' };
  const get: RestRequest<unknown> = { method: 'GET', path: '/x' };

  it('finds nothing wrong with a valid request', () => {
    expect(problemOf(base, get, true, true)).toBeUndefined();
    expect(problemOf(base, { ...get, security: 'USER_DATA', timeoutMs: 5, twoFactor: true }, true, true)).toBeUndefined();
  });

  it.each<[string, RestClientConfig, RestRequest<unknown>, boolean, boolean]>([
    ['path', base, { method: 'GET', path: '/x?a=1' }, true, false],
    ['path', base, { method: 'GET', path: '/x#frag' }, true, false],
    ['path', base, { method: 'GET', path: 42 as unknown as string }, true, false],
    ['body', base, { method: 'GET', path: '/x', body: { a: 1 } }, true, false],
    ['apiKey', { baseUrl: 'http://h' }, { method: 'GET', path: '/x', security: 'MARKET_DATA' }, true, false],
    ['secretKey', base, get, false, true],
    ['timeoutMs', base, { method: 'GET', path: '/x', timeoutMs: 0 }, true, false],
    ['twoFactorToken', { baseUrl: 'http://h' }, { method: 'GET', path: '/x', twoFactor: true }, true, false],
  ])('reports %s', (option, config, request, canSign, signed) => {
    const problem = problemOf(config, request, canSign, signed);
    expect(problem).toBeInstanceOf(ConfigError);
    expect(problem!.option).toBe(option);
  });

  it('does not ask for a secret when the call is not signed', () => {
    expect(problemOf(base, get, false, false)).toBeUndefined();
  });
});

describe('transport', () => {
  const http = replyingServer();

  const config = (extra: Partial<RestClientConfig> = {}): RestClientConfig => ({
    baseUrl: `${http.server.baseUrl}/`,
    apiKey: API_KEY,
    secretKey: SECRET,
    scheduler: clockAt(T),
    ...extra,
  });

  it.each<[string, Partial<RestClientConfig>]>([
    ['baseUrl', { baseUrl: '' }],
    ['apiKeyHeader', { apiKeyHeader: '' }],
    ['requestTimeoutMs', { requestTimeoutMs: -5 }],
    ['recvWindow', { recvWindow: 0 }],
  ])('throws a ConfigError for a bad %s when built', (option, extra) => {
    expect(configError(() => transport(config(extra), () => 0)).option).toBe(option);
  });

  it('sends an unsigned call without key, signature or content type; the answer carries its times and secrets', async () => {
    const send = transport(config(), () => 0);
    const answer = await firstValueFrom(send({ method: 'GET', path: 'api/v1/ping', query: { a: 1, b: undefined } }, false));
    expect(answer).toEqual({ status: 200, text: '{"ok":true}', secrets: [SECRET, API_KEY, undefined, undefined], sentAt: T, receivedAt: T });
    const r = http.server.requests[0]!;
    expect(r).toMatchObject({ method: 'GET', path: '/api/v1/ping', rawQuery: 'a=1', rawBody: '' });
    expect(r.headers[DEFAULT_API_KEY_HEADER.toLowerCase()]).toBeUndefined();
    expect(r.headers['content-type']).toBeUndefined();
  });

  it('signs a call with the clock plus the offset, the key in the configured header and a form body', async () => {
    const send = transport(config({ apiKeyHeader: 'X-OPR-APIKEY' }), () => -1000);
    await firstValueFrom(send({ method: 'POST', path: '/o', body: { symbol: 'LTCBTC' }, security: 'TRADE' }, true));
    const r = http.server.requests[0]!;
    expect(r.headers['x-opr-apikey']).toBe(API_KEY);
    expect(r.headers['content-type']).toBe(FORM_CONTENT_TYPE);
    expect(r.rawBody).toMatch(new RegExp(`^symbol=LTCBTC&recvWindow=5000&timestamp=${T - 1000}&signature=[0-9a-f]{64}$`));
    expect(signatureIsValid(SECRET, r)).toBe(true);
  });

  it('lists the signature and every listen key among the secrets of the answer', async () => {
    const send = transport(config(), () => 0);
    const answer = await firstValueFrom(
      send({ method: 'PUT', path: '/api/v1/userDataStream', query: { listenKey: 'LK-QUERY' }, body: { listenKey: 'LK-BODY' }, security: 'USER_STREAM' }, true),
    );
    const signature = /signature=([0-9a-f]{64})/.exec(http.server.requests[0]!.rawQuery + http.server.requests[0]!.rawBody)![1];
    expect(answer.secrets).toEqual([SECRET, API_KEY, signature, undefined, 'LK-QUERY', 'LK-BODY']);
  });

  it('asks for a fresh two-factor token per call (sync or async) and sends it in its header', async () => {
    let n = 0;
    const tokens = [() => 'tok-1', () => Promise.resolve('tok-2')];
    const send = transport(config({ twoFactorToken: () => tokens[n++]!() }), () => 0);
    const request: RestRequest<unknown> = { method: 'POST', path: '/w', body: { a: 1 }, security: 'USER_DATA', twoFactor: true };
    const first = await firstValueFrom(send(request, true));
    await firstValueFrom(send(request, true));
    expect(http.server.requests.map((r) => r.headers[TWO_FA_HEADER.toLowerCase()])).toEqual(['tok-1', 'tok-2']);
    expect(first.secrets).toContain('tok-1');
  });

  it('fails with a ConfigError, sending nothing, when the token provider gives an empty token', async () => {
    const send = transport(config({ twoFactorToken: () => '' }), () => 0);
    const error = await errorOf(firstValueFrom(send({ method: 'POST', path: '/w', twoFactor: true }, false)));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).option).toBe('twoFactorToken');
    expect(http.server.requests).toHaveLength(0);
  });

  it('fails a request that cannot be made before anything is sent', async () => {
    const send = transport(config({ secretKey: undefined }), () => 0);
    const error = await errorOf(firstValueFrom(send({ method: 'GET', path: '/x', security: 'USER_DATA' }, true)));
    expect((error as ConfigError).option).toBe('secretKey');
    expect(http.server.requests).toHaveLength(0);
  });

  it('aborts a call with no answer by its deadline with a RequestTimeoutError', async () => {
    http.reply = () => 'hang';
    // A real-time deadline: the answer never comes, so nothing races it.
    const send = transport(config({ scheduler: undefined }), () => 0);
    const failed = errorOf(firstValueFrom(send({ method: 'GET', path: '/slow', query: { listenKey: 'k' }, timeoutMs: 30 }, false)));
    const request = await http.server.nextRequest();
    const error = await failed;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ method: 'GET', path: '/slow', timeoutMs: 30 });
    await request.closedBeforeAnswer;
  });
});
