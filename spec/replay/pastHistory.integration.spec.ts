// Issue 40, "The past has no history": candle history against the simulator, in a replay and across the recorder, on
// real sockets (127.0.0.1, ephemeral ports) and real recording files. Each test failed on the commit before the fix.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, map, Observable, take, timeout, toArray, VirtualTimeScheduler } from 'rxjs';
import { WebSocket } from 'ws';
import type { KlineRecord } from '../../lib/codecs/kline';
import type { RestKline } from '../../lib/codecs/rest/marketData';
import { DecodeError } from '../../lib/errors';
import type { KlineGap } from '../../lib/market/klineGap';
import { marketStreams } from '../../lib/market/marketStreams';
import { loadRecording, recordMarket } from '../../lib/node';
import { restClient } from '../../lib/rest/restClient';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { replayMarket } from '../../lib/testing';
import { until } from '../helpers/until';

const SYMBOL = 'BTCUSDT';
const MIN = 60_000;

describe('the past with its history (issue 40)', () => {
  let sim: Simulator;
  let dir: string;
  beforeEach(async () => {
    sim = await startSimulator({ symbols: [SYMBOL], seed: 3, periodsMs: { depth: 100, trade: 100, kline: 100 }, marketStepMs: 50 });
    dir = mkdtempSync(join(tmpdir(), 'exs-i40-'));
  });
  afterEach(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `klines(…, { history })` on real sockets against the simulator, with `rest` as the history's REST calls: the history, the first live candle and the gaps. */
  const historyOf = async (history: number, rest: { klines: (r: never) => Observable<RestKline[]> } = restClient({ baseUrl: sim.baseUrl })) => {
    const market = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket, klineHistory: { rest: rest as never } });
    const gaps: KlineGap[] = [];
    const gapSub = market.klineGaps$.subscribe((g) => gaps.push(g));
    const firstLive = firstValueFrom(market.klineMessages(SYMBOL, '1m').pipe(map((m) => m.data[0]!.t), timeout(5000)));
    const candles = market.klines(SYMBOL, '1m', { history });
    const seen: KlineRecord[] = [];
    const sub = candles.subscribe((k) => seen.push(k));
    const T = await firstLive;
    await until(() => seen.some((k) => k.t === T), 'the first live candle through klines()', 3000);
    sub.unsubscribe();
    gapSub.unsubscribe();
    return { T, before: seen.filter((k) => k.t < T), gaps };
  };

  it('the simulator serves a history of 500 (it kept 1000 trades: 20 asked gave 3 candles), on the grid, joined to the live candle', async () => {
    const { T, before, gaps } = await historyOf(500);
    expect(before).toHaveLength(500);
    expect(before.map((k) => k.t)).toEqual(Array.from({ length: 500 }, (_, i) => T - (500 - i) * MIN));
    expect(gaps).toEqual([]);
  });

  it("a history answered with fewer candles than asked says so: a history KlineGap with fault 'short'", async () => {
    const real = restClient({ baseUrl: sim.baseUrl });
    const three = { klines: (r: Parameters<typeof real.klines>[0]) => real.klines({ ...r, limit: 3 }).pipe(map((rows) => rows.slice(-3))) };
    // a service with 3 candles: the first page is short, so there is no older one
    const { T, before, gaps } = await historyOf(20, three as never);
    expect(before).toHaveLength(3);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toEqual({ symbol: SYMBOL, interval: '1m', reason: 'history', fault: 'short', missing: 17, firstLiveTime: T, to: T - 3 * MIN, from: T - 20 * MIN, error: undefined });
  });

  it("history rows 30 s apart are refused (they were emitted as 1-minute closed candles): a gap with fault 'off-grid' and a DecodeError", async () => {
    const half = {
      klines: ({ endTime = Date.now() }: { endTime?: number }) => {
        const last = Math.floor(endTime / MIN) * MIN; // on the grid, then every 30 s back
        return new Observable<RestKline[]>((s) => {
          s.next([3, 2, 1, 0].map((i) => ({ t: last - i * 30_000, o: '1', h: '1', l: '1', c: '1', v: '1' })));
          s.complete();
        });
      },
    };
    const { before, gaps } = await historyOf(4, half as never);
    expect(before).toEqual([]);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ reason: 'history', missing: 4, fault: 'off-grid' });
    expect(gaps[0]!.error).toBeInstanceOf(DecodeError);
    expect(gaps[0]!.error).toMatchObject({ kind: 'codec' });
  });

  describe('recorded, then replayed', () => {
    /** Records the simulator (trade, depth, kline_1m) for ten books, with its rules and candle history when `withRest`. */
    const record = async (withRest: boolean) => {
      const rest = restClient({ baseUrl: sim.baseUrl });
      const rec = recordMarket({
        url: sim.publicStreamUrl,
        symbols: [SYMBOL],
        topics: ['trade', 'depth', 'kline_1m'],
        out: dir,
        flushIntervalMs: 200,
        ...(withRest && { rest, history: 50 }),
      });
      await firstValueFrom(rec.market.depth(SYMBOL).pipe(take(10), toArray(), timeout(5000)));
      await rec.stop();
      return loadRecording(dir);
    };
    it('keeps exchangeInfo and the candles before the start: the replay exposes the rules and warms klines(…, { history }) (a ConfigError before), and ends cleanly', async () => {
      const recording = await record(true);
      expect(recording.events.some((e) => e.k === 'exchangeInfo')).toBe(true);
      const scheduler = new VirtualTimeScheduler(undefined, Infinity);
      const replay = replayMarket(recording, { scheduler });
      const errors: Error[] = [];
      replay.errors$.subscribe((e) => errors.push(e));
      const gaps: KlineGap[] = [];
      replay.klineGaps$.subscribe((g) => gaps.push(g));
      const candles: KlineRecord[] = [];
      let complete = false;
      replay.klines(SYMBOL, '1m', { history: 20 }).subscribe({ next: (k) => candles.push(k), error: (e) => errors.push(e), complete: () => (complete = true) });
      scheduler.flush();

      expect(replay.symbolRules.get(SYMBOL)).toMatchObject({ tickSize: '0.01', stepSize: '0.0001' });
      expect(replay.exchangeInfo?.symbols.map((s) => s.symbol)).toEqual([SYMBOL]);
      const firstLive = candles[20]!.t;
      expect(candles.slice(0, 20).map((k) => k.t)).toEqual(Array.from({ length: 20 }, (_, i) => firstLive - (20 - i) * MIN));
      expect(gaps).toEqual([]);
      // the end of the recording (the recorder's own close, 1000) is a completion, no ConnectionClosedError on errors$
      expect(complete).toBe(true);
      expect(errors).toEqual([]);
    });

    it('a recording without them: the history is answered short and says so (no ConfigError)', async () => {
      const recording = await record(false);
      const scheduler = new VirtualTimeScheduler(undefined, Infinity);
      const replay = replayMarket(recording, { scheduler });
      const gaps: KlineGap[] = [];
      replay.klineGaps$.subscribe((g) => gaps.push(g));
      const candles: KlineRecord[] = [];
      const errors: unknown[] = [];
      replay.klines(SYMBOL, '1m', { history: 20 }).subscribe({ next: (k) => candles.push(k), error: (e) => errors.push(e) });
      scheduler.flush();
      expect(errors).toEqual([]);
      expect(candles.length).toBeGreaterThan(0);
      expect(gaps).toHaveLength(1);
      expect(gaps[0]).toMatchObject({ reason: 'history', fault: 'short', missing: 20, error: undefined });
      expect(replay.symbolRules.size).toBe(0);
    });

    it('paper mode (the simulator on the recording) serves the recorded history on the minute, and candles open on the minute', async () => {
      const recording = await record(true);
      const paper = await startSimulator({ recordedMarket: { recording } });
      try {
        const market = marketStreams({ url: paper.publicStreamUrl, WebSocketCtor: WebSocket, klineHistory: { rest: restClient({ baseUrl: paper.baseUrl }) } });
        const gaps: KlineGap[] = [];
        const gapSub = market.klineGaps$.subscribe((g) => gaps.push(g));
        const candles = await firstValueFrom(market.klines(SYMBOL, '1m', { history: 20 }).pipe(take(21), toArray(), timeout(5000)));
        gapSub.unsubscribe();
        const live = candles[20]!;
        expect(live.t % MIN).toBe(0); // it opened at the time shift, off the minute
        expect(candles.slice(0, 20).map((k) => k.t)).toEqual(Array.from({ length: 20 }, (_, i) => live.t - (20 - i) * MIN));
        expect(gaps).toEqual([]);
      } finally {
        await paper.close();
      }
    });

    it.each([1, 10, 100])('delivers every frame at %s× in real time (10× dropped the first frame of each topic)', async (speed) => {
      const recording = await record(false);
      const replay = replayMarket(recording, { speed });
      const counts = { trade: 0, depth: 0, kline: 0 };
      const errors: Error[] = [];
      replay.errors$.subscribe((e) => errors.push(e));
      replay.tradeMessages(SYMBOL).subscribe(() => counts.trade++);
      replay.depthMessages(SYMBOL).subscribe(() => counts.depth++);
      replay.klineMessages(SYMBOL, '1m').subscribe(() => counts.kline++);
      await firstValueFrom(replay.ended$);
      expect(counts).toEqual({ trade: frames(recording.events, 'trade'), depth: frames(recording.events, 'depth'), kline: frames(recording.events, 'kline') });
      expect(errors).toEqual([]);
    });
  });

  it("recordMarket(…).stop() does not wait on its users' subscriptions (it waited its full 2 s): the live pipeline goes on", async () => {
    const rec = recordMarket({ url: sim.publicStreamUrl, symbols: [SYMBOL], topics: ['trade'], out: dir, flushIntervalMs: 200 });
    const live: string[] = [];
    const user = rec.market.trades(SYMBOL).subscribe((t) => live.push(t.v));
    await firstValueFrom(rec.market.trades(SYMBOL).pipe(take(5), toArray(), timeout(5000)));
    const started = Date.now();
    await rec.stop();
    expect(Date.now() - started).toBeLessThan(500);
    const seen = live.length;
    await firstValueFrom(rec.market.trades(SYMBOL).pipe(filter(() => live.length > seen), timeout(5000)));
    user.unsubscribe();
    const recording = await loadRecording(dir);
    expect(recording.corrupt).toEqual([]);
    expect(frames(recording.events, 'trade')).toBeGreaterThan(0);
  });
});

function frames(events: ReadonlyArray<{ k: string; d?: unknown }>, topic: string): number {
  return events.filter((e) => e.k === 'f' && typeof e.d === 'string' && e.d.includes(`"topic":"${topic}"`)).length;
}
