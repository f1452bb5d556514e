import { distinct, filter, firstValueFrom, map, merge, type Observable, skip, type Subscription, take, toArray } from 'rxjs';
import { WebSocket } from 'ws';
import type { TradeRecord } from '../../lib/codecs/trade';
import { compareDecimal } from '../../lib/decimal/compare';
import type { MarketMessage } from '../../lib/market/marketMessage';
import { marketStreams, type MarketStreams } from '../../lib/market/marketStreams';
import { startSimulator, type Simulator } from '../../lib/simulator';

const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'ETHBTC'] as const;
const FAST = { kline: 20, realtimes: 20, trade: 20, depth: 20 };

describe('marketStreams (simulator)', () => {
  let sim: Simulator;
  let market: MarketStreams;
  const subscriptions: Subscription[] = [];
  const keep = <A>(source: Observable<A>, next: (a: A) => void = () => undefined): Subscription => {
    const s = source.subscribe({ next, error: (e: unknown) => next(e as A) });
    subscriptions.push(s);
    return s;
  };

  beforeEach(async () => {
    sim = await startSimulator({ symbols: [...SYMBOLS], seed: 3, periodsMs: FAST, marketStepMs: 10, depthLevels: 20 });
    market = marketStreams({
      url: sim.publicStreamUrl,
      WebSocketCtor: WebSocket,
      resubscribeRatePerSecond: 200,
      subscribeBurst: 20,
      connection: { reconnect: { minDelayMs: 20, random: () => 0.5 } },
    });
  });
  afterEach(async () => {
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    await sim.close();
  });

  /** Every topic of `symbol`, each mapped to its name once it emits. */
  const topicsOf = (symbol: string, m: MarketStreams): Observable<string>[] => [
    m.klines(symbol, '1m').pipe(map(() => `${symbol} kline_1m`)),
    m.realtimes(symbol).pipe(map(() => `${symbol} realtimes`)),
    m.trades(symbol).pipe(map(() => `${symbol} trade`)),
    m.depth(symbol).pipe(map(() => `${symbol} depth`)),
  ];

  it('carries 3 symbols × 4 topics over one connection', async () => {
    const all = SYMBOLS.flatMap((s) => topicsOf(s, market));
    const firsts = await Promise.all(all.map((o) => firstValueFrom(o)));
    expect(firsts.sort()).toEqual(SYMBOLS.flatMap((s) => [`${s} depth`, `${s} kline_1m`, `${s} realtimes`, `${s} trade`]).sort());
    const observed = sim.observed();
    expect(observed.accepted.public).toBe(1);
    expect(observed.subscriptions).toHaveLength(12);
    // one sub frame per request topic, its 3 symbols comma-joined (issue 27)
    expect(new Set(observed.subscriptions.map((s) => s.id)).size).toBe(4);
  });

  it('sends exactly one cancel when one topic is left, and the others keep flowing', async () => {
    const first = keep(market.depth('ETHUSDT'));
    const second = keep(market.depth('ETHUSDT')); // same topic, same server subscription
    const others = SYMBOLS.flatMap((s) => topicsOf(s, market)).filter((_, i) => i !== 7); // all but ETHUSDT depth
    for (const o of others) keep(o);
    await Promise.all([...others, market.depth('ETHUSDT').pipe(map(() => 'ETHUSDT depth'))].map((o) => firstValueFrom(o)));
    first.unsubscribe(); // one ETHUSDT depth observer remains: no cancel
    second.unsubscribe(); // the last one: one cancel
    // every other topic still delivers fresh messages after the cancel went out
    await Promise.all(others.map((o) => firstValueFrom(o.pipe(skip(2)))));
    expect(sim.observed().cancels.map((c) => `${c.event} ${c.symbol} ${c.topic}`)).toEqual(['cancel ETHUSDT depth']);
    expect(sim.observed().subscriptions).toHaveLength(12);
    expect(sim.observed().accepted.public).toBe(1);
  });

  it('resumes every topic after a dropped connection without duplicating a trade', async () => {
    const trades: Record<string, TradeRecord[]> = {};
    for (const symbol of SYMBOLS) {
      trades[symbol] = [];
      keep(market.trades(symbol), (t) => trades[symbol]?.push(t));
      keep(market.klines(symbol, '1m'));
      keep(market.realtimes(symbol));
      keep(market.depth(symbol));
    }
    const firstsAfter = (epoch: number): Promise<unknown> =>
      Promise.all(
        SYMBOLS.flatMap((s): Observable<MarketMessage<unknown>>[] => [
          market.klineMessages(s, '1m'),
          market.realtimesMessages(s),
          market.tradeMessages(s),
          market.depthMessages(s),
        ]).map((o) => firstValueFrom(o.pipe(filter((m) => m.epoch === epoch && m.data.length > 0)))),
      );
    await firstsAfter(1);
    const replayed = firstValueFrom(market.tradeMessages('BTCUSDT').pipe(filter((m) => m.epoch === 2 && m.first)));
    const seenBeforeDrop = trades.BTCUSDT?.length ?? 0;
    sim.drop({ stream: 'public' });
    await firstsAfter(2);
    const replay = await replayed;
    // the replay after resubscription repeats trades already emitted: they must not be emitted again
    expect(replay.data.some((t) => compareDecimal(t.v, trades.BTCUSDT?.[seenBeforeDrop - 1]?.v ?? '0') <= 0)).toBe(true);
    for (const symbol of SYMBOLS) {
      const ids = (trades[symbol] ?? []).map((t) => t.v);
      expect(ids.length).toBeGreaterThan(0);
      for (let i = 1; i < ids.length; i++) expect(compareDecimal(ids[i] as string, ids[i - 1] as string)).toBe(1);
    }
    expect(sim.observed().accepted.public).toBe(2);
    expect(sim.observed().subscriptions.filter((s) => s.connection === 2)).toHaveLength(12);
  });

  it('runs binary and JSON subscriptions side by side', async () => {
    const binary = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket, binary: true });
    const got = await firstValueFrom(
      merge(
        binary.depth('BTCUSDT').pipe(map((d) => `zip depth ${d.a.length > 0}`)),
        binary.trades('ETHUSDT', { binary: false }).pipe(map(() => 'json trade')),
        market.realtimes('BTCUSDT', { binary: true }).pipe(map(() => 'zip realtimes')),
        market.klines('ETHBTC', '1m').pipe(map(() => 'json kline')),
      ).pipe(distinct(), take(4), toArray()),
    );
    expect(got.sort()).toEqual(['json kline', 'json trade', 'zip depth true', 'zip realtimes']);
    const flags = sim.observed().subscriptions.map((s) => `${s.symbol} ${s.topic} ${s.binary}`).sort();
    expect(flags).toEqual(['BTCUSDT depth true', 'BTCUSDT realtimes true', 'ETHBTC kline_1m false', 'ETHUSDT trade false']);
  });
});

