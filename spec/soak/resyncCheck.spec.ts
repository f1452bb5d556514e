import { filter, firstValueFrom, type Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import type { Simulator } from '../../lib/simulator';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { userStream } from '../../lib/user/userStream';
import { resyncCheck, type ResyncSeen, type SoakNumbers } from './checks';

/** The soak's resync check on its own, against the simulator: it passes on a healed state and fails on a stale one. */
describe('resyncCheck', () => {
  let sim: Simulator;
  let rest: RestClient;
  const subs: Subscription[] = [];

  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0, seed: 5 });
    rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
  });
  afterEach(async () => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    await sim.close();
  });

  const place = async (price: `${number}`): Promise<string> =>
    (await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001' }))).orderId;

  it("passes when orders$ and balances$ equal the simulator's books, fails on a stale or unsynced state", async () => {
    const user = userStream({ url: sim.privateStreamUrl, rest, WebSocketCtor: WebSocket as unknown as WebSocketCtor, reorder: { maxDelayMs: 20 } });
    const seen: { -readonly [K in keyof ResyncSeen]: ResyncSeen[K] } = { syncedEpochs: [] };
    subs.push(
      user.orders$.subscribe((s) => (seen.orders = s)),
      user.balances$.subscribe((s) => {
        seen.balances = s;
        if (s.syncedEpoch !== undefined && !seen.syncedEpochs.includes(s.syncedEpoch)) seen.syncedEpochs.push(s.syncedEpoch);
      }),
    );
    const orderId = await place('2');
    await firstValueFrom(user.orders$.pipe(filter((s) => s.authoritative && s.has(orderId))));
    await firstValueFrom(user.balances$.pipe(filter((s) => s.get('USDT')?.locked !== '0')));
    const numbers = {} as SoakNumbers;
    const ok = await resyncCheck(seen, rest, numbers, { reads: 1 });
    expect(ok).toMatchObject({ ok: true });
    expect(numbers).toMatchObject({ resyncs: 1, resyncOrdersCompared: 1, resyncReads: 1 });
    expect(numbers.resyncBalancesCompared).toBeGreaterThan(1);

    // The consumer stops listening (its state freezes); the order is cancelled on the simulator.
    subs.splice(0).forEach((s) => s.unsubscribe());
    await firstValueFrom(rest.cancelOrder({ orderId }));
    const stale = await resyncCheck(seen, rest, numbers, { reads: 2, pauseMs: 10 });
    expect(stale.ok).toBe(false);
    expect(numbers.resyncReads).toBe(2);
    expect(stale.detail).toMatch(new RegExp(`order ${orderId}: orders\\$ NEW 0 0, simulator CANCELED 0 0`));
    expect(stale.detail).toMatch(new RegExp(`order ${orderId} open in orders\\$, not on the simulator`));
    expect(stale.detail).toMatch(/balance USDT: balances\$ \S+, simulator \S+/);

    const unsynced = await resyncCheck({ ...seen, orders: Object.assign(new Map(), { authoritative: false }) as never }, rest, numbers, { reads: 1 });
    expect(unsynced.detail).toMatch(/orders\$ not authoritative at the end/);
  }, 15_000);
});
