import { defer, EMPTY, map, type Observable, of, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { RestAccount } from '../../lib/codecs/rest/account';
import type { RestOrder } from '../../lib/codecs/rest/order';
import { RateLimitedError, RequestFailedError } from '../../lib/errors';
import { fakeWebSocket } from '../../lib/testing/fakeWebSocket';
import type { BalancesState } from '../../lib/user/balancesState';
import type { OrdersState } from '../../lib/user/ordersState';
import type { StateSync } from '../../lib/user/stateSync';
import { userStream, type UserStreamConfig } from '../../lib/user/userStream';
import { account, connectionOf, report } from './fixtures';

const URL = 'ws://127.0.0.1:1/api/v1/ws';

/** A REST order with the simulator's shape. */
const restOrder = (over: Partial<RestOrder> & Pick<RestOrder, 'orderId' | 'status'>): RestOrder => ({
  symbol: 'BTCUSDT',
  side: 'BUY',
  clientOrderId: `c-${over.orderId}`,
  type: 'LIMIT',
  price: '100',
  origQty: '1',
  executedQty: '0',
  cumulativeQuoteQty: '0',
  timeInForce: 'GTC',
  time: 0,
  updateTime: 0,
  ...over,
});

/** `sync` of a state: `A1` (authoritative, synced after epoch 1), `R` (reconciling) or `-1` (neither, last synced after 1). */
const sync = (s: StateSync): string => `${s.authoritative ? 'A' : s.reconciling ? 'R' : '-'}${s.syncedEpoch ?? ''}`;
/** `sync`, then `id:status:z` per order. */
const showOrders = (s: OrdersState & StateSync): string =>
  [sync(s), ...[...s.values()].map((o) => `${o.orderId}:${o.status}:${o.filledQuantity}`)].join(' ');
/** Same, then `asset=free/locked@time` per asset. */
const showBalances = (s: BalancesState & StateSync): string =>
  [sync(s), ...[...s.values()].map((b) => `${b.asset}=${b.free}/${b.locked}@${b.eventTime}`)].join(' ');

interface Calls {
  openOrders: () => Observable<RestOrder[]>;
  getOrder?: (orderId: string) => Observable<RestOrder>;
  account: () => Observable<RestAccount>;
}

describe('userStream (state that heals itself)', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  /** A fake rest with the listen-key calls and the snapshot calls, recording the latter. */
  const fakeRest = (calls: Calls) => {
    const log: string[] = [];
    const rest = {
      createListenKey: () => of('key-1'),
      extendListenKey: () => EMPTY,
      closeListenKey: () => EMPTY,
      openOrders: () => defer(() => (log.push(`openOrders@${testScheduler.now()}`), calls.openOrders())),
      getOrder: (ref: { readonly orderId?: string }) =>
        defer(() => (log.push(`getOrder ${ref.orderId}@${testScheduler.now()}`), calls.getOrder!(ref.orderId!))),
      account: () => defer(() => (log.push(`account@${testScheduler.now()}`), calls.account())),
    } as unknown as NonNullable<UserStreamConfig['rest']>;
    return { rest, log };
  };

  const setup = (over: Partial<UserStreamConfig> = {}) => {
    const ws = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
    const user = userStream({
      url: URL,
      WebSocketCtor: ws.WebSocketCtor,
      scheduler: testScheduler,
      reorder: { maxDelayMs: 5 },
      connection: { reconnect: { minDelayMs: 4, random: () => 0.5 } },
      listenKeyOptions: { random: () => 0.5 },
      ...over,
    });
    return { ws, user };
  };

  it('seeds orders$ and balances$ from the open orders and the account once the socket is open, then says they are authoritative', () => {
    testScheduler.run(({ cold, expectObservable, flush }) => {
      const { rest, log } = fakeRest({
        openOrders: () => cold('--(a|)', { a: [restOrder({ orderId: '7', status: 'PARTIALLY_FILLED', executedQty: '0.5', cumulativeQuoteQty: '50' })] }),
        account: () => cold('---(a|)', { a: { balances: [{ asset: 'BTC', free: '1', locked: '0.5' }, { asset: 'USDT', free: '900', locked: '0' }] } }),
      });
      const { user } = setup({ rest });
      // the socket opens at 1: reconciling (nothing in doubt yet); the open orders at 3; both answers in at 4: authoritative
      expectObservable(user.orders$.pipe(map(showOrders)), '^ 20ms !').toBe('-r-ba', { r: 'R', b: 'R 7:PARTIALLY_FILLED:0.5', a: 'A1 7:PARTIALLY_FILLED:0.5' });
      // the account's time: the service's clock when it was asked (1; the offset is 0)
      expectObservable(user.balances$.pipe(map(showBalances)), '^ 20ms !').toBe('----a', { a: 'A1 BTC=1/0.5@1 USDT=900/0@1' });
      flush();
      expect(log).toEqual(['openOrders@1', 'account@1']); // nothing before the open; no getOrder (nothing was open)
    });
  });

  it('merges by update time: a late push never overwrites a newer snapshot, a newer push wins over it', () => {
    testScheduler.run(({ expectObservable }) => {
      const { rest } = fakeRest({
        openOrders: () => of([restOrder({ orderId: '7', status: 'PARTIALLY_FILLED', executedQty: '0.5', cumulativeQuoteQty: '50', updateTime: 100 })]),
        account: () => of({ balances: [{ asset: 'BTC', free: '1', locked: '0' }], updateTime: 100 }),
      });
      const { ws, user } = setup({ rest });
      // pushes older than the snapshot (sent before it, read after it): NEW of order 7, BTC at E 90
      ws.at(3, (s) => s.receive([report({ i: '7', X: 'NEW', z: '0', Z: '0', E: 90, U: 90 }), account(90, [['BTC', '2', '0']])]));
      // newer ones: the fill, BTC at E 110
      ws.at(20, (s) => s.receive([report({ i: '7', X: 'FILLED', z: '1', Z: '100', E: 110, U: 110 }), account(110, [['BTC', '0.5', '0']])]));
      // at 1: reconciling, the open orders folded, the account: authoritative (the snapshots answer at once)
      expectObservable(user.orders$.pipe(map(showOrders)), '^ 40ms !').toBe('-(rsa) 14ms b', {
        r: 'R',
        s: 'R 7:PARTIALLY_FILLED:0.5',
        a: 'A1 7:PARTIALLY_FILLED:0.5',
        b: 'A1 7:FILLED:1',
      });
      expectObservable(user.balances$.pipe(map(showBalances)), '^ 40ms !').toBe('-a------------------b', {
        a: 'A1 BTC=1/0@100', // the account's own updateTime when it sends one
        b: 'A1 BTC=0.5/0@110',
      });
    });
  });

  it('dates an account without its own time at the earliest the service clock can have read when asked: a push after it stays', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const { rest } = fakeRest({
        openOrders: () => of([]),
        account: () => cold('----------(a|)', { a: { balances: [{ asset: 'BTC', free: '1', locked: '0' }] } }),
      });
      // the estimate: the service's clock is 25 ms ahead, ± 25 ms (it may be on time)
      const timed = Object.assign(rest, { serverTimeOffsetMs: () => 25, serverTimeOffsetErrorMs: () => 25 });
      const { ws, user } = setup({ rest: timed });
      // asked at 1 (the service read 1 to 51); a balance push stamped 20 on its clock, read at 5: after the snapshot
      // was taken if the service clock is on time, and the snapshot (taken at the service's 1) does not hold it
      ws.at(5, (s) => s.receive([account(20, [['BTC', '2', '0']])]));
      expectObservable(user.balances$.pipe(map(showBalances)), '^ 40ms !').toBe('-----a-----b', {
        a: 'R BTC=2/0@20', // (reconciling: the account not in yet)
        b: 'A1 BTC=2/0@20', // dated 26 (the estimate alone), the snapshot would have overwritten the newer push
      });
    });
  });

  it('after a gap: not authoritative from the loss, then re-fetched, with the orders that left the open orders asked one by one', () => {
    testScheduler.run(({ cold, expectObservable, flush }) => {
      let opens = 0;
      const { rest, log } = fakeRest({
        // at the first open nothing is open; after the gap order 8 rests and order 7 is gone (filled meanwhile)
        openOrders: () => of(++opens === 1 ? [] : [restOrder({ orderId: '8', status: 'NEW', updateTime: 12 })]),
        getOrder: (id) => cold('--(a|)', { a: restOrder({ orderId: id, status: 'FILLED', executedQty: '1', cumulativeQuoteQty: '100', updateTime: 11 }) }),
        account: () => of({ balances: [{ asset: 'BTC', free: `${opens}` as const, locked: '0' as const }] }),
      });
      const { ws, user } = setup({ rest });
      ws.at(2, (s) => s.receive([report({ i: '7', c: 'c-7', X: 'NEW', E: 2, U: 2 })]));
      ws.at(10, (s) => s.closeFromServer({ code: 1006 }));
      // 1: seeded (empty); 2: order 7 pushed (folded on arrival); 10: lost, not authoritative; reconnect 2 ms later, open at 13:
      // order 7 in doubt, the open orders (8) folded; order 7 asked at 13, answered at 15: authoritative after epoch 2
      const orders: string[] = [];
      const sub = user.orders$.pipe(map(showOrders)).subscribe((o) => orders.push(`${testScheduler.now()} ${o}`));
      testScheduler.schedule(() => sub.unsubscribe(), 40);
      expectObservable(user.balances$.pipe(map(showBalances)), '^ 40ms !').toBe('-a--------b--r-c', {
        a: 'A1 BTC=1/0@1',
        b: '-1 BTC=1/0@1',
        r: 'R1 BTC=1/0@1',
        c: 'A2 BTC=2/0@13',
      });
      flush();
      expect(orders).toEqual(['1 R', '1 A1', '2 A1 7:NEW:0', '10 -1 7:NEW:0', '13 R1 7:NEW:0', '13 R1 7:NEW:0 8:NEW:0', '15 R1 7:FILLED:1 8:NEW:0', '15 A2 7:FILLED:1 8:NEW:0']);
      expect(log).toEqual(['openOrders@1', 'account@1', 'openOrders@13', 'getOrder 7@13', 'account@13']);
    });
  });

  it('reports failed snapshot calls on errors$ and retries each alone with jittered backoff, never before Retry-After; nothing ends', () => {
    testScheduler.run(({ expectObservable, flush }) => {
      let orderCalls = 0;
      let accountCalls = 0;
      const limited = new RateLimitedError(429, 1000, -1003, 'Too many requests');
      const failed = new RequestFailedError('GET', '/api/v1/account', 'socket hang up');
      const { rest, log } = fakeRest({
        openOrders: () => (++orderCalls === 1 ? throwError(() => limited) : of([])),
        account: () => (++accountCalls <= 2 ? throwError(() => failed) : of({ balances: [] })),
      });
      const { user } = setup({ rest });
      expectObservable(user.errors$.pipe(map((e) => e.name)), '^ 2s !').toBe('-(ab) 496ms c', {
        a: 'RateLimitedError',
        b: 'RequestFailedError',
        c: 'RequestFailedError',
      });
      expectObservable(user.orders$.pipe(map(showOrders)), '^ 2s !').toBe('-r 1499ms a', { r: 'R', a: 'A1' }); // reconciling from the open; authoritative when both calls have answered
      expectObservable(connectionOf(user).pipe(map((s) => s.type)), '^ 1999ms !').toBe('ab', { a: 'connecting', b: 'open' }); // never reconnecting
      flush();
      // backoff: random 0.5 × min(60 000, 1000 × 2^(n-1)) = 500, then 1000; the rate limit: 1000 at least
      expect(log).toEqual(['openOrders@1', 'account@1', 'account@501', 'openOrders@1001', 'account@1501']);
    });
  });

  it('fetches nothing and is never authoritative without the snapshot calls (listenKey$) or with resync: false', () => {
    testScheduler.run(({ expectObservable, flush }) => {
      const { rest, log } = fakeRest({ openOrders: () => of([]), account: () => of({ balances: [] }) });
      const keyed = setup({ listenKey$: of('key-1') });
      keyed.ws.at(2, (s) => s.receive([report({ i: '7', E: 2, U: 2 })]));
      expectObservable(keyed.user.orders$.pipe(map(showOrders)), '^ 20ms !').toBe('--a', { a: '- 7:NEW:0' });
      const off = setup({ rest, resync: false });
      expectObservable(off.user.orders$.pipe(map(showOrders)), '^ 20ms !').toBe('');
      flush();
      expect(log).toEqual([]);
    });
  });
});
