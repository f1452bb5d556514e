import { filter, firstValueFrom, map, Subject, type Subscription, timeout } from 'rxjs';
import { WebSocket } from 'ws';
import type { TradeRecord } from '../../lib/codecs/trade';
import { compareDecimal } from '../../lib/decimal/compare';
import type { MarketMessage } from '../../lib/market/marketMessage';
import { marketStreams, type MarketStreams } from '../../lib/market/marketStreams';
import type { TradeGap } from '../../lib/operators/distinctTrades';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import { startSimulator, type Simulator } from '../../lib/simulator';

/**
 * Integration: trade gaps filled over HTTP against the simulator, on real sockets. The market moves only when
 * the test injects trades, so what happens while the public socket is down is exact.
 */
describe('marketStreams tradeBackfill (simulator)', () => {
  const SYMBOL = 'BTCUSDT';
  let sim: Simulator;
  let rest: RestClient;
  let market: MarketStreams;
  const subscriptions: Subscription[] = [];

  beforeEach(async () => {
    sim = await startSimulator({ symbols: [SYMBOL], seed: 7, periodsMs: { trade: 20 }, marketStepMs: 3_600_000 });
    rest = restClient({ baseUrl: sim.baseUrl });
  });
  afterEach(async () => {
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    await sim.close();
  });

  /** Subscribes `trades(SYMBOL)`, the epoch-2 replay and `gaps$`; `until(id)` resolves once `id` was delivered. */
  function watch(m: MarketStreams) {
    const delivered: TradeRecord[] = [];
    const gaps: TradeGap[] = [];
    const arrived = new Subject<string>();
    subscriptions.push(m.gaps$.subscribe((g) => gaps.push(g)));
    subscriptions.push(
      m.trades(SYMBOL).subscribe((t) => {
        delivered.push(t);
        arrived.next(t.v);
      }),
    );
    const replay = firstValueFrom(m.tradeMessages(SYMBOL).pipe(filter((msg: MarketMessage<TradeRecord>) => msg.epoch === 2 && msg.first)));
    const until = (id: string): Promise<unknown> =>
      delivered.some((t) => t.v === id) ? Promise.resolve() : firstValueFrom(arrived.pipe(filter((v) => v === id), timeout(5000)));
    return { delivered, gaps, replay, until };
  }

  const latestIds = async (limit: number): Promise<string[]> =>
    (await firstValueFrom(rest.trades({ symbol: SYMBOL, limit }))).map((t) => t.v ?? '');
  const inject = async (n: number, price: string): Promise<string> => {
    for (let i = 0; i < n; i++) sim.injectTrade({ symbol: SYMBOL, price });
    return (await latestIds(1))[0] ?? '';
  };

  /** Plays: first replay, 5 live trades, the socket dropped, 75 trades while down, 5 live trades after. */
  async function dropWhileTrading(m: MarketStreams) {
    const w = watch(m);
    await w.until((await latestIds(1))[0] ?? '');
    const price = w.delivered[w.delivered.length - 1]?.p ?? '1';
    await w.until(await inject(5, price));
    const lastBeforeDrop = w.delivered[w.delivered.length - 1]?.v ?? '';
    sim.drop({ stream: 'public' });
    for (let i = 0; i < 75; i++) sim.injectTrade({ symbol: SYMBOL, price }); // more than the 60 a replay repeats
    const replay = await w.replay;
    await w.until(await inject(5, price));
    return { ...w, lastBeforeDrop, replay };
  }

  it('delivers every trade once and in order across a drop that missed more than a replay, and signals no gap', async () => {
    market = marketStreams({
      url: sim.publicStreamUrl,
      WebSocketCtor: WebSocket,
      connection: { reconnect: { minDelayMs: 100, random: () => 0.5 } },
      tradeBackfill: { rest },
    });
    const { delivered, gaps, replay, lastBeforeDrop } = await dropWhileTrading(market);
    // the replay after the reconnect did not reach back: without the fetch, 15 trades would be lost
    expect(replay.data).toHaveLength(60);
    expect(compareDecimal(replay.data[0]?.v ?? '', lastBeforeDrop)).toBe(1);
    const ids = delivered.map((t) => t.v);
    for (let i = 1; i < ids.length; i++) expect(compareDecimal(ids[i] ?? '', ids[i - 1] ?? '')).toBe(1);
    // the service's last 100 trades (85 since the drop) are the last 100 delivered, none missing
    expect(ids.slice(-100)).toEqual(await latestIds(100));
    // every trade the simulator wrote to a socket was delivered
    const sent = sim.sent().trades[SYMBOL]?.ids ?? [];
    expect(sent.filter((id) => !ids.includes(id))).toEqual([]);
    expect(gaps).toEqual([]);
    let tradeGaps = -1;
    market.status$.pipe(map((s) => s.tradeGaps)).subscribe((n) => (tradeGaps = n)).unsubscribe();
    expect(tradeGaps).toBe(0);
  });

  it('without tradeBackfill the same drop is signalled as a gap (the scenario does lose trades)', async () => {
    market = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket, connection: { reconnect: { minDelayMs: 100, random: () => 0.5 } } });
    const { delivered, gaps, lastBeforeDrop } = await dropWhileTrading(market);
    expect(gaps).toEqual([{ symbol: SYMBOL, lastSeenId: lastBeforeDrop, firstNewId: expect.any(String) as string, epoch: 2 }]);
    expect(delivered.map((t) => t.v).slice(-100)).not.toEqual(await latestIds(100));
  });
});
