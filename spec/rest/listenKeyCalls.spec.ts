import { firstValueFrom, lastValueFrom, toArray, VirtualTimeScheduler } from 'rxjs';
import { restClient } from '../../lib/rest/restClient';
import { ConfigError, RequestRejectedError } from '../../lib/errors';
import { signatureIsValid, startHttpServer, type Reply, type RecordedRequest, type TestHttpServer } from '../helpers/httpServer';

const SECRET = 'listen-key-spec-secret';
const API_KEY = 'listen-key-spec-api-key';
const LISTEN_KEY = '1A9LWJjuMwKWYP4QQPw34GRm8gz3x5AephXSuqcDef1RnzoBVhEeGE963CoS1Sgj';
const T = 1700000000123;

let server: TestHttpServer;
let reply: (r: RecordedRequest) => Reply;

beforeEach(async () => {
  reply = () => ({ status: 200, body: {} });
  server = await startHttpServer((r) => reply(r));
});
afterEach(() => server.close());

const client = () => {
  const scheduler = new VirtualTimeScheduler();
  scheduler.frame = T;
  return restClient({ baseUrl: `${server.baseUrl}/`, apiKey: API_KEY, secretKey: SECRET, scheduler, serverTimeOffsetMs: () => 0 });
};

const expectSignedCall = (r: RecordedRequest, method: string, query: RegExp): void => {
  expect(r).toMatchObject({ method, path: '/api/v1/userDataStream', rawBody: '' });
  expect(r.headers['x-ex-apikey']).toBe(API_KEY);
  expect(r.rawQuery).toMatch(query);
  expect(signatureIsValid(SECRET, r)).toBe(true);
};

describe('restClient listen keys', () => {
  describe('createListenKey', () => {
    it('POSTs a signed request with a timestamp and emits the listen key', async () => {
      reply = () => ({ status: 200, body: { listenKey: LISTEN_KEY } });
      await expect(lastValueFrom(client().createListenKey().pipe(toArray()))).resolves.toEqual([LISTEN_KEY]);
      expectSignedCall(server.requests[0]!, 'POST', new RegExp(`^recvWindow=5000&timestamp=${T}&signature=[0-9a-f]{64}$`));
    });

    it('rejects a response without listenKey', async () => {
      reply = () => ({ status: 200, body: { something: 'else' } });
      await expect(firstValueFrom(client().createListenKey())).rejects.toEqual(
        new RequestRejectedError(200, undefined, 'response has no listenKey'),
      );
      const e = await firstValueFrom(client().createListenKey()).catch((x: unknown) => x);
      expect(e).toMatchObject({ status: 200, code: undefined, msg: 'response has no listenKey' });
    });

    it('maps a rejection with its error body', async () => {
      reply = () => ({ status: 401, body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' } });
      await expect(firstValueFrom(client().createListenKey())).rejects.toMatchObject({
        name: 'RequestRejectedError', status: 401, code: -2015,
      });
    });
  });

  describe('extendListenKey', () => {
    it('PUTs the key in the signed query string and emits once on HTTP 200', async () => {
      await expect(lastValueFrom(client().extendListenKey(LISTEN_KEY).pipe(toArray()))).resolves.toEqual([undefined]);
      expectSignedCall(server.requests[0]!, 'PUT', new RegExp(`^listenKey=${LISTEN_KEY}&recvWindow=5000&timestamp=${T}&signature=[0-9a-f]{64}$`));
    });

    it('fails on any other status, even 2xx, without showing the key', async () => {
      reply = () => ({ status: 204 });
      const e = await firstValueFrom(client().extendListenKey(LISTEN_KEY)).catch((x: Error) => x);
      expect(e).toMatchObject({ name: 'RequestRejectedError', status: 204 });
      reply = (r) => ({ status: 400, body: { code: -1125, msg: `This listenKey does not exist: ${new URLSearchParams(r.rawQuery).get('listenKey')}` } });
      const echoed = (await firstValueFrom(client().extendListenKey(LISTEN_KEY)).catch((x: Error) => x)) as Error;
      expect(echoed).toMatchObject({ status: 400, code: -1125, msg: 'This listenKey does not exist: ***' });
      expect(`${String(echoed)} ${JSON.stringify(echoed)} ${echoed.stack}`).not.toContain(LISTEN_KEY);
    });

    it('refuses an empty key with a ConfigError before sending', async () => {
      await expect(firstValueFrom(client().extendListenKey(''))).rejects.toBeInstanceOf(ConfigError);
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('closeListenKey', () => {
    it('DELETEs the key in the signed query string', async () => {
      await expect(lastValueFrom(client().closeListenKey(LISTEN_KEY).pipe(toArray()))).resolves.toEqual([undefined]);
      expectSignedCall(server.requests[0]!, 'DELETE', new RegExp(`^listenKey=${LISTEN_KEY}&recvWindow=5000&timestamp=${T}&signature=[0-9a-f]{64}$`));
    });

    it('fails on a rejection', async () => {
      reply = () => ({ status: 404, body: { code: '-1125', desc: 'unknown key' } });
      await expect(firstValueFrom(client().closeListenKey(LISTEN_KEY))).rejects.toMatchObject({ status: 404, code: '-1125', msg: 'unknown key' });
    });
  });
});
