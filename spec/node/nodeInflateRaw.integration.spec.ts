import { firstValueFrom, skip, take, toArray, type Subscription } from 'rxjs';
import { marketStreams } from '../../lib/market/marketStreams';
import { nodeInflateRaw } from '../../lib/node/nodeInflateRaw';
import { nodeWebSocket } from '../../lib/node/nodeWebSocket';
import { startSimulator, type Simulator } from '../../lib/simulator';
import type { RawInflater } from '../../lib/frame/frameLimits';
import type { UserStreamConfig } from '../../lib/user/userStream';

describe('nodeInflateRaw (simulator)', () => {
  let sim: Simulator;
  const subscriptions: Subscription[] = [];

  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], seed: 5, periodsMs: { kline: 20, realtimes: 20, trade: 20, depth: 20 }, marketStepMs: 10, depthLevels: 20 });
  });
  afterEach(async () => {
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    await sim.close();
  });

  it('decodes the zip depth frames of marketStreams({ binary: true }) over nodeWebSocket', async () => {
    let inflated = 0;
    const inflateRaw: RawInflater = (deflated, size) => {
      inflated += 1;
      return nodeInflateRaw(deflated, size);
    };
    const market = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: nodeWebSocket, binary: true, connection: { inflateRaw } });
    const errors: Error[] = [];
    subscriptions.push(market.errors$.subscribe((e) => errors.push(e)));
    const books = await firstValueFrom(market.depth('BTCUSDT').pipe(skip(1), take(3), toArray()));
    for (const book of books) {
      expect(book.a).toHaveLength(20);
      expect(book.b).toHaveLength(20);
      expect(Number(book.a[0]![0])).toBeGreaterThan(Number(book.b[0]![0])); // best ask above best bid
    }
    expect(inflated).toBeGreaterThanOrEqual(4);
    expect(sim.observed().subscriptions.map((s) => `${s.symbol} ${s.topic} ${s.binary}`)).toEqual(['BTCUSDT depth true']);
    expect(errors).toEqual([]);
  });

  it('is accepted by userStream too (type check)', () => {
    const connection: UserStreamConfig['connection'] = { inflateRaw: nodeInflateRaw };
    expect(connection?.inflateRaw).toBe(nodeInflateRaw);
  });
});
