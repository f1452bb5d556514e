import { map, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { RestBalance } from '../../../lib/codecs/rest/account';
import type { RestOrder } from '../../../lib/codecs/rest/order';
import { OrderMismatchError, type OrderIdentity, RequestRejectedError } from '../../../lib/errors';
import type { SyncItem, UserItem } from '../../../lib/user/internal/items';
import { resync, type SnapshotApi, snapshotApi } from '../../../lib/user/internal/resync';
import { OrdersState } from '../../../lib/user/ordersState';
import { withSync } from '../../../lib/user/stateSync';

const order = (orderId: string, status: RestOrder['status']): RestOrder => ({ symbol: 'BTCUSDT', orderId, side: 'BUY', status, updateTime: 1 });
const open = (epoch: number): UserItem => ({ type: 'status', status: { type: 'open', epoch, since: 0 } });
const show = (i: UserItem | SyncItem): string =>
  i.type === 'sync'
    ? `sync${i.epoch}:${i.orders.map((o) => o.orderId).join(',')}:${i.balances.length}`
    : i.type === 'restOrders'
      ? `orders ${i.orders.map((o) => `${o.orderId}=${o.status}`).join(',')} doubt[${doubt(i.inDoubt)}]`
      : i.type === 'reconcile'
        ? `reconcile${i.epoch} doubt[${doubt(i.inDoubt)}]`
        : i.type === 'status'
          ? i.status.type
          : i.type;
const doubt = (refs: readonly OrderIdentity[]): string => refs.map((r) => r.orderId ?? `c:${r.clientOrderId}`).join(',');

describe('snapshotApi', () => {
  it('is the api when it has the three snapshot calls, else undefined', () => {
    const api = { openOrders: () => undefined, getOrder: () => undefined, account: () => undefined };
    expect(snapshotApi(api)).toBe(api);
    expect(snapshotApi({ openOrders: () => undefined })).toBeUndefined();
    expect(snapshotApi(undefined)).toBeUndefined();
  });
});

describe('resync', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  it('after an open: the orders in doubt, the open orders, a lookup of each order that left them, the account, then sync', () => {
    testScheduler.run(({ cold, hot }) => {
      const gone = new OrdersState([['9', { orderId: '9', status: 'NEW' } as never]]);
      const api: SnapshotApi = {
        openOrders: () => cold('-a|', { a: [order('1', 'NEW')] }),
        getOrder: ({ orderId }: { orderId: string }) => cold('-a|', { a: order(orderId, 'FILLED') }),
        account: () => cold('--a|', { a: { balances: [{ asset: 'USDT', free: '1', locked: '0' }] as RestBalance[] } }) as unknown as Observable<never>,
      } as unknown as SnapshotApi;
      const items = hot<UserItem>('o----', { o: open(1) });
      const out = items.pipe(
        resync({ api, latest: { orders: withSync(gone, { authoritative: false }) }, followed: () => [], serverNow: () => 0, scheduler: testScheduler, retryDelayMs: 1, maxRetryDelayMs: 1, random: () => 0 }),
        map(show),
      );
      const seen: string[] = [];
      out.subscribe((v) => seen.push(`${testScheduler.now()} ${v}`));
      testScheduler.flush();
      // the account (due at 2) is fetched beside the orders; sync once both are done (the lookup's completion at 4)
      expect(seen).toEqual(['0 open', '0 unsync', '0 reconcile1 doubt[9]', '1 orders 1=NEW doubt[9]', '3 orders 9=FILLED doubt[]', '4 sync1::1']);
    });
  });

  it('reports a failed call as an error item, retries it, and cancels the fetch when the socket is lost', () => {
    testScheduler.run(({ cold, hot }) => {
      let calls = 0;
      const api = {
        openOrders: () => (++calls === 1 ? cold('-#', undefined, new RequestRejectedError(500)) : cold('-a|', { a: [] })),
        getOrder: () => cold('-#'),
        account: () => cold('----a|', { a: { balances: [] } }),
      } as unknown as SnapshotApi;
      const lost: UserItem = { type: 'status', status: { type: 'reconnecting', epoch: 1, attempt: 1, delayMs: 1, cause: new Error('x') } };
      const items = hot<UserItem>('o---l', { o: open(1), l: lost });
      const out = items.pipe(
        resync({ api, latest: { orders: undefined }, followed: () => [], serverNow: () => 0, scheduler: testScheduler, retryDelayMs: 1, maxRetryDelayMs: 1, random: () => 0 }),
        map(show),
      );
      const seen: string[] = [];
      out.subscribe((v) => seen.push(`${testScheduler.now()} ${v}`));
      testScheduler.flush();
      // the error at 1, the retry after its backoff; the loss at 4 cancels the account call (due at 4 + …)
      expect(seen).toEqual(['0 open', '0 unsync', '0 reconcile1 doubt[]', '1 error', '2 orders  doubt[]', '4 reconnecting', '4 unsync']);
    });
  });

  it('looks up a followed placement by its client order id, refusing an answer about another order', () => {
    testScheduler.run(({ cold, hot }) => {
      let lookups = 0;
      const api = {
        openOrders: () => cold('-a|', { a: [] }),
        getOrder: (ref: { clientOrderId?: string }) => {
          expect(ref).toEqual({ clientOrderId: 'mine' });
          // First an answer about another order, then ours.
          return ++lookups === 1
            ? cold('-a|', { a: { ...order('77', 'FILLED'), clientOrderId: 'theirs' } })
            : cold('-a|', { a: { ...order('5', 'FILLED'), clientOrderId: 'mine' } });
        },
        account: () => cold('-a|', { a: { balances: [] } }),
      } as unknown as SnapshotApi;
      const errors: unknown[] = [];
      const out = hot<UserItem>('o', { o: open(1) }).pipe(
        resync({ api, latest: { orders: undefined }, followed: () => [{ clientOrderId: 'mine', symbol: 'BTCUSDT' }], serverNow: () => 0, scheduler: testScheduler, retryDelayMs: 1, maxRetryDelayMs: 1, random: () => 1 }),
      );
      const seen: string[] = [];
      out.subscribe((v) => {
        if (v.type === 'error') errors.push(v.error);
        seen.push(`${testScheduler.now()} ${show(v)}`);
      });
      testScheduler.flush();
      expect(seen).toEqual(['0 open', '0 unsync', '0 reconcile1 doubt[c:mine]', '1 orders  doubt[c:mine]', '3 error', '5 orders 5=FILLED doubt[]', '6 sync1::0']);
      expect(errors[0]).toBeInstanceOf(OrderMismatchError);
      expect(errors[0]).toMatchObject({ source: 'snapshot', expected: { clientOrderId: 'mine' }, got: { clientOrderId: 'theirs', orderId: '77' } });
    });
  });

  it('a placement in doubt the service does not know: asked again once its recvWindow has passed, then settled as not placed', () => {
    testScheduler.run(({ cold, hot }) => {
      const asked: number[] = [];
      const api = {
        openOrders: () => cold('-a|', { a: [] }),
        getOrder: () => {
          asked.push(testScheduler.now());
          return cold('-#', undefined, new RequestRejectedError(400, -2013, 'Order does not exist.'));
        },
        account: () => cold('-a|', { a: { balances: [] } }),
      } as unknown as SnapshotApi;
      const out = hot<UserItem>('o', { o: open(1) }).pipe(
        resync({ api, latest: { orders: undefined }, followed: () => [{ clientOrderId: 'p1', notPlacedAfter: 50 }], serverNow: () => 0, scheduler: testScheduler, retryDelayMs: 1, maxRetryDelayMs: 1, random: () => 1 }),
        map(show),
      );
      const seen: string[] = [];
      out.subscribe((v) => seen.push(`${testScheduler.now()} ${v}`));
      testScheduler.flush();
      expect(asked).toEqual([2, 50]);
      expect(seen).toEqual(['0 open', '0 unsync', '0 reconcile1 doubt[c:p1]', '1 orders  doubt[c:p1]', '51 orders  doubt[]', '51 sync1::0']);
    });
  });

  it('an order the state knew that the service says it does not know stays in doubt: retried, never authoritative', () => {
    testScheduler.run(({ cold, hot }) => {
      const known = new OrdersState([['9', { orderId: '9', clientOrderId: 'k', symbol: 'BTCUSDT', status: 'NEW' } as never]]);
      const api = {
        openOrders: () => cold('-a|', { a: [] }),
        getOrder: () => cold('-#', undefined, new RequestRejectedError(400, -2013, 'Order does not exist.')),
        account: () => cold('-a|', { a: { balances: [] } }),
      } as unknown as SnapshotApi;
      const out = hot<UserItem>('o', { o: open(1) }).pipe(
        resync({ api, latest: { orders: withSync(known, { authoritative: false }) }, followed: () => [], serverNow: () => 0, scheduler: testScheduler, retryDelayMs: 1, maxRetryDelayMs: 4, random: () => 1 }),
        map(show),
      );
      const seen: string[] = [];
      const sub = out.subscribe((v) => seen.push(v));
      testScheduler.schedule(() => sub.unsubscribe(), 60);
      testScheduler.flush();
      expect(seen.filter((v) => v === 'error').length).toBeGreaterThan(5);
      expect(seen.some((v) => v.startsWith('sync'))).toBe(false);
    });
  });
});
