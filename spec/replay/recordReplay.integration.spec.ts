import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, constants } from 'node:zlib';
import { distinctUntilChanged, filter, firstValueFrom, map, type Observable, Subscription, take, timeout, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { DepthRecord } from '../../lib/codecs/depth';
import type { KlineRecord } from '../../lib/codecs/kline';
import type { TradeRecord } from '../../lib/codecs/trade';
import { loadRecording, recordMarket, recordUser, type RecordingManifest } from '../../lib/node';
import { restClient } from '../../lib/rest/restClient';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { replayMarket } from '../../lib/testing';

/**
 * Integration: a few seconds of the simulator recorded on real sockets (127.0.0.1, ephemeral port), then replayed
 * in a TestScheduler: the replay's typed output equals what the live run emitted, and a forced reconnect of the live
 * run is a new epoch of the replay at the same point of the timeline.
 */
describe('recordMarket → loadRecording → replayMarket (simulator)', () => {
  const SYMBOL = 'BTCUSDT';
  let sim: Simulator;
  let dir: string;

  beforeEach(async () => {
    sim = await startSimulator({ symbols: [SYMBOL], seed: 3, periodsMs: { depth: 100, trade: 100, kline: 100 }, marketStepMs: 50 });
    dir = mkdtempSync(join(tmpdir(), 'exs-rec-'));
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  interface Outputs {
    trades: TradeRecord[];
    depth: DepthRecord[];
    klines: KlineRecord[];
  }

  /** The streams a pipeline reads, collected. */
  const collect = (market: {
    trades(s: string): Observable<TradeRecord>;
    depth(s: string): Observable<DepthRecord>;
    klines(s: string, i: '1m'): Observable<KlineRecord>;
  }, into: Outputs): Subscription => {
    const subscription = new Subscription();
    subscription.add(market.trades(SYMBOL).subscribe((r) => into.trades.push(r)));
    subscription.add(market.depth(SYMBOL).subscribe((r) => into.depth.push(r)));
    subscription.add(market.klines(SYMBOL, '1m').subscribe((r) => into.klines.push(r)));
    return subscription;
  };

  it('replays in a TestScheduler exactly what the live run emitted, the forced reconnect as a new epoch at its recorded time', async () => {
    const rec = recordMarket({ url: sim.publicStreamUrl, symbols: [SYMBOL], topics: ['trade', 'depth', 'kline_1m'], out: dir, flushIntervalMs: 200 });
    const live: Outputs = { trades: [], depth: [], klines: [] };
    const liveSubscription = collect(rec.market, live);
    const epochs = rec.market.status$.pipe(map((s) => s.connection.type === 'open' ? s.connection.epoch : 0), filter((e) => e > 0), distinctUntilChanged());
    const secondEpoch = firstValueFrom(epochs.pipe(filter((e) => e === 2), timeout(10_000)));
    // ten books (about a second), then the simulator drops every public socket (1006); ten books more on epoch 2
    await firstValueFrom(rec.market.depth(SYMBOL).pipe(take(10), toArray(), timeout(5000)));
    sim.drop({ stream: 'public' });
    await secondEpoch;
    await firstValueFrom(rec.market.depth(SYMBOL).pipe(take(10), toArray(), timeout(5000)));
    liveSubscription.unsubscribe();
    await rec.stop();

    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RecordingManifest;
    expect(manifest.complete).toBe(true);
    expect(manifest.files.every((f) => f.complete && /^market-\d{8}T\d{6}Z-\d{4}\.jsonl\.gz$/.test(f.name))).toBe(true);

    const recording = await loadRecording(dir);
    expect(recording.corrupt).toEqual([]);
    const opens = recording.events.filter((e) => e.k === 'open');
    expect(opens.map((e) => e.k === 'open' && e.epoch)).toEqual([1, 2]);
    expect(recording.events.some((e) => e.k === 'close' && e.code === 1006)).toBe(true);

    const replayed: Outputs = { trades: [], depth: [], klines: [] };
    const openedAt: Array<[number, number]> = [];
    let expectedOpen2 = 0;
    const testScheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    testScheduler.run(() => {
      const replay = replayMarket(recording, { scheduler: testScheduler });
      collect(replay, replayed);
      replay.status$
        .pipe(map((s) => (s.connection.type === 'open' ? s.connection.epoch : 0)), distinctUntilChanged(), filter((e) => e > 0))
        .subscribe((epoch) => openedAt.push([epoch, testScheduler.now()]));
      expectedOpen2 = replay.timeOf(opens[1]!.t);
    });
    expect(live.depth.length).toBeGreaterThanOrEqual(20);
    expect(live.trades.length).toBeGreaterThan(0);
    expect(replayed).toEqual(live);
    expect(openedAt).toEqual([
      [1, expect.any(Number)],
      [2, expectedOpen2],
    ]);
  });

  it('rotates files by age; the manifest lists each (first, last, messages, complete) and the loader reads them in order', async () => {
    const rec = recordMarket({ url: sim.publicStreamUrl, symbols: [SYMBOL], topics: ['depth'], out: dir, maxFileMs: 250 });
    await firstValueFrom(rec.market.depth(SYMBOL).pipe(take(9), toArray(), timeout(5000)));
    await rec.stop();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RecordingManifest;
    expect(manifest.files.length).toBeGreaterThanOrEqual(3);
    expect(manifest.files.every((f) => f.complete && f.last - f.first < 250 && f.topics.join() === 'depth')).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['manifest.json', ...manifest.files.map((f) => f.name)].sort());
    const recording = await loadRecording(dir);
    const times = recording.events.map((e) => e.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(recording.events.filter((e) => e.k === 'start')).toHaveLength(manifest.files.length);
    expect(recording.events.filter((e) => e.k === 'f')).toHaveLength(manifest.files.reduce((n, f) => n + f.messages, 0));
  });

  it('records a private stream only when asked, with no listen key, API key or secret in any byte or file name', async () => {
    const rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey, apiKeyHeader: sim.apiKeyHeader });
    const rec = recordUser({ user: { url: sim.privateStreamUrl, rest }, out: dir, flushIntervalMs: 200 });
    await firstValueFrom(rec.user.status$.pipe(filter((s) => s.connection.type === 'open'), timeout(5000)));
    const key = sim.activeListenKey();
    expect(key).toBeDefined();
    // an order: private frames on the recorded socket
    const report = firstValueFrom(rec.user.executionReports$.pipe(take(1), timeout(5000)));
    await firstValueFrom(rest.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', price: '1000', quantity: '0.01' }));
    await report;
    await rec.stop();

    const names = readdirSync(dir);
    expect(names.some((n) => n.startsWith('user-'))).toBe(true);
    const bytes = names.map((n) => {
      const raw = readFileSync(join(dir, n));
      return n.endsWith('.gz') ? gunzipSync(raw, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8') : raw.toString('utf8');
    });
    const everything = [...names, ...bytes].join('\n');
    expect(everything).toContain('executionReport');
    for (const secret of [key!, sim.apiKey, sim.secretKey, sim.privateStreamUrl]) expect(everything).not.toContain(secret);
  });
});
