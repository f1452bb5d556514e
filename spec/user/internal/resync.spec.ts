import { map, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { RestBalance } from '../../../lib/codecs/rest/account';
import type { RestOrder } from '../../../lib/codecs/rest/order';
import { RequestRejectedError } from '../../../lib/errors';
import type { SyncItem, UserItem } from '../../../lib/user/internal/items';
import { resync, type SnapshotApi, snapshotApi } from '../../../lib/user/internal/resync';
import { OrdersState } from '../../../lib/user/ordersState';
import { withSync } from '../../../lib/user/stateSync';

const order = (orderId: string, status: RestOrder['status']): RestOrder => ({ symbol: 'BTCUSDT', orderId, side: 'BUY', status, updateTime: 1 });
const open = (epoch: number): UserItem => ({ type: 'status', status: { type: 'open', epoch, since: 0 } });
const show = (i: UserItem | SyncItem): string =>
  i.type === 'sync' ? `sync${i.epoch}:${i.orders.map((o) => o.orderId).join(',')}:${i.balances.length}` : i.type === 'status' ? i.status.type : i.type;

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

  it('after an open fetches the open orders, the orders that left them, the account, and emits one sync', () => {
    testScheduler.run(({ cold, hot }) => {
      const gone = new OrdersState([['9', { orderId: '9', status: 'NEW' } as never]]);
      const api: SnapshotApi = {
        openOrders: () => cold('-a|', { a: [order('1', 'NEW')] }),
        getOrder: ({ orderId }: { orderId: string }) => cold('-a|', { a: order(orderId, 'FILLED') }),
        account: () => cold('--a|', { a: { balances: [{ asset: 'USDT', free: '1', locked: '0' }] as RestBalance[] } }) as unknown as Observable<never>,
      } as unknown as SnapshotApi;
      const items = hot<UserItem>('o----', { o: open(1) });
      const out = items.pipe(
        resync({ api, latest: { orders: withSync(gone, { authoritative: false }) }, serverNow: () => 0, scheduler: testScheduler, retryDelayMs: 1, maxRetryDelayMs: 1, random: () => 0 }),
        map(show),
      );
      const seen: string[] = [];
      out.subscribe((v) => seen.push(`${testScheduler.now()} ${v}`));
      testScheduler.flush();
      expect(seen).toEqual(['0 open', '0 unsync', '3 sync1:1,9:1']);
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
        resync({ api, latest: { orders: undefined }, serverNow: () => 0, scheduler: testScheduler, retryDelayMs: 1, maxRetryDelayMs: 1, random: () => 0 }),
        map(show),
      );
      const seen: string[] = [];
      out.subscribe((v) => seen.push(`${testScheduler.now()} ${v}`));
      testScheduler.flush();
      // the error at 1, the retry after its backoff; the loss at 4 cancels the account call (due at 4 + …)
      expect(seen).toEqual(['0 open', '0 unsync', '1 error', '4 reconnecting', '4 unsync']);
    });
  });
});
