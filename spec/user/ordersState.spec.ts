import fc from 'fast-check';
import { from, lastValueFrom, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { toDecimalText } from '../../lib/decimal';
import type { ExecutionReport } from '../../lib/codecs/privateEvents';
import { ordersState, OrdersState } from '../../lib/user/ordersState';
import { withSync } from '../../lib/user/stateSync';
import { newNodes, PersistentMap } from '../../lib/internal/persistentMap';
import { applyExecutionReport, restOrderReport, type OrderState } from '../../lib/user/orderState';
import { report } from './fixtures';

const statuses = (m: OrdersState): Record<string, string> =>
  Object.fromEntries([...m].map(([id, o]) => [id, `${o.status}:${o.filledQuantity}`]));

describe('ordersState', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  const n1 = report({ i: '1', X: 'NEW', U: 1 });
  const p1 = report({ i: '1', X: 'PARTIALLY_FILLED', z: '0.4', Z: '40.4', U: 2 });
  const f1 = report({ i: '1', X: 'FILLED', z: '1', Z: '101', U: 3 });
  const n2 = report({ i: '2', c: 'c-2', X: 'NEW', U: 2 });

  it('keys orders by id and follows their status', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c-d-|', { a: n1, b: p1, c: n2, d: f1 });
      expectObservable(source.pipe(ordersState(), map(statuses))).toBe('-w-x-y-z-|', {
        w: { '1': 'NEW:0' },
        x: { '1': 'PARTIALLY_FILLED:0.4' },
        y: { '1': 'PARTIALLY_FILLED:0.4', '2': 'NEW:0' },
        z: { '1': 'FILLED:1', '2': 'NEW:0' },
      });
      expectSubscriptions(source.subscriptions).toBe('^--------!');
    });
  });

  it('emits states that marble assertions compare with real Maps through toMap(), and with states', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-c-|', { a: n1, c: n2 });
      const one = applyExecutionReport(undefined, n1);
      const two = applyExecutionReport(undefined, n2);
      expectObservable(source.pipe(ordersState(), map((s) => s.toMap()))).toBe('-w-x-|', {
        w: new Map([['1', one]]),
        x: new Map([['1', one], ['2', two]]),
      });
      expectObservable(source.pipe(ordersState())).toBe('-w-x-|', {
        w: new OrdersState([['1', one]]),
        x: new OrdersState([['1', one], ['2', two]]),
      });
    });
  });

  it('emits honest ReadonlyMaps: their own name, not a Map, cloned through toMap()', async () => {
    const orders = await lastValueFrom(from([n1, n2]).pipe(ordersState()));
    const one = applyExecutionReport(undefined, n1);
    const two = applyExecutionReport(undefined, n2);
    expect(orders).toBeInstanceOf(OrdersState);
    expect(orders).not.toBeInstanceOf(Map); // so nothing reads it as a Map whose storage is empty
    expect(Object.prototype.toString.call(orders)).toBe('[object OrdersState]');
    expect(Object.keys(orders)).toEqual([]);
    expect(JSON.stringify(orders)).toBe('{}'); // as a Map: no internals leak
    expect('set' in orders || 'delete' in orders || 'clear' in orders).toBe(false);
    // every read method of a ReadonlyMap, in first-seen order
    expect(orders.size).toBe(2);
    expect(orders.get('2')).toEqual(two);
    expect(orders.has('1') && !orders.has('3')).toBe(true);
    expect([...orders]).toEqual([['1', one], ['2', two]]);
    expect([...orders.entries()]).toEqual([['1', one], ['2', two]]);
    expect([...orders.keys()]).toEqual(['1', '2']);
    expect([...orders.values()]).toEqual([one, two]);
    const seen: unknown[] = [];
    orders.forEach(function (this: unknown, state, id, self) {
      seen.push([id, state, self, this]);
    }, 'ctx');
    expect(seen).toEqual([['1', one, orders, 'ctx'], ['2', two, orders, 'ctx']]);
    // the documented copy: a plain, fresh, mutable Map that structuredClone and Angular's keyvalue (instanceof Map) take
    const copy = orders.toMap();
    expect(copy).toBeInstanceOf(Map);
    expect(copy).not.toBe(orders.toMap());
    expect(copy).toEqual(new Map([['1', one], ['2', two]]));
    expect(structuredClone(copy)).toEqual(new Map([['1', one], ['2', two]]));
    expect(new Map(orders)).toEqual(copy);
    copy.delete('1');
    expect(orders.size).toBe(2);
    // built from entries, like a Map (a later pair for an id replaces the earlier one in place)
    expect([...new OrdersState([['1', one], ['2', two], ['1', two]])]).toEqual([['1', two], ['2', two]]);
    expect(new OrdersState().size).toBe(0);
  });

  it("keeps a state's sync marks (non-enumerable) beside its entries", () => {
    const one = applyExecutionReport(undefined, n1);
    const marked = withSync(new OrdersState([['1', one]]), { authoritative: true, syncedEpoch: 3 });
    expect(marked.authoritative).toBe(true);
    expect(marked.syncedEpoch).toBe(3);
    expect(Object.keys(marked)).toEqual([]);
    expect(marked).toEqual(new OrdersState([['1', one]]));
    expect(marked.get('1')).toBe(one);
  });

  it('ignores stale and duplicate reports (no emission)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source = cold('-f-n-p-f-|', { f: f1, n: n1, p: p1 });
      expectObservable(source.pipe(ordersState(), map(statuses))).toBe('-w-------|', {
        w: { '1': 'FILLED:1' },
      });
    });
  });

  it('never moves the status backward, even with a later update time', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const late = report({ i: '1', X: 'NEW', U: 99 });
      const source = cold('-f-l-|', { f: f1, l: late });
      expectObservable(source.pipe(ordersState(), map(statuses))).toBe('-w---|', {
        w: { '1': 'FILLED:1' },
      });
    });
  });

  it('never lets the filled quantity decrease', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      // an anomalous terminal report carrying a smaller z: status advances, z stays
      const odd = report({ i: '1', X: 'CANCELED', z: '0.1', Z: '10', U: 9 });
      const source = cold('-p-o-|', { p: p1, o: odd });
      expectObservable(source.pipe(ordersState(), map(statuses))).toBe('-w-x-|', {
        w: { '1': 'PARTIALLY_FILLED:0.4' },
        x: { '1': 'CANCELED:0.4' },
      });
    });
  });

  it('prefers the newer update time within a status and compares z exactly', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const a = report({ i: '1', X: 'PARTIALLY_FILLED', z: '0.30000000000000000001', Z: '30', U: 5 });
      const b = report({ i: '1', X: 'PARTIALLY_FILLED', z: '0.3', Z: '30', U: 6 });
      const source = cold('-a-b-|', { a, b });
      expectObservable(source.pipe(ordersState(), map(statuses))).toBe('-w---|', {
        w: { '1': 'PARTIALLY_FILLED:0.30000000000000000001' },
      });
    });
  });

  it('falls back to E when U is absent', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const older = report({ i: '1', X: 'PARTIALLY_FILLED', z: '0.5', Z: '50', U: undefined, E: 10, L: 'old' });
      const newer = report({ i: '1', X: 'PARTIALLY_FILLED', z: '0.5', Z: '50', U: undefined, E: 20, L: 'new' });
      const source = cold('-n-o-|', { n: newer, o: older });
      expectObservable(source.pipe(ordersState(), map((m: OrdersState) => m.get('1')!.report.L))).toBe('-w---|', { w: 'new' });
    });
  });

  it('computes the average price as Z / z, exactly, undefined before a fill', async () => {
    const orders = await lastValueFrom(from([n1, p1]).pipe(ordersState()));
    expect(orders.get('1')).toMatchObject({
      orderId: '1',
      clientOrderId: 'c-1',
      status: 'PARTIALLY_FILLED',
      filledQuantity: '0.4',
      filledQuoteQuantity: '40.4',
      averagePrice: '101',
      quantity: '1',
      price: '100',
      updateTime: 2,
      report: p1,
    });
    const fresh = await lastValueFrom(from([n1]).pipe(ordersState()));
    expect(fresh.get('1')?.averagePrice).toBeUndefined();
  });

  it('keeps unchanged orders as the same objects in a new map', async () => {
    const seen: OrdersState[] = [];
    from([n1, n2]).pipe(ordersState()).subscribe((m) => seen.push(m));
    expect(seen[0]).not.toBe(seen[1]);
    expect(seen[1]!.get('1')).toBe(seen[0]!.get('1'));
    expect(seen[0]!.size).toBe(1);
  });

  it('reaches the same final state whatever the arrival order and duplicates (property)', () => {
    fc.assert(
      fc.property(
        fc.array(lifecycle, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 60, maxLength: 60 }),
        fc.array(fc.nat({ max: 30 }), { maxLength: 10 }),
        (orders, keys, dups) => {
          const inOrder = orders.flatMap((steps, k) => steps.map((r) => ({ ...r, i: String(k) })));
          const shuffled = inOrder
            .map((r, j) => ({ r, k: keys[j % keys.length]! + j / 1000 }))
            .sort((a, b) => a.k - b.k)
            .map(({ r }) => r);
          const withDups = [...shuffled, ...dups.filter((d) => d < inOrder.length).map((d) => inOrder[d]!)];
          expect(finalState(withDups).toMap()).toEqual(finalState(inOrder).toMap()); // Maps compare regardless of order
        },
      ),
    );
  });
  it('keeps at most maxFinishedOrders finished orders, never an open one, and ignores reports of dropped ones', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const n3 = report({ i: '3', X: 'NEW', U: 4 });
      const f2 = report({ i: '2', c: 'c-2', X: 'FILLED', z: '1', Z: '100', U: 5 });
      const c3 = report({ i: '3', X: 'CANCELED', U: 6 });
      // 1 finishes, then 2 finishes (1 is dropped), a stale NEW of 1 is ignored, then 3 is cancelled (2 dropped).
      const source = cold('-a-b-c-d-e-f-g-|', { a: n1, b: n2, c: n3, d: f1, e: f2, f: n1, g: c3 });
      expectObservable(source.pipe(ordersState({ maxFinishedOrders: 1 }), map(statuses))).toBe('-u-v-w-x-y---z-|', {
        u: { '1': 'NEW:0' },
        v: { '1': 'NEW:0', '2': 'NEW:0' },
        w: { '1': 'NEW:0', '2': 'NEW:0', '3': 'NEW:0' },
        x: { '1': 'FILLED:1', '2': 'NEW:0', '3': 'NEW:0' },
        y: { '2': 'FILLED:1', '3': 'NEW:0' },
        z: { '3': 'CANCELED:0' },
      });
    });
  });

  it('keeps separate state per subscription', async () => {
    const folded = from([n1, f1]).pipe(ordersState({ maxFinishedOrders: 0 }), map(statuses));
    const all = async (): Promise<unknown[]> => {
      const out: unknown[] = [];
      await lastValueFrom(folded.pipe(map((v) => out.push(v))));
      return out;
    };
    expect(await all()).toEqual([{ '1': 'NEW:0' }, {}]);
    expect(await all()).toEqual([{ '1': 'NEW:0' }, {}]);
  });

  it('costs the same per report whatever the number of open orders, and never changes an earlier snapshot', () => {
    const copiedPerReport = (open: number): number[] => {
      const seen: OrdersState[] = [];
      const reports = Array.from({ length: open }, (_, k) => report({ i: String(10_000 + k), X: 'NEW', U: k + 1 }));
      const last = open + 1;
      reports.push(report({ i: '10000', X: 'PARTIALLY_FILLED', z: '0.5', Z: '50', U: last }));
      reports.push(report({ i: String(10_000 + open - 1), X: 'FILLED', z: '1', Z: '100', U: last + 1 }));
      reports.push(report({ i: 'new', X: 'NEW', U: last + 2 }));
      from(reports).pipe(ordersState()).subscribe((m) => seen.push(m));
      expect(seen).toHaveLength(open + 3);
      const maps = seen.map((m) => {
        // (the state's map, kept under its one own symbol)
        const [key] = Object.getOwnPropertySymbols(m);
        const inner = (m as unknown as Record<symbol, unknown>)[key!];
        expect(inner).toBeInstanceOf(PersistentMap);
        return inner as PersistentMap<OrderState>;
      });
      // Snapshots taken before the last three reports are untouched by them.
      const before = maps[open - 1]!;
      expect(before.size).toBe(open);
      expect(before.get('10000')!.status).toBe('NEW');
      expect(before.get(String(10_000 + open - 1))!.status).toBe('NEW');
      expect(before.has('new')).toBe(false);
      expect(maps[open]!.get('10000')!.status).toBe('PARTIALLY_FILLED');
      expect(maps[open + 2]!.size).toBe(open + 1);
      return [newNodes(maps[open - 1]!, maps[open]!), newNodes(maps[open]!, maps[open + 1]!), newNodes(maps[open + 1]!, maps[open + 2]!)];
    };
    const small = copiedPerReport(10);
    const large = copiedPerReport(20_000);
    // Trie nodes allocated per report: one path (<= 4 levels + the entry for 20 000 orders), not the whole map.
    for (const c of [...small, ...large]) expect(c).toBeLessThanOrEqual(5);
  });
});

