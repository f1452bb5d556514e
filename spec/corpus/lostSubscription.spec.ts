import { filter, firstValueFrom, type Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import { marketStreams } from '../../lib/market/marketStreams';
import { startSimulator, type Simulator } from '../../lib/simulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { sleep, until } from '../helpers/until';

describe('marketStreams: a sub frame the service never answers', () => {
  let sim: Simulator;
  let sub: Subscription | undefined;
  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], periodsMs: { depth: 50 }, marketStepMs: 50, depthLevels: 5 });
  });
  afterEach(async () => {
    sub?.unsubscribe();
    await sim.close();
  });

  // Found by the chaos soak (seed 1, 180 s): the client reconnected into a stalled server that dropped the
  // `sub` of the new socket; once the stall ended, heartbeats were answered, so the socket looked healthy,
  // but no topic was ever subscribed again and every topic stayed silent for good. The protocol has no
  // acknowledgement, so only a per-topic watchdog (no first message within `subscribeTimeoutMs` of a `sub` →
  // send it again) can notice.
  it('resubscribes a topic whose subscription was lost, even though the socket stays healthy', async () => {
    const market = marketStreams({
      url: sim.publicStreamUrl,
      WebSocketCtor: WebSocket as unknown as WebSocketCtor,
      connection: { pingIntervalMs: 200, heartbeatTimeoutMs: 1500, reconnect: { minDelayMs: 20, maxDelayMs: 40 } },
      subscribeTimeoutMs: 1000,
    });
    let messages = 0;
    sub = market.depth('BTCUSDT').subscribe(() => (messages += 1));
    await firstValueFrom(market.status$.pipe(filter((s) => s.connection.type === 'open')));
    await until(() => messages > 0, 'a depth message');
    sim.stall({ stream: 'public' }); // client frames are dropped while stalled: the next `sub` is lost
    sim.drop({ stream: 'public' });
    await firstValueFrom(market.status$.pipe(filter((s) => s.connection.type === 'open' && s.connection.epoch === 2)));
    await sleep(100); // the `sub` of epoch 2 has reached the stalled server and been dropped
    sim.resume(); // pongs flow again: the connection stays open
    const before = messages;
    const resubscribed = await firstValueFrom(market.status$.pipe(filter((s) => s.resubscribes > 0)));
    await until(() => messages > before, 'a depth message after the resubscription');
    expect(resubscribed.connection).toMatchObject({ type: 'open', epoch: 2 });
    expect(sim.observed().accepted.public).toBe(2); // no further reconnect happened
  }, 10_000);
});
