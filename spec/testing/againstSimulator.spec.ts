// The "Testing against real sockets" examples of docs/testing.md, run against the simulator.
import { distinctUntilChanged, filter, firstValueFrom, map, type Observable } from 'rxjs';
import { WebSocket } from 'ws';
import { type MarketStreams, marketStreams, orderBook } from '../../lib/index';
import { startSimulator, type Simulator } from '../../lib/simulator/index';

/** The application code of spreadAlert.spec.ts. */
function spreadAlert(market: MarketStreams, symbol: string, maxSpread: number): Observable<{ symbol: string; spread: string }> {
  return market.depth(symbol).pipe(
    orderBook({ levels: 1 }),
    map((book) => book.spread),
    filter((spread): spread is string => spread !== undefined),
    map((spread) => ({ spread, wide: Number(spread) > maxSpread })),
    distinctUntilChanged((a, b) => a.wide === b.wide),
    filter(({ wide }) => wide),
    map(({ spread }) => ({ symbol, spread })),
  );
}

describe('testing against the simulator (docs/testing.md)', () => {
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], seed: 1, periodsMs: { depth: 20 } });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('alerts on a real feed', async () => {
    const market = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket, connection: { reconnect: { minDelayMs: 20 } } });
    const alert = await firstValueFrom(spreadAlert(market, 'BTCUSDT', 0));
    expect(alert.symbol).toBe('BTCUSDT');
    expect(sim.observed().subscriptions.map((s) => s.topic)).toEqual(['depth']);
  });

  it('survives a drop', async () => {
    const market = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket, connection: { reconnect: { minDelayMs: 20 } } });
    const sub = market.depth('BTCUSDT').subscribe();
    await firstValueFrom(market.depthMessages('BTCUSDT')); // connected and subscribed
    sim.drop({ stream: 'public' });
    const after = await firstValueFrom(market.depthMessages('BTCUSDT').pipe(filter((m) => m.epoch === 2)));
    expect(after.first).toBe(true); // resubscribed on the new socket
    sub.unsubscribe();
    expect(sim.observed().subscriptions).toHaveLength(2);
  });
});
