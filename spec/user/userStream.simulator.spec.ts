import { filter, firstValueFrom, map, ReplaySubject, tap, timeout, type Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import type { PrivateEvent } from '../../lib/codecs/privateEvents';
import type { ExecutionReport } from '../../lib/codecs/executionReport';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { Simulator } from '../../lib/simulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { ConnectionClosedError } from '../../lib/errors';
import type { ListenKeyApi } from '../../lib/user/listenKey';
import { until } from '../helpers/until';
import { connectionOf } from './fixtures';
import { privateEventKey } from '../../lib/user/privateEventKey';
import { userStream, type UserStream, type UserStreamConfig } from '../../lib/user/userStream';

describe('userStream (simulator)', () => {
  let sim: Simulator;
  let rest: RestClient;
  const subs: Subscription[] = [];

  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0, seed: 3 });
    rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
  });
  afterEach(async () => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    await sim.close();
  });

  const stream = (over: Partial<UserStreamConfig> = {}): UserStream =>
    userStream({
      url: sim.privateStreamUrl,
      rest,
      WebSocketCtor: WebSocket as unknown as WebSocketCtor,
      reorder: { maxDelayMs: 50 },
      connection: { reconnect: { minDelayMs: 20, maxDelayMs: 100 } },
      ...over,
    });

  const opened = (user: UserStream, epoch = 1) =>
    firstValueFrom(connectionOf(user).pipe(filter((s) => s.type === 'open' && s.epoch >= epoch)));

  /** A BUY far above the market: fills at once as a taker. */
  const buy = (quantity = '0.001') =>
    firstValueFrom(
      rest.request<{ orderId: string }>({
        method: 'POST',
        path: '/api/v1/spot/order',
        security: 'TRADE',
        body: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity, price: '1000000' },
      }),
    ).then((r) => String(r.orderId));

  it('shows a placed order going PENDING_NEW → NEW → FILLED, with balances', async () => {
    const user = stream();
    const statuses: string[] = [];
    const reports = new ReplaySubject<ExecutionReport>();
    subs.push(user.executionReports$.subscribe((r) => (statuses.push(r.X), reports.next(r))));
    await opened(user);
    const orderId = await buy();
    const order = await firstValueFrom(
      user.orders$.pipe(
        map((orders) => orders.get(orderId)),
        filter((o) => o?.status === 'FILLED'),
      ),
    );
    expect(order).toMatchObject({ orderId, symbol: 'BTCUSDT', side: 'BUY', filledQuantity: '0.001' });
    expect(order!.averagePrice).toMatch(/^\d+(\.\d+)?$/);
    // orders$ folds on arrival; the reports come out of the 50 ms hold after it, in E order.
    await firstValueFrom(reports.pipe(filter((r) => r.i === orderId && r.X === 'FILLED'), timeout(5000)));
    expect(statuses.slice(0, 2)).toEqual(['PENDING_NEW', 'NEW']); // as the venue reports a placement
    // The account update may come after the FILLED report (held a little longer by the reorder buffer): wait for
    // the first BTC balance that moved from the starting 10, then check it is the fill's.
    const balances = await firstValueFrom(
      user.balances$.pipe(
        filter((b) => b.has('BTC') && b.has('USDT') && b.get('BTC')!.free !== '10'),
        timeout(5000),
      ),
    );
    expect(balances.get('BTC')!.free).toMatch(/^10\.001/);
  });

  it('delivers events in E order without duplicates when the service reorders and duplicates them', async () => {
    const user = stream({ reorder: { maxDelayMs: 150 } });
    const events: PrivateEvent[] = [];
    const decodeErrors: Error[] = [];
    subs.push(user.events$.subscribe((e) => events.push(e)));
    subs.push(user.errors$.subscribe((e) => decodeErrors.push(e)));
    await opened(user);
    sim.privateChaos({ duplicateProbability: 0.5, reorderWindowMs: 60 });
    const ids: string[] = [];
    for (let k = 0; k < 5; k++) ids.push(await buy());
    await firstValueFrom(user.orders$.pipe(filter((o) => ids.every((id) => o.get(id)?.status === 'FILLED'))));
    // 6 events per taker order: PENDING_NEW, NEW, lock, FILLED, ticket, balances (sent() counts chaos duplicates too)
    const isNew = (e: PrivateEvent) => e.e === 'executionReport' && e.X === 'NEW';
    await waitFor(() => events.filter((e) => !isNew(e)).length >= 25);
    expect(decodeErrors).toEqual([]);
    expect(events.length).toBe(30);
    const keys = events.map(privateEventKey);
    expect(new Set(keys).size).toBe(keys.length);
    const times = events.map((e) => e.E!);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('recovers on a new key when the service expires the key', async () => {
    const user = stream();
    const errors: string[] = [];
    subs.push(user.events$.subscribe(), user.errors$.subscribe((e) => errors.push(`${e.message} ${JSON.stringify(e)}`)));
    await opened(user);
    const firstKey = sim.activeListenKey()!;
    const gap = firstValueFrom(user.gaps$);
    expect(sim.expireListenKey()).toBe(true);
    await expect(gap).resolves.toMatchObject({ epoch: 2, keyChanged: true });
    expect(sim.activeListenKey()).not.toBe(firstKey);
    const orderId = await buy();
    await firstValueFrom(user.orders$.pipe(filter((o) => o.get(orderId)?.status === 'FILLED')));
    expect(errors.join('\n')).not.toContain(firstKey);
    expect(errors.join('\n')).not.toContain(sim.activeListenKey()!);
  });

  it('reconnects after a stall and signals the gap', async () => {
    const user = stream({ connection: { heartbeatTimeoutMs: 300, pingIntervalMs: 100, reconnect: { minDelayMs: 20 } } });
    subs.push(user.events$.subscribe());
    await opened(user);
    const reconnecting = firstValueFrom(connectionOf(user).pipe(filter((s) => s.type === 'reconnecting')));
    sim.stall({ stream: 'private' });
    await reconnecting;
    sim.resume();
    const gap = await firstValueFrom(user.gaps$);
    expect(gap).toMatchObject({ epoch: 2, keyChanged: false });
    expect(gap.reconnectedAt).toBeGreaterThanOrEqual(gap.downSince);
    const orderId = await buy();
    await firstValueFrom(user.orders$.pipe(filter((o) => o.get(orderId)?.status === 'FILLED')));
  });

  it('shares one socket and closes it, and the key, after the last unsubscribe', async () => {
    const user = stream();
    subs.push(user.events$.subscribe(), user.orders$.subscribe());
    await opened(user);
    subs.push(connectionOf(user).subscribe());
    expect(sim.observed().accepted.private).toBe(1);
    const key = sim.activeListenKey();
    expect(key).toBeDefined();
    subs.splice(0).forEach((s) => s.unsubscribe());
    await waitFor(() => sim.observed().connections.private === 0 && sim.activeListenKey() === undefined);
  });

  it('200 quick subscribe/unsubscribe cycles: no DELETE rejected, no 4001 after an open, no key left undeleted', async () => {
    const rejectedDeletes: unknown[] = [];
    const keyCloses: unknown[] = [];
    let deletes = 0;
    // The rest client, with its DELETE answers watched (the same object for every stream: one account).
    const api: ListenKeyApi = {
      createListenKey: () => rest.createListenKey(),
      extendListenKey: (key) => rest.extendListenKey(key),
      closeListenKey: (key) => {
        deletes += 1;
        return rest.closeListenKey(key).pipe(tap({ error: (e: unknown) => rejectedDeletes.push(e) }));
      },
    };
    for (let i = 0; i < 200; i++) {
      const user = stream({ rest: api });
      const cycle = [
        user.errors$.subscribe((e) => {
          if (e instanceof ConnectionClosedError && e.code === 4001) keyCloses.push(e);
        }),
        user.events$.subscribe(),
      ];
      // every other cycle waits for the open; the others leave 0-30 ms after subscribing (often mid-POST)
      if (i % 2 === 0) await opened(user);
      else await new Promise((r) => setTimeout(r, i % 31));
      cycle.forEach((sub) => sub.unsubscribe());
    }
    await waitFor(() => sim.activeListenKey() === undefined && sim.observed().connections.private === 0);
    expect(rejectedDeletes).toEqual([]);
    expect(keyCloses).toEqual([]);
    expect(deletes).toBeGreaterThan(0);
  }, 30_000);
});

/** Polls a condition of the simulator (which has no event for it), up to 5 s. */
const waitFor = (condition: () => boolean): Promise<void> => until(condition, 'the condition', 5000);
