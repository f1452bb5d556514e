import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { fetchText, type FetchCall } from '../../lib/rest/fetchText';
import { ConfigError, RequestFailedError } from '../../lib/errors';
import { startHttpServer } from '../helpers/httpServer';
import { replyingServer } from '../helpers/restFixtures';

const SECRET = 'super-secret-value';

const http = replyingServer();

const call = (extra: Partial<FetchCall> = {}): FetchCall => ({
  method: 'GET',
  url: `${http.server.baseUrl}/api/v1/thing?a=1`,
  path: '/api/v1/thing',
  headers: {},
  body: undefined,
  secrets: [SECRET],
  ...extra,
});

const errorOf = (p: Promise<unknown>): Promise<Error> =>
  p.then(
    () => {
      throw new Error('expected an error');
    },
    (e: Error) => e,
  );

describe('fetchText', () => {
  it('emits the status and the body text once, then completes', async () => {
    http.reply = () => ({ status: 201, body: '{"raw": 12345678901234567890}' });
    await expect(lastValueFrom(fetchText(undefined, call()).pipe(toArray()))).resolves.toEqual([
      { status: 201, text: '{"raw": 12345678901234567890}' },
    ]);
  });

  it('sends the method, the URL with its query, the headers and the body as given', async () => {
    const sent = call({ method: 'POST', headers: { 'X-Test': 'yes', 'Content-Type': 'text/plain' }, body: 'a=1&b=é' });
    await firstValueFrom(fetchText(undefined, sent));
    const r = http.server.requests[0]!;
    expect(r).toMatchObject({ method: 'POST', path: '/api/v1/thing', rawQuery: 'a=1', rawBody: 'a=1&b=é' });
    expect(r.headers['x-test']).toBe('yes');
    expect(r.headers['content-type']).toBe('text/plain');
  });

  it('keeps a non-2xx answer as an answer (status and text), not an error', async () => {
    http.reply = () => ({ status: 400, body: { code: -1100, msg: 'bad' } });
    await expect(firstValueFrom(fetchText(undefined, call()))).resolves.toEqual({ status: 400, text: '{"code":-1100,"msg":"bad"}' });
  });

  it('reports the Retry-After header when the answer has one', async () => {
    http.reply = () => ({ status: 429, body: {}, headers: { 'Retry-After': '7' } });
    await expect(firstValueFrom(fetchText(undefined, call()))).resolves.toEqual({ status: 429, text: '{}', retryAfter: '7' });
  });

  it('uses the injected fetch instead of the global one', async () => {
    const urls: string[] = [];
    const injected: typeof fetch = (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    };
    await firstValueFrom(fetchText(injected, call()));
    expect(urls).toEqual([`${http.server.baseUrl}/api/v1/thing?a=1`]);
  });

  it('fails with a ConfigError when there is no fetch function', async () => {
    const error = await errorOf(firstValueFrom(fetchText('no fetch' as unknown as typeof fetch, call())));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).option).toBe('fetch');
    expect(http.server.requests).toHaveLength(0);
  });

  it('turns a refused connection into a RequestFailedError with the path (no query) and the cause', async () => {
    const closed = await startHttpServer();
    const url = `${closed.baseUrl}/api/v1/thing?signature=abc`;
    await closed.close();
    const error = await errorOf(firstValueFrom(fetchText(undefined, call({ url }))));
    expect(error).toBeInstanceOf(RequestFailedError);
    expect(error).toMatchObject({ method: 'GET', path: '/api/v1/thing' });
    expect((error as RequestFailedError).reason).toMatch(/ECONNREFUSED/);
    expect(error.message).not.toContain('signature');
  });

  it('redacts the literal secrets from the reason, whether fetch rejects or throws', async () => {
    const rejecting: typeof fetch = () => Promise.reject(Object.assign(new Error(`cannot reach ${SECRET}`), { cause: new Error(`inner ${SECRET}`) }));
    const rejected = await errorOf(firstValueFrom(fetchText(rejecting, call())));
    expect(rejected).toBeInstanceOf(RequestFailedError);
    expect((rejected as RequestFailedError).reason).toBe('cannot reach *** (inner ***)');

    const throwing: typeof fetch = () => {
      throw new TypeError(`invalid URL ${SECRET}`);
    };
    const thrown = await errorOf(firstValueFrom(fetchText(throwing, call())));
    expect(thrown).toBeInstanceOf(RequestFailedError);
    expect((thrown as RequestFailedError).reason).toBe('invalid URL ***');
  });

  it('describes a rejection that is not an Error by its text', async () => {
    const rejecting: typeof fetch = () => Promise.reject('offline');
    const error = await errorOf(firstValueFrom(fetchText(rejecting, call())));
    expect((error as RequestFailedError).reason).toBe('offline');
  });

  it('aborts the request when unsubscribed before the answer, and emits nothing after', async () => {
    http.reply = () => 'hang';
    const seen: string[] = [];
    const subscription = fetchText(undefined, call()).subscribe({
      next: () => seen.push('next'),
      error: () => seen.push('error'),
      complete: () => seen.push('complete'),
    });
    const request = await http.server.nextRequest();
    subscription.unsubscribe();
    await request.closedBeforeAnswer;
    expect(seen).toEqual([]);
  });

  it('is cold: each subscription makes its own call', async () => {
    const once = fetchText(undefined, call());
    expect(http.server.requests).toHaveLength(0);
    await firstValueFrom(once);
    await firstValueFrom(once);
    expect(http.server.requests).toHaveLength(2);
  });
});
