import { asyncScheduler, filter, firstValueFrom, type Observable, type SchedulerLike, skip, type Subscription } from 'rxjs';
import { compareIds, shardOf } from '../../lib/redis/marketKeys';
import { type MarketGateway, publishMarket, type PublishMarketConfig } from '../../lib/redis/publishMarket';
import { type RedisMarketStreams, redisMarketStreams } from '../../lib/redis/redisMarketStreams';
import type { RelayGap } from '../../lib/redis/relayGap';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { describeWithRedis, type RedisServer, startRedisServer } from '../helpers/redisServer';
import { sleep } from '../helpers/until';
import { MARKET, SYMBOLS } from '../redis/relayFixtures';

// Issue 40, "Redis can fool the relay" (slow: each kills a redis-server and starts it again): a stream that went
// backwards under a consumer (Redis restarted empty, a standby gateway writing), and what a Redis restart puts on
// `errors$` (typed relay errors with a plain reason, once per episode; never the client library's own words).

const SHARDS = 2;
const FAST = { kline: 20, realtimes: 20, trade: 20, depth: 20 };
/** The client library's own words for a missing connection, which must never reach a user. */
const CLIENT_INTERNALS = /Stream isn't writeable|enableOfflineQueue|Connection is closed|max retries per request|ECONNREFUSED|ECONNRESET/;

/** `asyncScheduler` with a clock `offsetMs` off (a standby gateway on a machine whose clock is behind). */
const clockOff = (offsetMs: number): SchedulerLike => ({
  now: () => asyncScheduler.now() + offsetMs,
  schedule: asyncScheduler.schedule.bind(asyncScheduler) as SchedulerLike['schedule'],
});

describe.each(['push', 'xread'] as const)('read: %s', (read) => {
  describeWithRedis('a relay through Redis restarts (slow)', () => {
    let redis: RedisServer;
    let sim: Simulator;
    let prefix: string;
    let n = 0;
    const gateways: MarketGateway[] = [];
    const subscriptions: Subscription[] = [];
    const keep = <A>(source: Observable<A>, next: (a: A) => void = () => undefined): Subscription => {
      const s = source.subscribe({ next, error: (e: unknown) => next(e as A) });
      subscriptions.push(s);
      return s;
    };

    beforeAll(async () => {
      redis = await startRedisServer();
    });
    afterAll(async () => {
      await redis?.stop();
    });
    beforeEach(async () => {
      prefix = `r${++n}:`;
      sim = await startSimulator({ symbols: SYMBOLS, seed: 9, periodsMs: FAST, marketStepMs: 10, depthLevels: 20 });
    });
    afterEach(async () => {
      for (const s of subscriptions.splice(0)) s.unsubscribe();
      await Promise.all(gateways.splice(0).map((g) => g.stop(500)));
      await sim?.close();
    });

    const gateway = (options: Partial<PublishMarketConfig> = {}): MarketGateway => {
      const g = publishMarket({ redis: redis.url(), url: sim.publicStreamUrl, symbols: SYMBOLS, topics: ['trade', 'depth'], prefix, shards: SHARDS, market: MARKET, ...options });
      gateways.push(g);
      return g;
    };
    const written = (g: MarketGateway, atLeast: number): Promise<unknown> => firstValueFrom(g.status$.pipe(filter((s) => s.written >= atLeast)));
    const consume = () => {
      const market: RedisMarketStreams = redisMarketStreams({ redis: redis.url(), prefix, shards: SHARDS, read, market: MARKET });
      const trades: string[] = [];
      const gaps: RelayGap[] = [];
      const errors: Error[] = [];
      keep(market.trades('BTCUSDT'), (t) => trades.push(t.v));
      keep(market.relayGaps$, (g) => gaps.push(g));
      keep(market.errors$, (e) => errors.push(e));
      const more = (count: number): Promise<unknown> => firstValueFrom(market.trades('BTCUSDT').pipe(skip(count - 1)));
      return { market, trades, gaps, errors, more };
    };

    it('Redis restarted empty, a standby gateway writing (its clock behind): consumers resume from what exists, inside a gap', async () => {
      const a = gateway();
      await written(a, 30);
      const c = consume();
      await c.more(30);
      const shard = shardOf('BTCUSDT', SHARDS);
      const before = c.market.cursors()[shard]!;
      // The gateway's machine and Redis go down together; Redis comes back empty, and the standby takes over. Its
      // clock is a minute behind: every id it writes is below the consumers' cursors.
      await redis.kill('SIGKILL');
      await a.stop(200);
      gateways.splice(gateways.indexOf(a), 1);
      await redis.restart();
      const got = c.trades.length;
      gateway({ scheduler: clockOff(-60_000) });
      await c.more(40); // (the old code: no trade in 8 s and more, no gap, the cursor stuck)
      expect(c.trades.length).toBeGreaterThanOrEqual(got + 40);
      expect(c.gaps.some((g) => g.reason === 'rewound' && g.shard === shard && g.symbols.includes('BTCUSDT'))).toBe(true);
      expect(compareIds(c.market.cursors()[shard]!, before)).toBeLessThan(0); // reading the stream as it is now
      expect(c.errors.some((e) => e.name === 'RedisRelayError' && /is behind this consumer's cursor/.test(e.message))).toBe(true);
      expect(new Set(c.trades).size).toBe(c.trades.length);
    }, 30_000);

    it('a 3 s Redis restart is one typed error with a plain reason on each side, never the client library\'s words', async () => {
      const g = gateway();
      const gatewayErrors: Error[] = [];
      keep(g.errors$, (e) => gatewayErrors.push(e));
      await written(g, 30);
      const c = consume();
      await c.more(30);
      await redis.kill('SIGKILL');
      await sleep(3_000);
      await redis.restart();
      await c.more(40); // (it goes on)
      for (const errors of [c.errors, gatewayErrors]) {
        expect(errors.filter((e) => CLIENT_INTERNALS.test(e.message)).map((e) => e.message)).toEqual([]);
        // (but the relay socket's own close on a gap, code 4010, which `marketStreams` reports as for a venue socket)
        expect(errors.filter((e) => e.name !== 'RedisRelayError' && !(e.name === 'ConnectionClosedError' && /code 4010/.test(e.message))).map((e) => e.message)).toEqual([]);
      }
      // One error for the episode on each side (the consumer's: no connection, whichever of its loops met it first).
      expect(c.errors.filter((e) => /no connection to Redis/.test(e.message))).toHaveLength(1);
      expect(gatewayErrors.filter((e) => /lost; reconnecting|no connection to Redis/.test(e.message))).toHaveLength(1);
    }, 30_000);
  });
});
