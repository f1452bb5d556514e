import { firstValueFrom, take, toArray, timeout } from 'rxjs';
import { WebSocket } from 'ws';
import { forwardingMarketStreams } from '../../lib/market/marketStreams';
import type { MarketMessage } from '../../lib/market/marketMessage';
import { startSimulator, type Simulator } from '../../lib/simulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';

/** `ws`, with every frame the client sends kept (parsed). */
function sending(sent: Record<string, unknown>[]): WebSocketCtor {
  class Recording extends WebSocket {
    override send(data: unknown, ...rest: unknown[]): void {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if (frame['ping'] === undefined) sent.push(frame);
      (super.send as (...args: unknown[]) => void)(data, ...rest);
    }
  }
  return Recording as unknown as WebSocketCtor;
}

// The holds a gateway makes (forwardingMarketStreams: what the Redis relay's publishMarket runs on), over the V2 stream.
describe('forwardingMarketStreams over the V2 stream (real sockets, the simulator)', () => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.close();
  });

  it('holds bbo and depth (every 100 ms) with one symbol a V2 sub frame, each message with its envelope facts, no errors', async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT', 'ETHUSDT'], seed: 3, depthLevels: 20 });
    const sent: Record<string, unknown>[] = [];
    const market = forwardingMarketStreams({ url: sim.publicStreamV2Url, WebSocketCtor: sending(sent) });
    const errors: Error[] = [];
    const errorSubscription = market.errors$.subscribe((e) => errors.push(e));
    try {
      const started = Date.now();
      const [books, tops, other] = await Promise.all([
        firstValueFrom(market.hold('BTCUSDT', 'depth').pipe(take(11), toArray(), timeout(10_000))),
        firstValueFrom(market.hold('BTCUSDT', 'bbo').pipe(take(5), toArray(), timeout(10_000))),
        firstValueFrom(market.hold('ETHUSDT', 'depth').pipe(take(3), toArray(), timeout(10_000))),
      ]);
      // eleven books of one pair: ten periods of 100 ms (the V1 stream's 300 ms would take 3 s)
      expect(Date.now() - started).toBeLessThan(2_900);
      const facts = (m: MarketMessage<unknown>) => ({ symbol: m.symbol, topic: m.topic, epoch: m.epoch });
      expect(books.map(facts)).toEqual(Array(11).fill({ symbol: 'BTCUSDT', topic: 'depth', epoch: 1 }));
      expect(tops.map(facts)).toEqual(Array(5).fill({ symbol: 'BTCUSDT', topic: 'bbo', epoch: 1 }));
      expect(other.map(facts)).toEqual(Array(3).fill({ symbol: 'ETHUSDT', topic: 'depth', epoch: 1 }));
      // V2 requests: one symbol a frame, no id, no binary
      const subs = sent.filter((f) => f['event'] === 'sub');
      expect(subs).toHaveLength(3);
      expect(subs).toEqual(
        expect.arrayContaining([
          { topic: 'depth', event: 'sub', params: { symbol: 'BTCUSDT' } },
          { topic: 'bbo', event: 'sub', params: { symbol: 'BTCUSDT' } },
          { topic: 'depth', event: 'sub', params: { symbol: 'ETHUSDT' } },
        ]),
      );
      const status = await firstValueFrom(market.status$);
      expect(status.decodeErrors).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      errorSubscription.unsubscribe();
    }
  });
});
