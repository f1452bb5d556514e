import { firstValueFrom, NEVER, of, type Subscription } from 'rxjs';
import { hashkey } from '../../lib/venue/hashkeyVenues';
import type { VenuePreset } from '../../lib/venue/venuePreset';
import { restClient } from '../../lib/rest/restClient';
import { marketStreams } from '../../lib/market/marketStreams';
import { userStream } from '../../lib/user/userStream';
import { ConfigError } from '../../lib/errors';
import type { WebSocketLike } from '../../lib/socket/webSocketLike';
import { startHttpServer, type RecordedRequest, type Reply, type TestHttpServer } from '../helpers/httpServer';
import { until } from '../helpers/until';

const SECRET = 'venue-spec-secret';
const API_KEY = 'venue-spec-key';

/** A socket that records its address and never opens. */
const recordingSocket = (urls: string[]) =>
  class implements Partial<WebSocketLike> {
    readonly readyState = 0;
    binaryType = 'arraybuffer';
    onopen = null;
    onclose = null;
    onerror = null;
    onmessage = null;
    constructor(url: string) {
      urls.push(url);
    }
    send(): void {}
    close(): void {}
  };

describe('hashkey venue presets', () => {
  it('are plain frozen data per deployment (HashKey "Get Started" pages; docs/hashkey.md)', () => {
    expect(hashkey.hk.production).toEqual({
      name: 'HashKey Exchange (HK) production',
      restUrl: 'https://api-pro.hashkey.com',
      publicStreamUrl: 'wss://stream-pro.hashkey.com/quote/ws/v1',
      privateStreamUrl: 'wss://stream-pro.hashkey.com/api/v1/ws',
      apiKeyHeader: 'X-HK-APIKEY',
      rateLimit: { queriesPerSecond: 2, ordersPerSecond: 10 },
    });
    expect(hashkey.hk.sandbox.restUrl).toBe('https://api-pro.sim.hashkeydev.com');
    expect(hashkey.global.production).toMatchObject({ restUrl: 'https://api-glb.hashkey.com', publicStreamUrl: 'wss://stream-glb.hashkey.com/quote/ws/v1', apiKeyHeader: 'X-HK-APIKEY' });
    expect(hashkey.global.sandbox.restUrl).toBe('https://api-glb.sim.hashkeydev.com');
    expect(hashkey.mena.production).toMatchObject({
      restUrl: 'https://api-pro.hashkey.com',
      privateStreamUrl: 'wss://stream-pro.hashkey.com/api/v1/ws',
      apiKeyHeader: 'X-APIKEY',
      maxRecvWindowMs: 8000,
      rateLimit: { queriesPerSecond: 5, ordersPerSecond: 20 },
      site: 'MENA',
    });
    expect(Object.isFrozen(hashkey) && Object.isFrozen(hashkey.mena) && Object.isFrozen(hashkey.mena.sandbox)).toBe(true);
  });

  describe('restClient({ venue }) on the wire (own HTTP server)', () => {
    let server: TestHttpServer;
    let reply: (r: RecordedRequest) => Reply;
    const at = (venue: VenuePreset): VenuePreset => ({ ...venue, restUrl: server.baseUrl });
    beforeEach(async () => {
      reply = () => ({ status: 200, body: { balances: [] } });
      server = await startHttpServer((r) => reply(r));
    });
    afterEach(() => server.close());

    it.each([
      ['hk', hashkey.hk.production, 'x-hk-apikey'],
      ['global', hashkey.global.sandbox, 'x-hk-apikey'],
      ['mena', hashkey.mena.production, 'x-apikey'],
    ] as const)('%s: the key goes in its header, nowhere else', async (_, venue, header) => {
      await firstValueFrom(restClient({ venue: at(venue), apiKey: API_KEY, secretKey: SECRET, serverTimeOffsetMs: () => 0, rateLimit: {} }).account());
      const r = server.requests[0]!;
      expect(r.headers[header]).toBe(API_KEY);
      expect(Object.entries(r.headers).filter(([, v]) => v === API_KEY).map(([k]) => k)).toEqual([header]);
      expect(r.rawQuery).not.toContain(API_KEY);
    });

    it("the spec's masked header stays the default without a venue; apiKeyHeader overrides the venue's", async () => {
      await firstValueFrom(restClient({ baseUrl: server.baseUrl, apiKey: API_KEY, secretKey: SECRET, serverTimeOffsetMs: () => 0 }).account());
      await firstValueFrom(restClient({ venue: at(hashkey.mena.production), apiKeyHeader: 'X-OTHER', apiKey: API_KEY, secretKey: SECRET, serverTimeOffsetMs: () => 0 }).account());
      expect(server.requests[0]!.headers['x-ex-apikey']).toBe(API_KEY);
      expect(server.requests[1]!.headers['x-other']).toBe(API_KEY);
      expect(() => restClient({ apiKey: API_KEY, secretKey: SECRET })).toThrow(new ConfigError('baseUrl', 'must be a non-empty URL (or give a venue)'));
    });

    it('MENA: a recvWindow above 8000 ms is refused locally (ConfigError), 8000 is sent; HK has no cap', async () => {
      const mena = at(hashkey.mena.production);
      const e = (() => {
        try {
          restClient({ venue: mena, apiKey: API_KEY, secretKey: SECRET, recvWindow: 10_000 });
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(e).toBeInstanceOf(ConfigError);
      expect(e).toMatchObject({ option: 'recvWindow', message: 'recvWindow must be at most 8000 ms on HashKey MENA production (got 10000)' });
      expect(String(e)).not.toContain(SECRET);
      await firstValueFrom(restClient({ venue: mena, apiKey: API_KEY, secretKey: SECRET, recvWindow: 8000, serverTimeOffsetMs: () => 0 }).account());
      expect(server.requests[0]!.rawQuery).toMatch(/recvWindow=8000&/);
      expect(() => restClient({ venue: at(hashkey.hk.production), apiKey: API_KEY, secretKey: SECRET, recvWindow: 10_000 })).not.toThrow();
      expect(server.requests).toHaveLength(1);
    });

    it("MENA: market-data calls carry site=MENA; HK's do not", async () => {
      reply = () => ({ status: 200, body: { t: 1, b: [], a: [] } });
      await firstValueFrom(restClient({ venue: at(hashkey.mena.production) }).depth({ symbol: 'BTCUSDT', limit: 5 }));
      await firstValueFrom(restClient({ venue: at(hashkey.hk.production) }).depth({ symbol: 'BTCUSDT' }));
      expect(server.requests.map((r) => r.rawQuery)).toEqual(['symbol=BTCUSDT&limit=5&site=MENA', 'symbol=BTCUSDT']);
      expect(server.requests.every((r) => r.headers['x-apikey'] === undefined && r.headers['x-hk-apikey'] === undefined)).toBe(true);
    });

    it("the venue's per-key limit gates calls (HK: 2 queries a second) unless the config gives its own", async () => {
      const rest = restClient({ venue: at(hashkey.hk.production), apiKey: API_KEY, secretKey: SECRET, serverTimeOffsetMs: () => 0 });
      const t0 = Date.now();
      await Promise.all([1, 2, 3].map(() => firstValueFrom(rest.account())));
      expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
      const free = restClient({ venue: at(hashkey.hk.production), apiKey: API_KEY, secretKey: SECRET, serverTimeOffsetMs: () => 0, rateLimit: {} });
      const t1 = Date.now();
      await Promise.all([1, 2, 3].map(() => firstValueFrom(free.account())));
      expect(Date.now() - t1).toBeLessThan(900);
    });
  });

  describe('marketStreams({ venue }) and userStream({ venue }): the stream addresses', () => {
    let subs: Subscription[] = [];
    afterEach(() => subs.forEach((s) => s.unsubscribe()));

    it("the public stream connects to the venue's publicStreamUrl unless url is given", () => {
      const urls: string[] = [];
      const WebSocketCtor = recordingSocket(urls) as never;
      subs = [
        marketStreams({ venue: hashkey.global.production, WebSocketCtor }).trades('BTCUSDT').subscribe({ error: () => undefined }),
        marketStreams({ venue: hashkey.global.production, url: 'ws://127.0.0.1:1/quote/ws/v1', WebSocketCtor }).trades('BTCUSDT').subscribe({ error: () => undefined }),
      ];
      expect(urls).toEqual(['wss://stream-glb.hashkey.com/quote/ws/v1', 'ws://127.0.0.1:1/quote/ws/v1']);
      expect(() => marketStreams({})).toThrow(new ConfigError('url', 'or venue is required'));
    });

    it("the private stream connects to the venue's privateStreamUrl + /{listenKey}", async () => {
      const urls: string[] = [];
      const WebSocketCtor = recordingSocket(urls) as never;
      const user = userStream({ venue: hashkey.mena.sandbox, listenKey$: of('k'.repeat(60)), WebSocketCtor });
      subs = [user.events$.subscribe({ error: () => undefined })];
      await until(() => urls.length > 0, 'a socket');
      expect(urls).toEqual([`wss://stream-pro.sim.hashkeydev.com/api/v1/ws/${'k'.repeat(60)}`]);
      expect(() => userStream({ listenKey$: NEVER })).toThrow(new ConfigError('url', 'or venue is required'));
    });
  });
});