function finalState(reports: readonly ExecutionReport[]): OrdersState {
  let last = new OrdersState();
  from(reports).pipe(ordersState()).subscribe((m) => (last = m));
  return last;
}

/** A plausible life of one order: NEW, some partial fills (sometimes in the same ms), maybe a terminal status. */
const lifecycle = fc
  .record({
    fills: fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 5 }),
    end: fc.constantFrom('FILLED', 'CANCELED', 'REJECTED', 'OPEN'),
    price: fc.integer({ min: 1, max: 100000 }),
    sameMs: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
  })
  .map(({ fills, end, price, sameMs }) => {
    const steps: ExecutionReport[] = [];
    let U = 1000;
    let cum = 0;
    const at = (k: number) => (U += sameMs[k % sameMs.length] ? 0 : 1);
    const dec = (units: number, scale: number) => toDecimalText((units / 10 ** scale).toFixed(scale));
    if (end === 'REJECTED') return [report({ X: 'REJECTED', U: at(0), E: U + 1 })];
    steps.push(report({ X: 'NEW', U: at(0), E: U + 1 }));
    fills.forEach((f, k) => {
      cum += f;
      steps.push(report({ X: 'PARTIALLY_FILLED', z: dec(cum, 3), Z: dec(cum * price, 5), U: at(k + 1), E: U + 1 }));
    });
    if (end === 'FILLED') steps.push(report({ X: 'FILLED', z: dec(cum + 1, 3), Z: dec((cum + 1) * price, 5), U: at(7), E: U + 1 }));
    if (end === 'CANCELED') steps.push(report({ X: cum > 0 ? 'PARTIALLY_CANCELED' : 'CANCELED', z: dec(cum, 3), Z: dec(cum * price, 5), U: at(7), E: U + 1 }));
    return steps;
  });

