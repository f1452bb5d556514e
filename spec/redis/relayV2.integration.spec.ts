import { filter, firstValueFrom, type Observable, skip, type Subscription, take, toArray } from 'rxjs';
import type { BboRecord } from '../../lib/codecs/bbo';
import { compareDecimal } from '../../lib/decimal/compare';
import { type MarketGateway, publishMarket } from '../../lib/redis/publishMarket';
import { type RedisMarketStreams, redisMarketStreams } from '../../lib/redis/redisMarketStreams';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { describeWithRedis, type RedisServer, startRedisServer } from '../helpers/redisServer';
import { MARKET, recordingWs, SYMBOLS } from './relayFixtures';

/** The V2 records of `topic` for `symbol` among the gateway's frames (`data` one record, or an array of trades). */
function v2Records(frames: readonly string[], symbol: string, topic: string): unknown[] {
  const out: unknown[] = [];
  for (const text of frames) {
    const m = JSON.parse(text) as { topic?: string; params?: { symbol?: string }; data?: unknown; code?: string };
    if (m.code !== undefined || m.topic !== topic || m.params?.symbol !== symbol || m.data === undefined) continue;
    out.push(...(Array.isArray(m.data) ? m.data : [m.data]));
  }
  return out;
}

// The V2 stream relayed: a gateway of /quote/ws/v2 publishes its frames as they come (bbo, 100 ms books, trades,
// candles), consumers read them with `market: { dialect: 'v2' }`; real simulator, real redis-server, real sockets.
describe.each(['push', 'xread'] as const)('read: %s', (read) => {
  describeWithRedis('redis relay of the V2 stream', () => {
    let redis: RedisServer;
    let sim: Simulator;
    let n = 0;
    let prefix: string;
    const gateways: MarketGateway[] = [];
    const subscriptions: Subscription[] = [];
    const keep = <A>(source: Observable<A>, next: (a: A) => void = () => undefined): void => {
      subscriptions.push(source.subscribe({ next, error: (e: unknown) => next(e as A) }));
    };

    beforeAll(async () => {
      redis = await startRedisServer();
      sim = await startSimulator({ symbols: SYMBOLS, seed: 7, periodsMs: { trade: 20, kline: 50, v2Depth: 50 }, marketStepMs: 10, depthLevels: 20 });
    });
    afterAll(async () => {
      await sim?.close();
      await redis?.stop();
    });
    afterEach(async () => {
      for (const s of subscriptions.splice(0)) s.unsubscribe();
      await Promise.all(gateways.splice(0).map((g) => g.stop()));
    });

    const consumer = (): RedisMarketStreams => redisMarketStreams({ redis: redis.url(), prefix, shards: 2, blockMs: 200, read, market: { ...MARKET, dialect: 'v2' } });

    it('delivers bbo, books, trades and candles as the gateway received them, with no error on either side', async () => {
      prefix = `v2-${read}-${++n}:`;
      const frames: string[] = [];
      const g = publishMarket({
        redis: redis.url(),
        url: sim.publicStreamV2Url,
        symbols: SYMBOLS,
        topics: ['bbo', 'depth', 'trade', 'kline_1m'],
        prefix,
        shards: 2,
        market: MARKET,
        WebSocketCtor: recordingWs(frames),
      });
      gateways.push(g);
      const errors: Error[] = [];
      keep(g.errors$, (e) => errors.push(e));
      await firstValueFrom(g.status$.pipe(filter((s) => s.written >= 40)));
      const relay = consumer();
      keep(relay.errors$, (e) => errors.push(e));
      const [tops, books, trades, candles] = await Promise.all([
        firstValueFrom(relay.bbo('ETHBTC').pipe(take(5), toArray())),
        firstValueFrom(relay.depth('BTCUSDT').pipe(take(3), toArray())),
        firstValueFrom(relay.trades('ETHUSDT').pipe(take(30), toArray())),
        firstValueFrom(relay.klines('BTCUSDT', '1m').pipe(take(2), toArray())),
      ]);
      expect(errors).toEqual([]);
      // each record one the gateway received from the venue for that pair, in order
      const bbo = v2Records(frames, 'ETHBTC', 'bbo') as BboRecord[];
      const at = tops.map((r) => bbo.findIndex((x) => Number(x.t) === r.t && x.b === r.b && x.a === r.a));
      expect(at.every((i) => i >= 0)).toBe(true);
      expect(tops.every((r) => r.s === 'ETHBTC' && compareDecimal(r.b, r.a) < 0)).toBe(true);
      expect(books.every((b) => b.s === 'BTCUSDT' && b.b.length > 0 && b.a.length > 0)).toBe(true);
      expect(trades.map((t) => t.v)).toEqual([...new Set(trades.map((t) => t.v))].sort(compareDecimal));
      const received = new Set((v2Records(frames, 'ETHUSDT', 'trade') as { v: string }[]).map((t) => t.v));
      expect(trades.every((t) => received.has(t.v))).toBe(true);
      expect(candles.every((c) => c.s === 'BTCUSDT')).toBe(true);
      const status = await firstValueFrom(g.status$);
      expect(status.dropped).toBe(0);
    });

    it('resumes a consumer of a restarted gateway: bbo flows again on the new epoch', async () => {
      prefix = `v2-${read}-${++n}:`;
      const gateway = (): MarketGateway => {
        const g = publishMarket({ redis: redis.url(), url: sim.publicStreamV2Url, symbols: ['BTCUSDT'], topics: ['bbo'], prefix, shards: 2, market: MARKET });
        gateways.push(g);
        return g;
      };
      const g1 = gateway();
      await firstValueFrom(g1.status$.pipe(filter((s) => s.written >= 10)));
      const relay = consumer();
      const reasons: string[] = [];
      keep(relay.relayGaps$, (gap) => reasons.push(gap.reason));
      const errors: Error[] = [];
      keep(relay.errors$, (e) => errors.push(e));
      keep(relay.bbo('BTCUSDT')); // held across the restart
      await firstValueFrom(relay.bbo('BTCUSDT').pipe(skip(2)));
      await g1.stop();
      gateways.splice(gateways.indexOf(g1), 1);
      gateway();
      await firstValueFrom(relay.status$.pipe(filter((s) => s.connection.type === 'open' && s.connection.epoch >= 2)));
      const after = await firstValueFrom(relay.bbo('BTCUSDT').pipe(skip(1)));
      expect(after.s).toBe('BTCUSDT');
      expect(reasons).toContain('gateway-restart');
      // the gaps close the relay socket (said on errors$, as on V1); nothing else
      expect(errors.map((e) => e.name)).toEqual(errors.map(() => 'ConnectionClosedError'));
    });

    it('tells a V1 consumer of a V2 gateway on errors$ (a DecodeError a frame), never a record', async () => {
      prefix = `v2-${read}-${++n}:`;
      const g = publishMarket({ redis: redis.url(), url: sim.publicStreamV2Url, symbols: ['BTCUSDT'], topics: ['depth'], prefix, shards: 2, market: MARKET });
      gateways.push(g);
      await firstValueFrom(g.status$.pipe(filter((s) => s.written >= 5)));
      const v1 = redisMarketStreams({ redis: redis.url(), prefix, shards: 2, blockMs: 200, read, market: MARKET });
      const books: unknown[] = [];
      keep(v1.depth('BTCUSDT'), (b) => books.push(b));
      const error = await firstValueFrom(v1.errors$);
      expect(error.name).toBe('DecodeError');
      expect(books).toEqual([]);
    });
  });
});
