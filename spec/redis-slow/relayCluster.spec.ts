import { filter, firstValueFrom, skip, type Subscription } from 'rxjs';
import { compareDecimal } from '../../lib/decimal/compare';
import type { TradeGap } from '../../lib/operators/distinctTrades';
import { type MarketGateway, publishMarket, type RedisMarketStreams, redisMarketStreams, type RelayGap } from '../../lib/redis';
import { shardOf, streamKey } from '../../lib/redis/marketKeys';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { describeWithRedisCluster, type RedisCluster, startRedisCluster } from '../helpers/redisServer';
import { until } from '../helpers/until';
import { SYMBOLS, MARKET, recordingWs, tradeIdsOf } from '../redis/relayFixtures';

const SHARDS = 4;

describeWithRedisCluster('redis relay through a Redis Cluster (slow)', () => {
  let cluster: RedisCluster | undefined;
  let sim: Simulator | undefined;
  let gateway: MarketGateway | undefined;
  const subscriptions: Subscription[] = [];

  afterEach(async () => {
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    await gateway?.stop();
    await sim?.close();
    await cluster?.stop();
  });

  it('3 masters and 3 replicas: a consumer follows the gateway through a killed master and a manual failover, each trade once, in order, every loss signalled', async () => {
    cluster = await startRedisCluster(3, 1);
    sim = await startSimulator({ symbols: SYMBOLS, seed: 9, periodsMs: { kline: 50, realtimes: 50, trade: 20, depth: 50 }, marketStepMs: 10, depthLevels: 20 });
    const prefix = 'cl:';
    const redis = { cluster: cluster.urls };
    const frames: string[] = [];
    const gatewayErrors: Error[] = [];
    gateway = publishMarket({ redis, url: sim.publicStreamUrl, symbols: SYMBOLS, topics: ['trade', 'depth'], prefix, shards: SHARDS, market: MARKET, WebSocketCtor: recordingWs(frames) });
    subscriptions.push(gateway.errors$.subscribe((e) => gatewayErrors.push(e)));
    await firstValueFrom(gateway.status$.pipe(filter((s) => s.written > 50)));

    const consumer: RedisMarketStreams = redisMarketStreams({ redis, prefix, shards: SHARDS, blockMs: 200, market: MARKET });
    const seen = new Map<string, string[]>(SYMBOLS.map((s) => [s, []]));
    const tradeGaps: TradeGap[] = [];
    const relayGaps: RelayGap[] = [];
    subscriptions.push(consumer.gaps$.subscribe((g) => tradeGaps.push(g)));
    subscriptions.push(consumer.relayGaps$.subscribe((g) => relayGaps.push(g)));
    for (const symbol of SYMBOLS) subscriptions.push(consumer.trades(symbol).subscribe((t) => seen.get(symbol)!.push(t.v)));
    subscriptions.push(consumer.depth('BTCUSDT').subscribe());
    await firstValueFrom(consumer.trades('BTCUSDT').pipe(skip(40)));
    expect(tradeGaps).toEqual([]);

    // The master of BTCUSDT's shard is killed; its replica takes over (cluster-node-timeout 1 s).
    const master = cluster.masterOf(streamKey(prefix, shardOf('BTCUSDT', SHARDS)));
    const before = seen.get('BTCUSDT')!.length;
    const killedAt = Date.now();
    await master.kill('SIGKILL');
    await cluster.whenOk();
    const failoverMs = Date.now() - killedAt;
    await firstValueFrom(consumer.trades('BTCUSDT').pipe(skip(60)));
    expect(seen.get('BTCUSDT')!.length).toBeGreaterThan(before + 40);

    // Then a manual failover (CLUSTER FAILOVER on a replica) of the master of another followed pair's shard, one that
    // still has a replica (the killed master's replica, promoted, has none): the clients follow MOVED.
    const live = cluster.nodes.filter((n) => n !== master);
    const replicaOf = (node: (typeof live)[number]) => live.find((n) => n !== node && n.cli(['INFO', 'replication']).includes(`master_port:${node.port}`));
    const other = SYMBOLS.find((s) => s !== 'BTCUSDT' && replicaOf(cluster!.masterOf(streamKey(prefix, shardOf(s, SHARDS)))) !== undefined);
    if (other === undefined) throw new Error('no followed shard has a master with a live replica');
    const key = streamKey(prefix, shardOf(other, SHARDS));
    const replica = replicaOf(cluster.masterOf(key))!;
    replica.cli(['CLUSTER', 'FAILOVER']);
    await until(() => cluster!.masterOf(key) === replica, `the replica on port ${replica.port} to serve ${key}`, { timeoutMs: 20_000, everyMs: 50 });
    await cluster.whenOk();
    const count = seen.get(other)!.length;
    await firstValueFrom(consumer.trades(other).pipe(skip(40)));
    expect(seen.get(other)!.length).toBeGreaterThan(count + 30);

    // Each trade once, in order; whatever the gateway received and the consumer did not get lies in a signalled gap.
    const g = gateway;
    gateway = undefined;
    await g.stop();
    for (const symbol of SYMBOLS) {
      const got = seen.get(symbol)!;
      for (let i = 1; i < got.length; i++) expect(compareDecimal(got[i - 1]!, got[i]!)).toBeLessThan(0);
      const have = new Set(got);
      const covered = (v: string): boolean => tradeGaps.some((gap) => gap.symbol === symbol && compareDecimal(gap.lastSeenId, v) < 0 && compareDecimal(v, gap.firstNewId) < 0);
      const lost = tradeIdsOf(frames, symbol).filter((v) => compareDecimal(v, got[0]!) > 0 && compareDecimal(v, got.at(-1)!) < 0 && !have.has(v));
      expect({ symbol, unsignalled: lost.filter((v) => !covered(v)) }).toEqual({ symbol, unsignalled: [] });
      if (lost.length > 0) expect(relayGaps.length).toBeGreaterThan(0);
    }
    // eslint-disable-next-line no-console
    console.log(`cluster failover: ${failoverMs} ms to cluster_state:ok; relay gaps ${relayGaps.map((x) => x.reason).join(',') || 'none'}; trade gaps ${tradeGaps.length}; gateway errors ${gatewayErrors.length}`);
  }, 60_000);
});