describe('restOrderReport', () => {
  it('turns a REST order into the report it stands for, merged by the fold rules, whatever its status', () => {
    const rest = { symbol: 'BTCUSDT', orderId: '9', side: 'SELL' as const, status: 'PARTIALLY_FILLED', clientOrderId: 'c9', type: 'LIMIT',
      price: '100', origQty: '2', executedQty: '1', cummulativeQuoteQty: '100', timeInForce: 'GTC', time: 5, updateTime: 50 };
    const r = restOrderReport(rest, 0)!;
    expect(r).toMatchObject({ e: 'executionReport', E: 50, U: 50, i: '9', c: 'c9', S: 'SELL', o: 'LIMIT', X: 'PARTIALLY_FILLED', q: '2', p: '100', z: '1', Z: '100', f: 'GTC', d: '' });
    const state = applyExecutionReport(undefined, r);
    expect(state).toMatchObject({ orderId: '9', status: 'PARTIALLY_FILLED', filledQuantity: '1', averagePrice: '100', updateTime: 50 });
    // an older push (NEW) does not overwrite it; a newer fill does
    expect(applyExecutionReport(state, report({ i: '9', X: 'NEW', z: '0', Z: '0', E: 40, U: 40 }))).toBe(state);
    expect(applyExecutionReport(state, report({ i: '9', X: 'FILLED', z: '2', Z: '200', E: 60, U: 60 })).status).toBe('FILLED');
    // a pending cancel moves it forward (not final); a status the library does not know never moves it back
    const pending = applyExecutionReport(state, restOrderReport({ ...rest, status: 'PENDING_CANCEL', updateTime: 55 }, 0));
    expect(pending).toMatchObject({ status: 'PENDING_CANCEL', filledQuantity: '1' });
    expect(applyExecutionReport(pending, restOrderReport({ ...rest, status: 'EXPIRED_IN_TRANSIT', updateTime: 70 }, 0))).toBe(pending);
    expect(restOrderReport({ symbol: 'BTCUSDT', orderId: '1', side: 'BUY', status: 'NEW' }, 77)).toMatchObject({ E: 77, z: '0', Z: '0', q: '0', p: '0', c: '', o: '' });
  });
});
