// Binary frames in gzip form (what a probe of the live service saw) through the public API: the simulator sends
// gzip, marketStreams reads it by its magic bytes, with its CRC-32 checked.
import { firstValueFrom, take, toArray } from 'rxjs';
import { WebSocket } from 'ws';
import { marketStreams } from '../../lib/market/marketStreams';
import type { Simulator } from '../../lib/simulator';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { nodeInflateRaw } from '../../lib/node/nodeInflateRaw';

describe('gzip binary frames (simulator, real sockets)', () => {
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], seed: 3, binaryContainer: 'gzip', periodsMs: { depth: 20, trade: 20 }, marketStepMs: 20 });
  });
  afterEach(() => sim.close());

  it.each([
    ['fflate (the default)', undefined],
    ['native zlib (nodeInflateRaw)', nodeInflateRaw],
  ])('depth and trades decode from gzip frames, %s', async (_name, inflateRaw) => {
    const market = marketStreams({
      url: sim.publicStreamUrl,
      WebSocketCtor: WebSocket as unknown as WebSocketCtor,
      binary: true,
      ...(inflateRaw === undefined ? {} : { connection: { inflateRaw } }),
    });
    const errors: Error[] = [];
    const sub = market.errors$.subscribe((e) => errors.push(e));
    try {
      const books = await firstValueFrom(market.depth('BTCUSDT').pipe(take(3), toArray()));
      expect(books.every((b) => b.s === 'BTCUSDT' && b.a.length > 0 && b.b.length > 0)).toBe(true);
      const trades = await firstValueFrom(market.trades('BTCUSDT').pipe(take(1)));
      expect(trades.p).toMatch(/^\d+(\.\d+)?$/);
      expect(sim.observed().subscriptions.every((s) => s.binary)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      sub.unsubscribe();
    }
  });
});
