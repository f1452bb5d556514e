import { filter, firstValueFrom, map, merge, type Observable, skip, Subject, type Subscription, take, toArray } from 'rxjs';
import { WebSocket } from 'ws';
import { DepthRecordCodec } from '../../lib/codecs/depth';
import { KlineRecordCodec } from '../../lib/codecs/kline';
import { RealtimesRecordCodec } from '../../lib/codecs/realtimes';
import type { TradeRecord } from '../../lib/codecs/trade';
import { compareDecimal } from '../../lib/decimal/compare';
import { marketStreams } from '../../lib/market/marketStreams';
import { orderBook } from '../../lib/operators/orderBook';
import { type MarketGateway, publishMarket, type PublishMarketConfig } from '../../lib/redis/publishMarket';
import { type RedisMarketStreams, redisMarketStreams } from '../../lib/redis/redisMarketStreams';
import type { RelayGap } from '../../lib/redis/relayGap';
import type { TradeGap } from '../../lib/operators/distinctTrades';
import { startSimulator, type Simulator } from '../../lib/simulator';
import type { PeriodsMs } from '../../lib/simulator/core/simulatorOptions';
import { describeWithRedis, type RedisServer, startRedisServer } from '../helpers/redisServer';
import { until } from '../helpers/until';
import { SYMBOLS, MARKET, recordingWs } from './relayFixtures';

const TOPICS = ['trade', 'depth', 'realtimes', 'kline_1m'] as const;
const FAST: Partial<PeriodsMs> = { kline: 20, realtimes: 20, trade: 20, depth: 20 };

/** The records of `topic` frames of `symbol` among `frames`, decoded with `decode`. */
function recordsOf<R>(frames: readonly string[], symbol: string, topic: string, decode: (x: unknown) => R | undefined): R[] {
  const out: R[] = [];
  for (const text of frames) {
    const m = JSON.parse(text) as { symbol?: string; topic?: string; data?: unknown[] };
    if (m.symbol !== symbol || m.topic !== topic) continue;
    for (const r of m.data ?? []) {
      const decoded = decode(r);
      if (decoded !== undefined) out.push(decoded);
    }
  }
  return out;
}
const decoder = <R>(codec: { decode(x: unknown): { _tag: string; right?: R } }) => (x: unknown): R | undefined => {
  const d = codec.decode(x);
  return d._tag === 'Right' ? d.right : undefined;
};

