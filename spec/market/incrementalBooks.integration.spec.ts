import { firstValueFrom, filter, map, merge, take, toArray, timeout, type Observable } from 'rxjs';
import type { DepthRecord } from '../../lib/codecs/depth';
import { ConfigError } from '../../lib/errors';
import { marketStreams, type MarketStreams } from '../../lib/market/marketStreams';
import { incrementalBook } from '../../lib/operators/incrementalBook';
import { toOrderBook, type OrderBook } from '../../lib/operators/orderBook';
import { startSimulator, type Simulator } from '../../lib/simulator';

/** The client's frames of a topic the simulator received (it records them with `recordTraffic`). */
const sentFrames = (sim: Simulator, topic: string): Record<string, unknown>[] =>
  sim
    .traffic()
    .frames.filter((f) => f.stream === 'public')
    .map((f) => JSON.parse(f.data) as Record<string, unknown>)
    .filter((f) => f['topic'] === topic);

/**
 * Integration, real sockets on 127.0.0.1 against the simulator: `mergedDepth`, `diffMergedDepth` (snapshot, deltas,
 * `o`), the book kept from them, the simulator's sequence fault signalled and healed by a fresh subscription, and
 * `limit` on depth.
 */
describe('incremental books against the simulator', () => {
  let sim: Simulator;
  let market: MarketStreams;
  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], periodsMs: { depth: 40 }, marketStepMs: 120, recordTraffic: true });
    market = marketStreams({ url: sim.publicStreamUrl });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('subscribes with dumpScale; the book kept from snapshot + deltas equals the merged full book of the same version', async () => {
    // both topics on one socket: pair the records by the version `v` the simulator stamps on both
    const diffs: Observable<{ v: string; book: OrderBook }> = market.diffMergedDepth('BTCUSDT', { dumpScale: 1 }).pipe(
      (records) => {
        const versions: string[] = [];
        return records.pipe(
          map((r) => (versions.push(r.v ?? ''), r)),
          incrementalBook(),
          map((book) => ({ v: versions.shift()!, book })),
        );
      },
    );
    const fulls = market.mergedDepth('BTCUSDT', { dumpScale: 1 }).pipe(map((r: DepthRecord) => ({ v: r.v ?? '', full: toOrderBook(r) })));
    const events = await firstValueFrom(merge(diffs, fulls).pipe(take(60), toArray(), timeout(10_000)));
    const fullByV = new Map<string, OrderBook>();
    for (const e of events) if ('full' in e) fullByV.set(e.v, e.full);
    let compared = 0;
    for (const e of events) {
      if (!('book' in e)) continue;
      const full = fullByV.get(e.v);
      if (full === undefined) continue;
      compared++;
      expect({ bids: e.book.bids, asks: e.book.asks }).toEqual({ bids: full.bids, asks: full.asks });
    }
    expect(compared).toBeGreaterThan(3);
    // merged to one decimal
    expect(events.every((e) => ('book' in e ? e.book : e.full).bids.every(([p]) => /^\d+(\.\d)?$/.test(p)))).toBe(true);
    const subs = sentFrames(sim, 'diffMergedDepth').filter((f) => f['event'] === 'sub');
    expect(subs[0]!['params']).toEqual({ binary: false, dumpScale: '1' });
  });

  for (const mode of ['skip', 'repeat'] as const) {
    it(`a sequence number ${mode === "skip" ? "skipped" : "repeated"} is a BookGap, then cancel and sub again, and the book flows on from the fresh snapshot`, async () => {
      const gaps = firstValueFrom(market.bookGaps$.pipe(take(1), timeout(10_000)));
      const books: OrderBook[] = [];
      const subscription = market.incrementalBook('BTCUSDT', { dumpScale: 1 }).subscribe((b) => books.push(b));
      try {
        await firstValueFrom(market.incrementalBook('BTCUSDT', { dumpScale: 1 }).pipe(take(3), toArray(), timeout(10_000)));
        sim.breakBookSequence(mode);
        const gap = await gaps;
        expect(gap).toMatchObject({ symbol: 'BTCUSDT', reason: mode === 'skip' ? 'skipped' : 'repeated' });
        const before = books.length;
        // healed: books again, after a cancel and a second sub
        await firstValueFrom(market.incrementalBook('BTCUSDT', { dumpScale: 1 }).pipe(take(3), toArray(), timeout(10_000)));
        expect(books.length).toBeGreaterThan(before);
        const frames = sentFrames(sim, 'diffMergedDepth').map((f) => f['event']);
        expect(frames.slice(0, 3)).toEqual(['sub', 'cancel', 'sub']);
        const status = await firstValueFrom(market.status$);
        expect(status.bookGaps).toBe(1);
      } finally {
        subscription.unsubscribe();
      }
    });
  }

  it('a late observer of a live book gets the current book at once', async () => {
    const first = market.incrementalBook('BTCUSDT', { dumpScale: 1 }).subscribe();
    try {
      await firstValueFrom(market.incrementalBook('BTCUSDT', { dumpScale: 1 }).pipe(take(2), toArray(), timeout(10_000)));
      const late = await firstValueFrom(market.incrementalBook('BTCUSDT', { dumpScale: 1 }).pipe(timeout(30)));
      expect(late.symbol).toBe('BTCUSDT');
      expect(sentFrames(sim, 'diffMergedDepth').filter((f) => f['event'] === 'sub')).toHaveLength(1);
    } finally {
      first.unsubscribe();
    }
  });

  it('limit on depth: the service is asked for that many levels a side', async () => {
    const record = await firstValueFrom(market.depth('BTCUSDT', { limit: 5 }).pipe(timeout(10_000)));
    expect(record.b.length).toBeLessThanOrEqual(5);
    expect(record.a.length).toBeLessThanOrEqual(5);
    expect(sentFrames(sim, 'depth')[0]!['params']).toEqual({ binary: false, limit: '5' });
  });

  it('refuses another dumpScale of a live symbol, and bad options, before anything is sent', async () => {
    const live = market.mergedDepth('BTCUSDT', { dumpScale: 1 }).subscribe();
    try {
      await expect(firstValueFrom(market.mergedDepth('BTCUSDT', { dumpScale: 2 }))).rejects.toBeInstanceOf(ConfigError);
      await expect(firstValueFrom(market.mergedDepth('BTCUSDT', { dumpScale: 1.5 }))).rejects.toMatchObject({ option: 'dumpScale' });
      await expect(firstValueFrom(market.depth('BTCUSDT', { limit: 201 }))).rejects.toMatchObject({ option: 'limit' });
      await expect(firstValueFrom(market.incrementalBook('BTCUSDT', { dumpScale: 1, levels: 0 }))).rejects.toMatchObject({ option: 'levels' });
    } finally {
      live.unsubscribe();
    }
    // depth without a limit is a set of params too: a limit meanwhile is refused
    const fullDepth = market.depth('BTCUSDT').subscribe();
    try {
      await expect(firstValueFrom(market.depth('BTCUSDT', { limit: 5 }))).rejects.toMatchObject({ option: 'limit' });
    } finally {
      fullDepth.unsubscribe();
    }
    // once the first is gone, another dumpScale may be subscribed
    const other = await firstValueFrom(market.mergedDepth('BTCUSDT', { dumpScale: 0 }).pipe(filter((r) => r.b.length > 0), timeout(10_000)));
    expect(other.b.every(([p]) => /^\d+$/.test(p))).toBe(true);
  });
});
