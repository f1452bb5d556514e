import { filter, firstValueFrom, type Observable, type Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import { DecodeError } from '../../lib/errors';
import { marketStreams } from '../../lib/market/marketStreams';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { MALFORMED_FRAMES, wrongShapedFrames } from '../../lib/simulator/chaos/badFrames';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { until } from '../helpers/until';

describe('bad frames on one stream never harm another (marketStreams over a real socket)', () => {
  let sim: Simulator;
  const subs: Subscription[] = [];

  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT', 'ETHUSDT'], seed: 4, periodsMs: { trade: 30, depth: 30, kline: 30, realtimes: 30 }, marketStepMs: 20, depthLevels: 5 });
  });
  afterEach(async () => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    await sim.close();
  });

  it('every malformed and wrong-shaped frame becomes at most a DecodeError; all topics keep flowing on the same socket', async () => {
    const market = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket as unknown as WebSocketCtor });
    const counts = new Map<string, number>();
    const errors: Error[] = [];
    const ended: string[] = [];
    const watch = (name: string, source: Observable<unknown>): void => {
      subs.push(source.subscribe({ next: () => counts.set(name, (counts.get(name) ?? 0) + 1), error: () => ended.push(name), complete: () => ended.push(name) }));
    };
    watch('BTCUSDT trade', market.trades('BTCUSDT'));
    watch('ETHUSDT depth', market.depth('ETHUSDT', { binary: true }));
    watch('BTCUSDT depth', market.depth('BTCUSDT'));
    subs.push(market.errors$.subscribe((e) => errors.push(e)));
    await firstValueFrom(market.status$.pipe(filter((s) => s.topics === 3 && s.connection.type === 'open')));
    await until(() => counts.size === 3, () => `a value of each topic (have ${[...counts.keys()].join(', ')})`);
    const frames = [...MALFORMED_FRAMES.map((f) => f()), ...wrongShapedFrames('public', 'BTCUSDT', sim.serverTime()), ...wrongShapedFrames('public', 'ETHUSDT', sim.serverTime())];
    for (const frame of frames) sim.sendRaw({ stream: 'public', data: frame.data });
    const before = new Map(counts);
    const flowing = (): boolean => [...counts].every(([name, n]) => n > before.get(name)!);
    await until(flowing, () => `every topic flowing: ${[...counts].map(([name, n]) => `${name} ${n > before.get(name)! ? 'flowing' : `stuck at ${n}`}`).join(', ')}`, 3000);
    expect(ended).toEqual([]);
    expect(sim.observed().accepted.public).toBe(1); // the same socket: nothing forced a reconnect
    expect(errors.length).toBeGreaterThanOrEqual(MALFORMED_FRAMES.length);
    expect(errors.every((e) => e instanceof DecodeError)).toBe(true);
  });
});
