import { filter, firstValueFrom } from 'rxjs';
import { Redis } from 'ioredis';
import { compareDecimal } from '../../lib/decimal/compare';
import { type MarketGateway, publishMarket, type PublishMarketConfig } from '../../lib/redis';
import { readEntry } from '../../lib/redis/marketEntry';
import { streamKey } from '../../lib/redis/marketKeys';
import { startSimulator, type Simulator } from '../../lib/simulator';
import type { PeriodsMs } from '../../lib/simulator/core/simulatorOptions';
import { describeWithRedis, type RedisServer, startRedisServer } from '../helpers/redisServer';
import { type ConsumerProcess, type ConsumerReport, startConsumer } from './relayConsumerProcess';
import { SYMBOLS, MARKET, recordingWs, tradeIdsOf } from '../redis/relayFixtures';

const FAST: Partial<PeriodsMs> = { kline: 50, realtimes: 50, trade: 20, depth: 50 };

/** The data frames of a topic as Redis holds them (every shard, in order). */
async function publishedFrames(url: string, prefix: string, shards: number, topic: string): Promise<string[]> {
  const client = new Redis(url, { maxRetriesPerRequest: 0 });
  try {
    const frames: string[] = [];
    for (let shard = 0; shard < shards; shard++) {
      for (const [, fields] of await client.xrange(streamKey(prefix, shard), '-', '+')) {
        const entry = readEntry(fields);
        if (entry?.kind === 'message' && entry.topic === topic) frames.push(entry.frame);
      }
    }
    return frames;
  } finally {
    client.disconnect();
  }
}

/** Each id once, ascending. */
function expectStrictlyAscending(ids: readonly string[]): void {
  for (let i = 1; i < ids.length; i++) if (!(compareDecimal(ids[i - 1]!, ids[i]!) < 0)) throw new Error(`not ascending at ${i}: ${ids[i - 1]} then ${ids[i]}`);
}

/** The ids of `published` after `got[0]` that `got` lacks and no signalled TradeGap of `symbol` covers. */
function unsignalledLosses(published: readonly string[], got: readonly string[], symbol: string, report: ConsumerReport): string[] {
  const have = new Set(got);
  const last = got[got.length - 1]!;
  const covered = (v: string): boolean =>
    report.tradeGaps.some((g) => g.symbol === symbol && compareDecimal(g.lastSeenId, v) < 0 && compareDecimal(v, g.firstNewId) < 0);
  return published.filter((v) => compareDecimal(v, got[0]!) > 0 && compareDecimal(v, last) <= 0 && !have.has(v) && !covered(v));
}

