import * as fc from 'fast-check';
import { toDecimalText } from '../../../lib/decimal';
import type { ExecutionReport, OrderStatus } from '../../../lib/codecs/executionReport';
import type { UserItem } from '../../../lib/user/internal/items';
import { StateFolds } from '../../../lib/user/internal/stateFolds';
import { OrdersFold } from '../../../lib/user/ordersState';
import { account, report } from '../fixtures';

const STATUSES: readonly OrderStatus[] = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED'];

/** Reports of a few orders, out of order, with duplicates and stale ones. */
const reports = fc.array(
  fc.record({ id: fc.integer({ min: 1, max: 4 }), x: fc.integer({ min: 0, max: 3 }), z: fc.integer({ min: 0, max: 9 }), U: fc.integer({ min: 1, max: 30 }) }).map(
    ({ id, x, z, U }): ExecutionReport => report({ i: String(id), X: STATUSES[x]!, z: toDecimalText(`0.${z}`), Z: toDecimalText(`${z * 3}.5`), U, E: U }),
  ),
  { maxLength: 60 },
);

const eager = (all: readonly ExecutionReport[]): Map<string, unknown> => {
  const fold = new OrdersFold(1000);
  for (const r of all) fold.apply(r);
  return new Map(fold.current);
};

describe('StateFolds', () => {
  it('while nobody watches orders, emits nothing for reports and gives the folded state when read', () => {
    const items: UserItem[] = [];
    const folds = new StateFolds((i) => items.push(i), () => false);
    expect(folds.orders).toBeUndefined();
    folds.event(report({ i: '1', X: 'NEW', z: '0', Z: '0', U: 1 }));
    folds.event(report({ i: '1', X: 'PARTIALLY_FILLED', z: '0.5', Z: '15000.05', U: 2 }));
    expect(items).toEqual([]);
    const orders = folds.orders!;
    expect(orders.get('1')).toMatchObject({ status: 'PARTIALLY_FILLED', filledQuantity: '0.5', averagePrice: '30000.1' });
    expect(orders.authoritative).toBe(false);
    expect(folds.orders).toBe(orders); // nothing new: the same state
  });

  it('while watched, emits each report that changes something, as a fresh state after the queue', () => {
    const items: UserItem[] = [];
    let watched = false;
    const folds = new StateFolds((i) => items.push(i), () => watched);
    folds.event(report({ i: '1', X: 'NEW', U: 1 }));
    watched = true;
    folds.event(report({ i: '2', X: 'NEW', U: 2 }));
    folds.event(report({ i: '2', X: 'NEW', U: 2 })); // a duplicate changes nothing
    expect(items.map((i) => (i.type === 'orders' ? [...i.orders.keys()] : i.type))).toEqual([['1', '2']]);
  });

  it('folds account updates into balances, emitted at once', () => {
    const items: UserItem[] = [];
    const folds = new StateFolds((i) => items.push(i), () => false);
    folds.event(account(5, [['USDT', '10', '0']]));
    folds.event(account(4, [['USDT', '9', '0']])); // stale
    expect(items.map((i) => i.type)).toEqual(['balances']);
    expect(folds.balances?.get('USDT')?.free).toBe('10');
  });

  it('merges a snapshot (both states emitted, authoritative) and marks them not authoritative on unsync', () => {
    const items: UserItem[] = [];
    const folds = new StateFolds((i) => items.push(i), () => false);
    folds.event(report({ i: '1', X: 'NEW', U: 1 }));
    folds.merge({
      type: 'sync',
      epoch: 3,
      orders: [{ symbol: 'BTCUSDT', orderId: '1', side: 'BUY', status: 'FILLED', executedQty: '1', cumulativeQuoteQty: '5', updateTime: 9 }],
      balances: [{ asset: 'USDT', free: '7', locked: '0' }],
      balancesTimeMs: 9,
      receivedAtMs: 9,
    });
    folds.merge({ type: 'unsync' });
    folds.merge({ type: 'unsync' }); // already not authoritative: nothing
    const seen = items.map((i) => (i.type === 'orders' || i.type === 'balances' ? `${i.type}:${String((i.type === 'orders' ? i.orders : i.balances).authoritative)}` : i.type));
    expect(seen).toEqual(['orders:true', 'balances:true', 'orders:false', 'balances:false']);
    expect(folds.orders?.get('1')?.status).toBe('FILLED');
    expect(folds.orders?.syncedEpoch).toBe(3);
  });

  it('gives, however often it is watched or read, the state of folding every report at once (property)', () => {
    fc.assert(
      fc.property(reports, fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }), (all, watch) => {
        let k = 0;
        const folds = new StateFolds(() => undefined, () => watch[k % watch.length]!);
        for (; k < all.length; k++) {
          folds.event(all[k]!);
          if (watch[(k * 7) % watch.length]) void folds.orders; // a late subscriber now and then
        }
        const got = folds.orders;
        const want = eager(all);
        expect(got === undefined ? new Map() : got.toMap()).toEqual(want);
      }),
    );
  });
});

describe('OrdersFold', () => {
  it('applyAll gives the map apply gives one by one, finished orders bounded (property)', () => {
    fc.assert(
      fc.property(reports, fc.integer({ min: 1, max: 3 }), (all, max) => {
        const one = new OrdersFold(max);
        for (const r of all) one.apply(r);
        const batch = new OrdersFold(max);
        batch.applyAll(all.slice(0, 20));
        batch.applyAll(all.slice(20));
        expect([...batch.current.entries()]).toEqual([...one.current.entries()]);
      }),
    );
  });

  it('apply says when nothing changed', () => {
    const fold = new OrdersFold(10);
    expect(fold.apply(report({ i: '1', U: 1 }))).toBeDefined();
    expect(fold.apply(report({ i: '1', U: 1 }))).toBeUndefined();
    expect(fold.applyAll([report({ i: '1', U: 1 })])).toBeUndefined();
  });
});
