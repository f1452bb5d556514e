import { filter, firstValueFrom, type Observable, type Subscription } from 'rxjs';
import { WebSocket } from 'ws';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import type { Simulator } from '../../lib/simulator';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import type { BalancesState } from '../../lib/user/balancesState';
import { OrdersState } from '../../lib/user/ordersState';
import type { StateSync } from '../../lib/user/stateSync';
import { userStream } from '../../lib/user/userStream';
import { simulatorBooks, stateBooks } from '../helpers/books';
import { startTcpProxy, type TcpProxy } from '../helpers/tcpProxy';

/**
 * The resync case on real sockets: the private socket goes through a TCP proxy that cuts it and refuses the
 * reconnections while orders fill, are cancelled and are placed over REST; after the reconnection the
 * stream's own state equals the simulator's books exactly.
 */
describe('userStream resync (simulator, real sockets)', () => {
  let sim: Simulator;
  let proxy: TcpProxy;
  let rest: RestClient;
  const subs: Subscription[] = [];

  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0, seed: 5 });
    proxy = await startTcpProxy(sim.port);
    rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
  });
  afterEach(async () => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    await proxy.close();
    await sim.close();
  });

  const place = async (price: string, quantity = '0.001'): Promise<string> =>
    (await firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: price as `${number}`, quantity: quantity as `${number}` }))).orderId;

  const books = (ids: readonly string[]) => simulatorBooks(rest, ids);
  const state = (orders: OrdersState, balances: BalancesState) => stateBooks(orders, balances);

  const authoritative = <S extends StateSync>(source: Observable<S>, epoch: number): Promise<S> =>
    firstValueFrom(source.pipe(filter((s) => s.authoritative && (s.syncedEpoch ?? 0) >= epoch)));

  it('orders fill, are cancelled and placed while the private socket is down; after the resync orders$ and balances$ equal the books', async () => {
    const user = userStream({
      url: `ws://127.0.0.1:${proxy.port}/api/v1/ws`,
      rest,
      WebSocketCtor: WebSocket as unknown as WebSocketCtor,
      reorder: { maxDelayMs: 20 },
      connection: { reconnect: { minDelayMs: 20, maxDelayMs: 100 } },
      listenKeyOptions: { retryDelayMs: 20, maxRetryDelayMs: 100 },
    });
    let orders: (OrdersState & StateSync) | undefined;
    let balances: (BalancesState & StateSync) | undefined;
    const errors: Error[] = [];
    subs.push(
      user.orders$.subscribe((s) => (orders = s)),
      user.balances$.subscribe((s) => (balances = s)),
      user.errors$.subscribe((e) => errors.push(e)),
    );
    // Seeded: authoritative before any event, with every balance of the account (none is undefined).
    const seeded = await authoritative(user.balances$, 1);
    expect(state(new OrdersState(), seeded).balances).toEqual((await books([])).balances);

    const filledLater = await place('2');
    const cancelledLater = await place('1');
    const staysOpen = await place('1.2');
    await firstValueFrom(user.orders$.pipe(filter((s) => s.size === 3)));

    // The socket is cut and reconnections are refused: the state stops being authoritative.
    proxy.refuse(true);
    proxy.reset();
    await firstValueFrom(user.orders$.pipe(filter((s) => !s.authoritative)));
    // Meanwhile: a market trade fills one resting order, another is cancelled, a new one rests, a taker fills.
    sim.injectTrade({ symbol: 'BTCUSDT', price: '1.5', quantity: '1' });
    await firstValueFrom(rest.cancelOrder({ orderId: cancelledLater }));
    const placedMeanwhile = await place('1.1');
    const takerMeanwhile = await place('1000000'); // a taker, filled at once: found in the order history after the gap
    expect(orders!.get(filledLater)!.status).toBe('NEW'); // nothing of it reached the stream

    proxy.refuse(false);
    await authoritative(user.orders$, 2);
    const synced = orders!;
    expect(synced.authoritative).toBe(true);
    expect(balances!.authoritative).toBe(true);
    const ids = [filledLater, cancelledLater, staysOpen, placedMeanwhile, takerMeanwhile];
    const sim$ = await books(ids);
    const mine = state(synced, balances!);
    expect(mine.orders).toEqual(sim$.orders);
    expect(mine.orders.get(filledLater)).toMatch(/^FILLED /);
    expect(mine.orders.get(cancelledLater)).toMatch(/^CANCELED /);
    expect(mine.orders.get(takerMeanwhile)).toMatch(/^FILLED /);
    expect(mine.open).toEqual(sim$.open);
    expect(mine.balances).toEqual(sim$.balances);
    // the REST calls never failed; the lost socket and the refused reconnections were reported
    expect(errors.filter((e) => e.name.startsWith('Request'))).toEqual([]);
  }, 20_000);
});