describeWithRedis('redis relay on real processes (slow)', () => {
  let redis: RedisServer;
  let sim: Simulator | undefined;
  let gateway: MarketGateway | undefined;
  const children: ConsumerProcess[] = [];
  let n = 0;

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map((c) => c.stop()));
    await gateway?.stop();
    gateway = undefined;
    await sim?.close();
    sim = undefined;
  });

  const start = async (options: Partial<PublishMarketConfig>): Promise<{ prefix: string }> => {
    const prefix = `slow${++n}:`;
    sim = await startSimulator({ symbols: SYMBOLS, seed: 7, periodsMs: FAST, marketStepMs: 10, depthLevels: 20 });
    gateway = publishMarket({ redis: redis.url(), url: sim.publicStreamUrl, symbols: SYMBOLS, topics: ['trade', 'depth'], prefix, shards: 2, market: MARKET, ...options });
    await firstValueFrom(gateway.status$.pipe(filter((s) => s.written > 20)));
    return { prefix };
  };

  it('8 consumer processes on one gateway: each gets every trade published from its start, each once, in order, and every book in order', async () => {
    const { prefix } = await start({});
    for (let i = 0; i < 8; i++) children.push(startConsumer({ redis: redis.url(), prefix, shards: 2, symbols: SYMBOLS, depth: ['BTCUSDT'] }));
    // Each child compiles the library as it starts (8 at once on 2 cores: seconds each on a loaded machine): up first.
    await Promise.all(children.map((c) => c.until((r) => r.epochs.length > 0, 60_000)));
    // A few seconds of data at each: 150 trades of every pair.
    await Promise.all(children.map((c) => c.until((r) => SYMBOLS.every((s) => (r.trades.get(s)?.length ?? 0) >= 150))));
    const g = gateway!;
    gateway = undefined;
    await g.stop();
    // What the gateway published (Redis holds all of it), and each consumer drained to its very end.
    const trades = await publishedFrames(redis.url(), prefix, 2, 'trade');
    const published = new Map(SYMBOLS.map((s) => [s, tradeIdsOf(trades, s)]));
    const books = (await publishedFrames(redis.url(), prefix, 2, 'depth'))
      .map((f) => JSON.parse(f) as { symbol: string; data: { v: string }[] })
      .filter((m) => m.symbol === 'BTCUSDT')
      .map((m) => m.data[0]!.v);
    await Promise.all(
      children.map((c) => c.until((r) => SYMBOLS.every((s) => r.trades.get(s)?.at(-1) === published.get(s)!.at(-1)) && r.books.get('BTCUSDT')?.at(-1) === books.at(-1))),
    );
    for (const { report } of children) {
      expect(report.tradeGaps).toEqual([]);
      // The gateway's stop closes its venue socket, in band: the only relay gap, and the only new epoch.
      expect(report.relayGaps.map((g) => g.reason)).toEqual(report.relayGaps.map(() => 'venue-closed'));
      expect(new Set(report.relayGaps.map((g) => g.shard))).toEqual(new Set([0, 1]));
      for (const symbol of SYMBOLS) {
        const got = report.trades.get(symbol)!;
        expectStrictlyAscending(got);
        const all = published.get(symbol)!;
        expect(got).toEqual(all.slice(all.indexOf(got[0]!)));
      }
      // Every book published from its first, in order; a new epoch starts with the latest book again (as a
      // resubscription at the venue starts with a snapshot): a repeat of the one before, once per reset.
      // (The venue itself pushes one version twice when its market step timer lagged behind the depth period: those
      // repeats are in what the gateway published, and count as the venue's.)
      const versions = report.books.get('BTCUSDT')!;
      const distinct = versions.filter((v, i) => v !== versions[i - 1]);
      const publishedDistinct = books.filter((v, i) => v !== books[i - 1]);
      expect(distinct).toEqual(publishedDistinct.slice(publishedDistinct.indexOf(versions[0]!)));
      const seen = books.slice(books.indexOf(versions[0]!), books.lastIndexOf(versions.at(-1)!) + 1);
      const venueRepeats = seen.filter((v, i) => i > 0 && v === seen[i - 1]).length;
      expect(versions.length - distinct.length).toBeLessThanOrEqual(report.relayGaps.length + venueRepeats);
    }
  }, 150_000);

  it('a consumer stopped (SIGSTOP) longer than the retention holds: a sequence gap, and a TradeGap on gaps$ over every trade it missed', async () => {
    const frames: string[] = [];
    // A retention of ~4 s of shard 0 (entries of a few KB: Redis trims them one by one), well above the ~0.3 s a reset
    // takes (a retention shorter than that keeps a consumer falling behind at each reset).
    const { prefix } = await start({ maxLen: 500, WebSocketCtor: recordingWs(frames) });
    const c = startConsumer({ redis: redis.url(), prefix, shards: 2, symbols: ['BTCUSDT'] });
    children.push(c);
    await c.until((r) => (r.trades.get('BTCUSDT')?.length ?? 0) >= 60);
    expect(c.report.tradeGaps).toEqual([]);
    c.child.kill('SIGSTOP');
    const { written } = await firstValueFrom(gateway!.status$);
    await firstValueFrom(gateway!.status$.pipe(filter((s) => s.written > written + 1500))); // far past MAXLEN ~ 500 for shard 0
    c.child.kill('SIGCONT');
    await c.until((r) => r.tradeGaps.length > 0);
    const before = c.report.trades.get('BTCUSDT')!.length;
    await c.until((r) => r.trades.get('BTCUSDT')!.length >= before + 30);
    const { report } = c;
    expect(report.relayGaps.map((g) => g.reason)).toContain('sequence');
    const got = report.trades.get('BTCUSDT')!;
    expectStrictlyAscending(got);
    const missing = tradeIdsOf(frames, 'BTCUSDT').filter((v) => compareDecimal(v, got[0]!) > 0 && compareDecimal(v, got.at(-1)!) < 0 && !got.includes(v));
    expect(missing.length).toBeGreaterThan(0);
    expect(unsignalledLosses(tradeIdsOf(frames, 'BTCUSDT'), got, 'BTCUSDT', report)).toEqual([]);
  }, 60_000);
});