// Each case twice: consumers reading by push (the default) and by blocking XREAD.
describe.each(['push', 'xread'] as const)('read: %s', (read) => {
  describeWithRedis('redis relay (gateway → Redis → consumer, real processes)', () => {
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
      prefix = `t${++n}:`;
    });
    afterEach(async () => {
      for (const s of subscriptions.splice(0)) s.unsubscribe();
      await Promise.all(gateways.splice(0).map((g) => g.stop()));
      await sim?.close();
    });

    const simulator = async (periodsMs: Partial<PeriodsMs> = FAST): Promise<Simulator> =>
      (sim = await startSimulator({ symbols: SYMBOLS, seed: 5, periodsMs, marketStepMs: 10, depthLevels: 20 }));
    const gateway = (options: Partial<PublishMarketConfig> = {}): MarketGateway => {
      const g = publishMarket({ redis: redis.url(), url: sim.publicStreamUrl, symbols: SYMBOLS, topics: TOPICS, prefix, shards: 2, market: MARKET, ...options });
      gateways.push(g);
      return g;
    };
    const consumer = (options: { resumeFrom?: Record<number, string> } = {}): RedisMarketStreams =>
      redisMarketStreams({ redis: redis.url(), prefix, shards: 2, blockMs: 200, read, market: MARKET, ...options });
    const written = (g: MarketGateway, atLeast: number): Promise<unknown> => firstValueFrom(g.status$.pipe(filter((s) => s.written >= atLeast)));

    it('delivers the records a direct subscriber gets: trades (64-bit ids, exact decimals), books, candles, tickers', async () => {
      await simulator();
      const frames: string[] = [];
      const g = gateway({ WebSocketCtor: recordingWs(frames) });
      const direct = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket, ...MARKET });
      const directTrades: TradeRecord[] = [];
      const directTrade$ = new Subject<TradeRecord>();
      keep(direct.trades('BTCUSDT'), (t) => (directTrades.push(t), directTrade$.next(t)));
      await written(g, 50);
      const relay = consumer();
      const relayErrors: string[] = [];
      keep(relay.errors$, (e) => relayErrors.push(e.message));
      const [trades, books, candles, tickers, relayed] = await Promise.all([
        firstValueFrom(relay.trades('BTCUSDT').pipe(take(80), toArray())),
        firstValueFrom(relay.depth('ETHUSDT').pipe(take(5), toArray())),
        firstValueFrom(relay.klines('ETHBTC', '1m').pipe(take(5), toArray())),
        firstValueFrom(relay.realtimes('BTCUSDT').pipe(take(5), toArray())),
        firstValueFrom(relay.depth('BTCUSDT').pipe(orderBook(), take(3), toArray())),
      ]);
      // Trades: each id once, in order, equal to the direct subscriber's (text for text), ids above 2^53.
      const last = trades[trades.length - 1]!.v;
      const has = (): boolean => directTrades.some((t) => compareDecimal(t.v, last) >= 0);
      if (!has()) await firstValueFrom(directTrade$.pipe(filter(has)));
      const byId = new Map(directTrades.map((t) => [t.v, t]));
      const common = trades.filter((t) => byId.has(t.v));
      expect(common.length).toBeGreaterThan(40);
      for (const t of common) expect(t).toEqual(byId.get(t.v));
      expect(BigInt(trades[0]!.v) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      for (let i = 1; i < trades.length; i++) expect(compareDecimal(trades[i - 1]!.v, trades[i]!.v)).toBeLessThan(0);
      // Books, candles, tickers: each record is one the gateway received, decoded alike.
      const gatewayBooks = recordsOf(frames, 'ETHUSDT', 'depth', decoder(DepthRecordCodec));
      for (const b of books) expect(gatewayBooks).toContainEqual(b);
      const gatewayCandles = recordsOf(frames, 'ETHBTC', 'kline', decoder(KlineRecordCodec));
      for (const c of candles) expect(gatewayCandles).toContainEqual(c);
      const gatewayTickers = recordsOf(frames, 'BTCUSDT', 'realtimes', decoder(RealtimesRecordCodec));
      for (const r of tickers) expect(gatewayTickers).toContainEqual(r);
      expect(relayed[2]!.bestBid).toBeDefined();
      expect(relayErrors).toEqual([]); // (by push: no fall back to XREAD)
    });

    it('gives a late joiner the latest book at once, not at the next push', async () => {
      await simulator({ ...FAST, depth: 3_000 });
      const g = gateway({ WebSocketCtor: recordingWs([]) });
      await firstValueFrom(g.status$.pipe(filter((s) => s.written > 20)));
      const first = consumer();
      const firstBook = await firstValueFrom(first.depth('BTCUSDT'));
      const late = consumer();
      const started = Date.now();
      const lateBook = await firstValueFrom(late.depth('BTCUSDT'));
      expect(Date.now() - started).toBeLessThan(1_000); // the next push is up to 3 s away
      expect(lateBook).toEqual(firstBook);
    });

    it('reads a shard that becomes of interest while its read is blocked on another, at once (not after blockMs)', async () => {
      await simulator();
      // Only ETHBTC (shard 1 of 2) is published: shard 0 (BTCUSDT's) stays quiet, so a read of it blocks for blockMs.
      const g = gateway({ symbols: ['ETHBTC'], WebSocketCtor: recordingWs([]) });
      await written(g, 20);
      const relay = redisMarketStreams({ redis: redis.url(), prefix, shards: 2, blockMs: 30_000, read, market: MARKET });
      keep(relay.tradeMessages('BTCUSDT'));
      // Its one read loop waiting on shard 0: blocked in XREAD (Redis lists the connection with flag b), or, reading by
      // push, its push connection subscribed (flag P).
      const waiting = read === 'push' ? /name=ex-streams-relay-push .*\bflags=\w*P/ : /name=ex-streams-relay-read .*\bflags=\w*b.* cmd=xread\b/;
      await until(() => redis.cli(['CLIENT', 'LIST']).split('\n').some((c) => waiting.test(c)), `the read loop waiting (${read})`, { everyMs: 20 });
      const started = Date.now();
      const messages = await firstValueFrom(relay.tradeMessages('ETHBTC').pipe(take(4), toArray()));
      expect(Date.now() - started).toBeLessThan(5_000); // new frames every 20 ms; a loop left blocked would wait 30 s
      expect(new Set(messages.map((m) => m.sendTime)).size).toBe(4);
    });

    it('keeps going when Redis is killed and restarted: the gateway reports, drops, writes a gap; the consumer signals it', async () => {
      await simulator();
      const g = gateway({ maxQueued: 20 });
      const gatewayErrors: Error[] = [];
      keep(g.errors$, (e) => gatewayErrors.push(e));
      await written(g, 30);
      const relay = consumer();
      const gaps: RelayGap[] = [];
      keep(relay.relayGaps$, (gap) => gaps.push(gap));
      const books: number[] = [];
      keep(relay.depth('BTCUSDT'), (b) => books.push(b.t));
      keep(relay.trades('ETHUSDT'));
      await firstValueFrom(relay.depth('BTCUSDT').pipe(skip(3)));
      // Listened to before the kill: the gap may be signalled before the restarted Redis answers the test's own PING.
      const signalled = firstValueFrom(relay.relayGaps$.pipe(filter((x) => x.reason === 'gateway-dropped' || x.reason === 'sequence')));
      await redis.kill('SIGKILL');
      await firstValueFrom(g.status$.pipe(filter((s) => s.redis === 'down' && s.dropped > 0)));
      await redis.restart();
      const gap = await signalled;
      expect(gap.symbols).toEqual(expect.arrayContaining([]));
      const status = await firstValueFrom(g.status$.pipe(filter((s) => s.redis === 'ready')));
      expect(status.dropped).toBeGreaterThan(0);
      expect(gatewayErrors.some((e) => e.name === 'RedisRelayError')).toBe(true);
      // The consumer started a new epoch and books flow again.
      const epoch2 = await firstValueFrom(relay.status$.pipe(filter((s) => s.connection.type === 'open' && s.connection.epoch >= 2)));
      expect(epoch2.connection.epoch).toBeGreaterThanOrEqual(2);
      const before = books.length;
      await firstValueFrom(relay.depth('BTCUSDT').pipe(skip(2)));
      expect(books.length).toBeGreaterThan(before);
    });

    it('signals on gaps$ the trades lost with a killed Redis (the range covers every missing id), none before', async () => {
      await simulator();
      const frames: string[] = [];
      const g = gateway({ maxQueued: 20, WebSocketCtor: recordingWs(frames) });
      // What could lose trades before the kill: the gateway's venue socket lost (a new epoch: a loaded machine may
      // stall it past its heartbeat) or Redis not written (drops).
      let disturbed = false;
      keep(g.status$, (s) => {
        if (s.venue.epoch > 1 || s.venue.type === 'reconnecting' || s.dropped > 0 || s.redis === 'down') disturbed = true;
      });
      await written(g, 30);
      const relay = consumer();
      const seen: string[] = [];
      const tradeGaps: TradeGap[] = [];
      keep(relay.gaps$, (gap) => tradeGaps.push(gap));
      keep(relay.trades('BTCUSDT'), (t) => seen.push(t.v));
      await firstValueFrom(relay.trades('BTCUSDT').pipe(skip(30)));
      // nothing lost so far: no false gap (a loss the gateway reported is signalled, and checked below with the rest)
      const disturbedBeforeKill = disturbed;
      if (!disturbedBeforeKill) expect(tradeGaps).toEqual([]);
      const gapsBeforeKill = tradeGaps.length;
      // Listened to before the kill: the gap may come before the restarted Redis answers the test's own PING.
      const signalled = firstValueFrom(relay.gaps$);
      await redis.kill('SIGKILL');
      await firstValueFrom(g.status$.pipe(filter((s) => s.redis === 'down' && s.dropped > 100)));
      await redis.restart();
      await signalled;
      const after = seen.length;
      await firstValueFrom(relay.trades('BTCUSDT').pipe(skip(20)));
      // Every trade the gateway received between the first and the last one this consumer got, and that it did not
      // get, lies inside a signalled gap; each trade once, in order.
      const got = new Set(seen);
      expect(got.size).toBe(seen.length);
      for (let i = 1; i < seen.length; i++) expect(compareDecimal(seen[i - 1]!, seen[i]!)).toBeLessThan(0);
      const received = [...new Set(recordsOf(frames, 'BTCUSDT', 'trade', (r) => (r as { v: string }).v))].sort(compareDecimal);
      const missing = received.filter((v) => compareDecimal(v, seen[0]!) > 0 && compareDecimal(v, seen[seen.length - 1]!) < 0 && !got.has(v));
      expect(missing.length).toBeGreaterThan(0);
      const covered = (v: string): boolean =>
        tradeGaps.some((gap) => gap.symbol === 'BTCUSDT' && compareDecimal(gap.lastSeenId, v) < 0 && compareDecimal(v, gap.firstNewId) < 0);
      expect(missing.filter((v) => !covered(v))).toEqual([]);
      // The gap names ids this consumer saw on both sides of the hole, in the epoch it was seen in.
      for (const gap of tradeGaps) expect(got.has(gap.lastSeenId) && got.has(gap.firstNewId)).toBe(true);
      for (const gap of tradeGaps.slice(gapsBeforeKill)) expect(gap.epoch).toBeGreaterThanOrEqual(2);
      expect(seen.length).toBeGreaterThan(after);
      expect((await firstValueFrom(relay.status$)).tradeGaps).toBe(tradeGaps.length);
    });

    it('signals a gateway restart in band and goes on with the new gateway', async () => {
      await simulator();
      const g1 = gateway();
      await written(g1, 30);
      const relay = consumer();
      const reasons: string[] = [];
      keep(relay.relayGaps$, (gap) => reasons.push(gap.reason));
      keep(relay.depth('BTCUSDT'));
      await firstValueFrom(relay.depth('BTCUSDT').pipe(skip(2)));
      await g1.stop();
      gateways.splice(gateways.indexOf(g1), 1);
      const g2 = gateway();
      await firstValueFrom(relay.relayGaps$.pipe(filter((x) => x.reason === 'gateway-restart')));
      expect(reasons).toContain('venue-closed');
      await written(g2, 30);
      const book = await firstValueFrom(relay.depthMessages('BTCUSDT').pipe(skip(2)));
      expect(book.epoch).toBeGreaterThanOrEqual(2);
    });

    it('resumes a restarted consumer from its cursors: every trade once, none missing', async () => {
      await simulator();
      const frames: string[] = [];
      const g = gateway({ WebSocketCtor: recordingWs(frames) });
      await written(g, 30);
      const a = consumer();
      const seen: string[] = [];
      const sa = keep(a.trades('BTCUSDT'), (t) => seen.push(t.v));
      await firstValueFrom(a.trades('BTCUSDT').pipe(skip(20)));
      const cursors = a.cursors();
      const lastSeen = seen[seen.length - 1]!;
      sa.unsubscribe();
      const w = (await firstValueFrom(g.status$)).written;
      await written(g, w + 200); // the gateway goes on meanwhile
      const b = consumer({ resumeFrom: cursors });
      const gaps: RelayGap[] = [];
      keep(b.relayGaps$, (gap) => gaps.push(gap));
      const resumed = await firstValueFrom(b.trades('BTCUSDT').pipe(take(40), toArray()));
      expect(gaps).toEqual([]);
      // What the gateway received after the last trade `a` saw, in order: `b` starts right there.
      const all = [...new Set(recordsOf(frames, 'BTCUSDT', 'trade', (r) => (r as { v: string }).v))].sort(compareDecimal);
      const from = all.indexOf(lastSeen);
      const expected = all.slice(from + 1, from + 1 + resumed.length);
      expect(resumed.map((t) => t.v).filter((v) => compareDecimal(v, lastSeen) > 0)).toEqual(expected.slice(0, resumed.filter((t) => compareDecimal(t.v, lastSeen) > 0).length));
      expect(compareDecimal(resumed[resumed.length - 1]!.v, lastSeen)).toBeGreaterThan(0);
    });

    it('signals a gap, never a silent loss, to a consumer whose entries were trimmed', async () => {
      await simulator();
      const g = gateway({ maxLen: 10 });
      await written(g, 30);
      const a = consumer();
      const sa = keep(a.depth('BTCUSDT'));
      await firstValueFrom(a.depth('BTCUSDT').pipe(skip(2)));
      const cursors = a.cursors();
      sa.unsubscribe();
      const w = (await firstValueFrom(g.status$)).written;
      await written(g, w + 600);
      const b = consumer({ resumeFrom: cursors });
      const gap = firstValueFrom(b.relayGaps$);
      keep(b.depth('BTCUSDT'));
      expect((await gap).reason).toBe('sequence');
      await firstValueFrom(b.depth('BTCUSDT').pipe(skip(2))); // and it goes on
    });

    it('a gateway whose ACL refuses PUBLISH writes every entry all the same and says so once; consumers get every trade', async () => {
      await simulator();
      const user = `nopub${n}`;
      redis.cli(['ACL', 'SETUSER', user, 'on', '>nopub-pw', '~*', '&*', '+@all', '-publish']);
      try {
        const frames: string[] = [];
        const g = gateway({ redis: redis.url({ user, password: 'nopub-pw' }), WebSocketCtor: recordingWs(frames) });
        const gatewayErrors: string[] = [];
        keep(g.errors$, (e) => gatewayErrors.push(e.message));
        await written(g, 30);
        const relay = consumer();
        const relayErrors: string[] = [];
        keep(relay.errors$, (e) => relayErrors.push(e.message));
        const fellBack = firstValueFrom(relay.errors$.pipe(filter((e) => /XREAD/.test(e.message))));
        keep(relay.trades('BTCUSDT')); // (the consumer stays subscribed: two checks without a push take ~1 s)
        const trades = await firstValueFrom(relay.trades('BTCUSDT').pipe(take(80), toArray()));
        if (read === 'push') await fellBack;
        for (let i = 1; i < trades.length; i++) expect(compareDecimal(trades[i - 1]!.v, trades[i]!.v)).toBeLessThan(0);
        const all = [...new Set(recordsOf(frames, 'BTCUSDT', 'trade', (r) => (r as { v: string }).v))].sort(compareDecimal);
        const from = all.indexOf(trades[0]!.v);
        expect(trades.map((t) => t.v)).toEqual(all.slice(from, from + trades.length)); // none missing
        expect((await firstValueFrom(g.status$)).dropped).toBe(0);
        expect(gatewayErrors.filter((e) => /publish/i.test(e))).toHaveLength(1);
        if (read === 'push') expect(relayErrors.filter((e) => /XREAD/.test(e))).toHaveLength(1);
        else expect(relayErrors).toEqual([]);
      } finally {
        for (const s of subscriptions.splice(0)) s.unsubscribe();
        await Promise.all(gateways.splice(0).map((g) => g.stop()));
        redis.cli(['ACL', 'DELUSER', user]);
      }
    });

    it('never shows a password: a wrong one is reported redacted, on both sides', async () => {
      await simulator();
      const password = 'wrong-pa55word-Zq9';
      const url = redis.url({ user: 'nobody', password });
      const g = publishMarket({ redis: url, url: sim.publicStreamUrl, symbols: ['BTCUSDT'], topics: ['depth'], prefix });
      gateways.push(g);
      const gatewayError = await firstValueFrom(g.errors$);
      const relay = redisMarketStreams({ redis: url, prefix, read, market: MARKET });
      keep(relay.depth('BTCUSDT'));
      const cause = await firstValueFrom(
        merge(relay.errors$, relay.status$.pipe(filter((s) => s.connection.type === 'reconnecting'), map((s) => (s.connection as { cause: Error }).cause))),
      );
      for (const e of [gatewayError, cause]) {
        expect(e.message).not.toContain(password);
        expect(e.message).not.toContain(encodeURIComponent(password));
        expect(JSON.stringify(e)).not.toContain(password);
      }
      expect(gatewayError.message).toMatch(/WRONGPASS|NOAUTH|auth/i);
    });
  });
});
