import { Redis } from 'ioredis';
import { filter, firstValueFrom, type Observable, skip, type Subscription } from 'rxjs';
import { compareDecimal } from '../../lib/decimal/compare';
import type { TradeGap } from '../../lib/operators/distinctTrades';
import { shardOf, streamKey } from '../../lib/redis/marketKeys';
import { type MarketGateway, publishMarket, type PublishMarketConfig } from '../../lib/redis/publishMarket';
import { type RedisMarketStreams, redisMarketStreams } from '../../lib/redis/redisMarketStreams';
import type { RelayGap } from '../../lib/redis/relayGap';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { describeWithRedis, type RedisServer, startRedisServer } from '../helpers/redisServer';
import { until } from '../helpers/until';
import { MARKET, recordingWs, SYMBOLS, tradeIdsOf } from './relayFixtures';

// Issue 40, "Redis can fool the relay": what another client of the same Redis writes into a relay stream (entries that
// are not the relay's, an id far ahead of the gateway's clock) and a cursor ahead of the stream, against a real
// redis-server, the simulator and a real gateway; the foreign entries are written by a separate ioredis client.

const SHARDS = 2;
const FAST = { kline: 20, realtimes: 20, trade: 20, depth: 20 };

describe.each(['push', 'xread'] as const)('read: %s', (read) => {
  describeWithRedis('a relay that what is in Redis cannot fool', () => {
    let redis: RedisServer;
    let foreign: Redis;
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
      foreign = new Redis(redis.port, '127.0.0.1');
    });
    afterAll(async () => {
      foreign?.disconnect();
      await redis?.stop();
    });
    beforeEach(async () => {
      prefix = `x${++n}:`;
      sim = await startSimulator({ symbols: SYMBOLS, seed: 7, periodsMs: FAST, marketStepMs: 10, depthLevels: 20 });
    });
    afterEach(async () => {
      for (const s of subscriptions.splice(0)) s.unsubscribe();
      await Promise.all(gateways.splice(0).map((g) => g.stop()));
      await sim?.close();
    });

    const key = (): string => streamKey(prefix, shardOf('BTCUSDT', SHARDS));
    const gateway = (frames: string[], options: Partial<PublishMarketConfig> = {}): MarketGateway => {
      const g = publishMarket({
        redis: redis.url(),
        url: sim.publicStreamUrl,
        symbols: SYMBOLS,
        topics: ['trade', 'depth'],
        prefix,
        shards: SHARDS,
        market: MARKET,
        WebSocketCtor: recordingWs(frames),
        ...options,
      });
      gateways.push(g);
      return g;
    };
    const written = (g: MarketGateway, atLeast: number): Promise<unknown> => firstValueFrom(g.status$.pipe(filter((s) => s.written >= atLeast)));

    /** A consumer of BTCUSDT's trades: each trade with the wall time it came, its gaps and errors. */
    const consume = (options: { resumeFrom?: Record<number, string> } = {}) => {
      const market: RedisMarketStreams = redisMarketStreams({ redis: redis.url(), prefix, shards: SHARDS, blockMs: 200, checkMs: 100, read, market: MARKET, ...options });
      const trades: { v: string; at: number }[] = [];
      const gaps: RelayGap[] = [];
      const tradeGaps: TradeGap[] = [];
      const errors: Error[] = [];
      keep(market.trades('BTCUSDT'), (t) => trades.push({ v: t.v, at: Date.now() }));
      keep(market.relayGaps$, (g) => gaps.push(g));
      keep(market.gaps$, (g) => tradeGaps.push(g));
      keep(market.errors$, (e) => errors.push(e));
      const more = (count: number): Promise<unknown> => firstValueFrom(market.trades('BTCUSDT').pipe(skip(count - 1)));
      return { market, trades, gaps, tradeGaps, errors, more };
    };

    /** Every trade the gateway received between the first and the last one delivered is delivered, or inside a signalled `TradeGap`. */
    const noSilentLoss = (frames: readonly string[], trades: readonly { v: string }[], tradeGaps: readonly TradeGap[]): void => {
      const seen = trades.map((t) => t.v);
      const got = new Set(seen);
      expect(got.size).toBe(seen.length);
      for (let i = 1; i < seen.length; i++) expect(compareDecimal(seen[i - 1]!, seen[i]!)).toBeLessThan(0);
      const covered = (v: string): boolean => tradeGaps.some((g) => compareDecimal(g.lastSeenId, v) < 0 && compareDecimal(v, g.firstNewId) < 0);
      const lost = tradeIdsOf(frames, 'BTCUSDT').filter((v) => compareDecimal(v, seen[0]!) > 0 && compareDecimal(v, seen[seen.length - 1]!) < 0 && !got.has(v));
      expect(lost.filter((v) => !covered(v))).toEqual([]);
    };

    /** The longest wait between two trades delivered from index `from` on, ms. */
    const longestSilence = (trades: readonly { at: number }[], from: number): number => {
      let most = 0;
      for (let i = Math.max(from, 1); i < trades.length; i++) most = Math.max(most, trades[i]!.at - trades[i - 1]!.at);
      return most;
    };

    it('reports and skips entries that are not the relay\'s, inside a signalled gap: no trade lost, no stall', async () => {
      const frames: string[] = [];
      const g = gateway(frames);
      await written(g, 30);
      const c = consume();
      await c.more(30);
      const before = c.trades.length;
      const cursors = c.market.cursors();
      // Five entries another client wrote: not JSON, one of them shaped like a relay entry (its `n` means nothing).
      await foreign.xadd(key(), '*', 'junk', 'not json');
      await foreign.xadd(key(), '*', 'f', '<html>');
      await foreign.xadd(key(), '*', 's', 'BTCUSDT', 'c', 'trade', 'n', '1', 'r', '1', 'f', 'not json at all');
      await foreign.xadd(key(), '*', 'hello', 'world', 'x', '{');
      await foreign.xadd(key(), '*', 'k', 'epoch', 'n', 'many');
      await c.more(60);
      // The live consumer: no trade lost, no stall. (By push it reads the stream only when a push skips: an entry that
      // no push names is never read, and harms nothing; by XREAD it reads each of them.)
      noSilentLoss(frames, c.trades, c.tradeGaps);
      expect(longestSilence(c.trades, before)).toBeLessThan(1_000); // a trade frame every 20 ms
      if (read === 'xread' && !c.gaps.some((x) => x.reason === 'sequence')) expect(c.gaps.filter((x) => x.reason === 'unreadable')).toHaveLength(5);
      // A foreign id (`*`: Redis's clock) in the very millisecond of a gateway entry, with a later one of the gateway
      // written: that entry cannot go in its place, and is lost, counted and said (a `sequence` gap); else no other gap.
      const dropped = async (): Promise<number> => (await firstValueFrom(g.status$)).dropped;
      const otherGaps = async (gaps: readonly RelayGap[]): Promise<RelayGap[]> => {
        const lost = await dropped();
        return gaps.filter((x) => x.reason !== 'unreadable' && !(x.reason === 'sequence' && lost > 0));
      };
      expect(await otherGaps(c.gaps)).toEqual([]);
      // A consumer that reads across them (resumed from before them): each one skipped inside an `unreadable` gap.
      const d = consume({ resumeFrom: cursors });
      const sequenceGap = (): boolean => d.gaps.some((x) => x.reason === 'sequence');
      await until(() => d.gaps.filter((x) => x.reason === 'unreadable').length >= 5 || sequenceGap(), 'five unreadable gaps');
      await d.more(60);
      const unreadable = d.gaps.filter((x) => x.reason === 'unreadable');
      if (!sequenceGap()) expect(unreadable).toHaveLength(5); // (after a sequence gap it starts at the newest entry)
      expect(unreadable.every((x) => x.symbols.includes('BTCUSDT'))).toBe(true);
      expect(await otherGaps(d.gaps)).toEqual([]);
      noSilentLoss(frames, d.trades, d.tradeGaps);
      expect(longestSilence(d.trades, 1)).toBeLessThan(1_000);
      // Said as typed relay errors with a plain reason, once per run of them (the five are one or a few runs).
      for (const consumer of read === 'xread' ? [c, d] : [d]) {
        const reports = consumer.errors.filter((e) => /not an entry of the relay/.test(e.message));
        expect(reports.length).toBeGreaterThanOrEqual(1);
        expect(reports.length).toBeLessThanOrEqual(5);
        expect(reports.every((e) => e.name === 'RedisRelayError')).toBe(true);
      }
      expect(await dropped()).toBeLessThanOrEqual(1);
    });

    it('a gateway goes on writing above an id far ahead of its clock, and says so; consumers go on', async () => {
      const frames: string[] = [];
      const g = gateway(frames);
      const gatewayErrors: Error[] = [];
      keep(g.errors$, (e) => gatewayErrors.push(e));
      await written(g, 30);
      const c = consume();
      await c.more(20);
      const before = c.trades.length;
      await foreign.xadd(key(), `${Date.now() + 600_000}-0`, 'f', 'ten minutes ahead');
      await c.more(60);
      const status = await firstValueFrom(g.status$);
      expect(status.dropped).toBe(0);
      const said = gatewayErrors.filter((e) => /ahead/.test(e.message));
      expect(said).toHaveLength(1);
      expect(said[0]!.name).toBe('RedisRelayError');
      noSilentLoss(frames, c.trades, c.tradeGaps);
      expect(longestSilence(c.trades, before)).toBeLessThan(1_000);
      // Nothing lost, so no gap but the other client's entry itself; no false trade gap. (By push, the entries Redis
      // refused were pushed all the same: delivered once, their copies above the id skipped.)
      expect(c.gaps.map((x) => x.reason)).toEqual(['unreadable']);
      expect(c.tradeGaps).toEqual([]);
      // The entries after it are above it, in order.
      const [top] = await foreign.xrevrange(key(), '+', '-', 'COUNT', 1);
      expect(Number(top![0].split('-')[0])).toBeGreaterThan(Date.now() + 500_000);
    });

    it('a consumer resumed from a cursor ahead of the stream resumes from what exists, inside a gap', async () => {
      const frames: string[] = [];
      const g = gateway(frames);
      await written(g, 30);
      const ahead = `${Date.now() + 3_600_000}-0`;
      const c = consume({ resumeFrom: { 0: ahead, 1: ahead } });
      const gap = await firstValueFrom(c.market.relayGaps$.pipe(filter((x) => x.reason === 'rewound' && x.symbols.includes('BTCUSDT'))));
      expect(gap.entryId).toBe(ahead);
      await c.more(40);
      noSilentLoss(frames, c.trades, c.tradeGaps);
      expect(c.market.cursors()[shardOf('BTCUSDT', SHARDS)]).not.toBe(ahead);
    });
  });
});
