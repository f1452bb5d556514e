import { firstValueFrom, type Subscription, timeout } from 'rxjs';
import { WebSocket } from 'ws';
import { marketStreams } from '../../lib/market/marketStreams';
import { restClient } from '../../lib/rest/restClient';
import { startSimulator, type Simulator } from '../../lib/simulator';

/**
 * Integration, real sockets: a simulator whose clock is 2 s behind the local one (the local clock 2 s ahead).
 * With `marketStreams({ rest })` the public stream's pongs set the REST client's signing clock: a signed call
 * succeeds without asking `GET /api/v1/time`.
 */
describe('marketStreams rest: signing on the clock of the public pongs (simulator)', () => {
  let sim: Simulator;
  const subscriptions: Subscription[] = [];
  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], seed: 5, clockSkewMs: -2000, periodsMs: { depth: 50 } });
  });
  afterEach(async () => {
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    await sim.close();
  });

  /** A REST client on the simulator that records the path of every HTTP call it makes. */
  const recordingClient = () => {
    const paths: string[] = [];
    const rest = restClient({
      baseUrl: sim.baseUrl,
      apiKey: sim.apiKey,
      secretKey: sim.secretKey,
      fetch: (input, init) => {
        paths.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
        return fetch(input, init);
      },
    });
    return { rest, paths };
  };

  it('feeds the pongs to rest.clockSample: the signed call is on the service clock with no time call', async () => {
    const { rest, paths } = recordingClient();
    const market = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket, rest });
    subscriptions.push(market.depth('BTCUSDT').subscribe());
    await firstValueFrom(market.serverClock.samples$.pipe(timeout(5000)));
    expect(rest.serverTimeOffsetMs()).toBeGreaterThan(-2100);
    expect(rest.serverTimeOffsetMs()).toBeLessThan(-1900);
    const account = await firstValueFrom(rest.account());
    expect(Array.isArray(account.balances)).toBe(true);
    expect(paths).toEqual(['/api/v1/account']);
  });

  it('control: without rest, the same client asks GET /api/v1/time before its first signed call', async () => {
    const { rest, paths } = recordingClient();
    const market = marketStreams({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket });
    subscriptions.push(market.depth('BTCUSDT').subscribe());
    await firstValueFrom(market.serverClock.samples$.pipe(timeout(5000)));
    expect(rest.serverTimeOffsetMs()).toBe(0);
    await firstValueFrom(rest.account());
    expect(paths).toEqual(['/api/v1/time', '/api/v1/account']);
  });
});
