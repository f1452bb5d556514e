import { filter, firstValueFrom, map, timeout, toArray, type Subscription, takeWhile } from 'rxjs';
import { WebSocket } from 'ws';
import type { OrderStatus } from '../../lib/codecs/executionReport';
import type { PrivateEvent } from '../../lib/codecs/privateEvents';
import { restClient } from '../../lib/rest/restClient';
import type { RestClient } from '../../lib/rest/types';
import type { Simulator } from '../../lib/simulator';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { userStream, type UserStream } from '../../lib/user/userStream';
import { connectionOf } from './fixtures';

/**
 * The user stream against a simulator that behaves as HashKey does beyond the SPEC: `PENDING_NEW` before `NEW`,
 * `PENDING_CANCEL` before `CANCELED`, and private events of types the library does not model, on real sockets.
 */
describe('userStream against the venue statuses and extra private events (simulator)', () => {
  let sim: Simulator;
  let rest: RestClient;
  const subs: Subscription[] = [];

  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0, seed: 5, pendingNew: true, pendingCancel: true, batchPrivateEvents: true });
    rest = restClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, secretKey: sim.secretKey });
  });
  afterEach(async () => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    await sim.close();
  });

  const stream = (): UserStream =>
    userStream({
      url: sim.privateStreamUrl,
      rest,
      WebSocketCtor: WebSocket as unknown as WebSocketCtor,
      reorder: { maxDelayMs: 0 },
      connection: { reconnect: { minDelayMs: 20, maxDelayMs: 100 } },
    });

  const opened = (user: UserStream) => firstValueFrom(connectionOf(user).pipe(filter((s) => s.type === 'open')));

  /** A BUY far under the market: rests on the book. */
  const rest1 = () =>
    firstValueFrom(rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '1' })).then((o) => o.orderId);

  // A contract position update as HashKey pushes it (ccxt, ts/src/pro/hashkey.ts, handlePosition), its account id a
  // bare 64-bit number here (kept exact) and its E now (an E beyond maxEventTimeSkewMs is dropped, as for any event).
  const position = (E: number): string =>
    `{"e":"outboundContractPositionInfo","E":"${E}","A":1735619524953226496,"s":"ETHUSDT-PERPETUAL","S":"LONG","p":"2429.6","P":"2","a":"2","f":"10760.14","m":"1.0085","r":"-0.0029"}`;

  it('PENDING_NEW and PENDING_CANCEL fold into orders$ (never backwards, never final too early); an extra event in the same frame arrives on events$, no decode error', async () => {
    const user = stream();
    const events: PrivateEvent[] = [];
    const errors: Error[] = [];
    const seen: OrderStatus[] = [];
    subs.push(user.events$.subscribe((e) => events.push(e)));
    subs.push(user.errors$.subscribe((e) => errors.push(e)));
    await opened(user);
    // The position update goes out first in the placement's own frame: [position, PENDING_NEW, NEW, balances].
    const pushed = position(sim.serverTime());
    sim.pushPrivateEvent(pushed, { withNext: true });
    const statuses$ = (orderId: string) =>
      user.orders$.pipe(
        map((orders) => orders.get(orderId)?.status),
        filter((s): s is OrderStatus => s !== undefined),
      );
    const orderId = await rest1();
    subs.push(statuses$(orderId).subscribe((s) => (seen.at(-1) === s ? undefined : seen.push(s))));
    await firstValueFrom(statuses$(orderId).pipe(filter((s) => s === 'NEW'), timeout(5000)));
    await firstValueFrom(rest.cancelOrder({ orderId }));
    await firstValueFrom(statuses$(orderId).pipe(filter((s) => s === 'CANCELED'), timeout(5000)));

    // What the simulator sent, in order: the placement's frame held the position update, then its two reports.
    const log = sim.sent().privateLog.map((r) => (r.kind === 'executionReport' ? (JSON.parse(r.text) as { X: string }).X : r.kind));
    expect(log).toEqual(['other', 'PENDING_NEW', 'NEW', 'outboundAccountInfo', 'PENDING_CANCEL', 'CANCELED', 'outboundAccountInfo']);
    // orders$ went forward only (its first state may already be NEW: the frame is folded whole before it is seen).
    expect(['PENDING_NEW,NEW,PENDING_CANCEL,CANCELED', 'NEW,PENDING_CANCEL,CANCELED']).toContain(seen.join(','));
    expect(errors).toEqual([]);
    // events$: every event of the placement's frame, the one the library does not model included, exactly as sent.
    const kinds = events.map((e) => (e.e === 'executionReport' ? e.X : e.e));
    expect(kinds).toEqual(['other', 'PENDING_NEW', 'NEW', 'outboundAccountInfo', 'PENDING_CANCEL', 'CANCELED', 'outboundAccountInfo']);
    const other = events[0]!;
    if (other.e !== 'other') throw new Error('expected an other event first');
    expect(other).toMatchObject({ type: 'outboundContractPositionInfo', E: expect.any(Number), text: pushed });
    expect(other.raw.A).toBe('1735619524953226496');
    // never folded into the balances
    const balances = await firstValueFrom(user.balances$);
    expect(balances.has('ETHUSDT-PERPETUAL')).toBe(false);
  });

  it('an element whose e is empty, and one without E, alone in their frames: delivered at once, nothing else disturbed', async () => {
    const user = stream();
    const others = firstValueFrom(
      user.events$.pipe(
        filter((e) => e.e === 'other'),
        takeWhile((e) => e.e === 'other' && e.type !== 'outboundFiatAccountInfo', true),
        toArray(),
        timeout(5000),
      ),
    );
    const errors: Error[] = [];
    subs.push(user.errors$.subscribe((e) => errors.push(e)));
    await opened(user);
    sim.pushPrivateEvent('{"e":""}');
    sim.pushPrivateEvent({ e: 'outboundFiatAccountInfo', E: String(sim.serverTime()), B: [{ a: 'HKD', f: '1000', l: '0' }] });
    const got = await others;
    expect(got.map((e) => (e.e === 'other' ? [e.type, e.E] : []))).toEqual([
      ['', undefined],
      ['outboundFiatAccountInfo', expect.any(Number)],
    ]);
    expect(got[0]).toMatchObject({ text: '{"e":""}', raw: { e: '' } });
    expect(errors).toEqual([]);
    expect(sim.sent().privateByKind.other).toBe(2);
  });
});
