import { firstValueFrom, map, type Subscription, timeout } from 'rxjs';
import { WebSocket } from 'ws';
import type { KlineRecord } from '../../lib/codecs/kline';
import { marketStreams, type MarketStreams } from '../../lib/market/marketStreams';
import { closedCandles } from '../../lib/operators/closedCandles';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import { manualClock, startSimulator, type ManualClock, type Simulator } from '../../lib/simulator';

/**
 * Integration: `klines(…, { history })` against the simulator, on real sockets. The simulator's clock is manual and
 * starts 10 s into a minute, so its trade history (the 30 s before start) made a candle in the minute before.
 */
describe('marketStreams klines with history (simulator)', () => {
  const SYMBOL = 'BTCUSDT';
  const MIN = 60_000;
  const T0 = 1_700_000_040_000 + 10_000; // 10 s into a minute
  let clock: ManualClock;
  let sim: Simulator;
  let rest: RestClient;
  let market: MarketStreams;
  let subscription: Subscription | undefined;

  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, symbols: [SYMBOL], seed: 7, marketStepMs: 3000 });
    rest = restClient({ baseUrl: sim.baseUrl });
    market = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket, klineHistory: { rest } });
  });
  afterEach(async () => {
    subscription?.unsubscribe();
    await sim.close();
  });

  const waitFor = async (done: () => boolean): Promise<void> => {
    for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    if (!done()) throw new Error('waitFor: timed out');
  };
  const prices = (k: Pick<KlineRecord, 'o' | 'h' | 'l' | 'c' | 'v'>): string[] => [k.o, k.h, k.l, k.c, k.v];

  it('joins the closed candles of GET /quote/v1/klines to the live ones with no hole and no duplicate, and both agree', async () => {
    const seen: KlineRecord[] = [];
    // the same shared subscription: its first message is the first live candle of `klines`
    const firstLive = firstValueFrom(market.klineMessages(SYMBOL, '1m').pipe(map((m) => m.data[0]?.t), timeout(5000)));
    subscription = market.klines(SYMBOL, '1m', { history: 3 }).subscribe((k) => seen.push(k));
    const T = await firstLive;
    expect(T).toBe(T0 - 10_000);
    await waitFor(() => seen.some((k) => k.t === T));

    const history = seen.filter((k) => k.t < (T ?? 0));
    expect(history.length).toBeGreaterThan(0);
    expect(seen[history.length]?.t).toBe(T);
    expect((history[history.length - 1]?.t ?? 0) + MIN).toBe(T); // the seam: the last closed candle is the one before
    expect(seen.filter((k) => k.t === T)).toHaveLength(1); // the open candle once, from the stream

    // five minutes of market: every candle the stream showed closed as GET /quote/v1/klines shows it
    clock.advance(5 * MIN);
    const open = T0 - 10_000 + 5 * MIN;
    await waitFor(() => seen.some((k) => k.t === open));
    const live = new Map<number, string[]>();
    for (const k of seen.filter((c) => c.t >= (T ?? 0) && c.t < open)) live.set(k.t, prices(k));
    const served = await firstValueFrom(rest.klines({ symbol: SYMBOL, interval: '1m', startTime: T, endTime: open - 1 }));
    expect(live.size).toBe(5);
    expect(new Map(served.map((k) => [k.t, prices(k)]))).toEqual(live);

    // a second observer asking for history now gets those five closed candles, then the open one
    const later: KlineRecord[] = [];
    const second = market.klines(SYMBOL, '1m', { history: 5 }).subscribe((k) => later.push(k));
    clock.advance(1000); // the next push of the shared subscription: its first live candle
    await waitFor(() => later.length >= 6);
    second.unsubscribe();
    expect(later.slice(0, 5).map((k) => k.t)).toEqual([0, 1, 2, 3, 4].map((i) => T! + i * MIN));
    expect(later[5]?.t).toBe(open);
  });

  it('across a forced reconnect with candles missed: fetches them, and the downstream sees every candle once, in its final version', async () => {
    market = marketStreams({
      url: sim.publicStreamUrl,
      WebSocketCtor: WebSocket,
      klineHistory: { rest },
      connection: { reconnect: { minDelayMs: 20, maxDelayMs: 50 } },
    });
    const seen: KlineRecord[] = [];
    const closed: KlineRecord[] = [];
    const epochs: number[] = [];
    const candles = market.klines(SYMBOL, '1m', { history: 2 });
    subscription = candles.subscribe((k) => seen.push(k));
    subscription.add(candles.pipe(closedCandles()).subscribe((k) => closed.push(k)));
    subscription.add(market.status$.subscribe((s) => epochs.push(s.connection.epoch)));
    const T = T0 - 10_000; // the first live candle's open time (the clock starts 10 s into its minute)
    await waitFor(() => seen.some((k) => k.t === T));

    // a minute and a half of market: the candle of T + 1 min is open when the socket drops
    clock.advance(MIN + 30_000);
    await waitFor(() => seen.some((k) => k.t === T + MIN));
    const refetchesBefore = (await firstValueFrom(market.status$)).klineRefetches;
    const shownOpen = seen.filter((k) => k.t === T + MIN).pop();
    sim.drop({ stream: 'public' });
    // three minutes pass while the client is away: T + 1 min closes unseen, T + 2 and T + 3 min are missed whole
    clock.advance(3 * MIN);
    await waitFor(() => epochs.includes(2) && seen.some((k) => k.t === T + 4 * MIN));
    // one more minute closes T + 4 min: every candle from T - 2 min (the history of 2: the simulator serves one of
    // any length, issue 40) to T + 4 min closed once, in order
    clock.advance(MIN);
    await waitFor(() => closed.some((k) => k.t === T + 4 * MIN));

    const times = closed.map((k) => k.t);
    expect(times).toEqual([-2, -1, 0, 1, 2, 3, 4].map((i) => T + i * MIN));
    // each closed as the service serves it (the final version of T + 1 min too, though the stream last showed it open)
    const served = await firstValueFrom(rest.klines({ symbol: SYMBOL, interval: '1m', startTime: T - 2 * MIN, endTime: T + 4 * MIN }));
    expect(closed.map(prices)).toEqual(served.map(prices));
    // T + 1 min traded on after the drop (seed 7): its final version is not the open one the stream last showed
    expect(prices(closed[3]!)).not.toEqual(prices(shownOpen!));
    const status = await firstValueFrom(market.status$);
    expect(status.klineRefetches - refetchesBefore).toBe(1);
    expect(status.klineGaps).toBe(0);
    // the raw stream: open times never go back except to repeat the last candle once (its final version)
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.t).toBeGreaterThanOrEqual(seen[i - 1]!.t);
  });
});
