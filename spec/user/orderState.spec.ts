import fc from 'fast-check';
import { isFinalOrderStatus, KnownOrderStatusCodec, type ExecutionReport, type OrderStatus } from '../../lib/codecs/executionReport';
import type { RestOrder } from '../../lib/codecs/rest/order';
import { applyExecutionReport, compareReports, FINAL_RANK, fillAverage, restOrderReport, statusRank, type OrderState } from '../../lib/user/orderState';
import { executionReport } from '../../lib/testing/privateMessages';

/** A decoded execution report at E = O = U = 1000 (as the user-stream fixtures' `report`). */
const report = (over: Partial<ExecutionReport> = {}): ExecutionReport => executionReport({ E: 1000, r: '1', O: 1000, U: 1000, ...over });

const fold = (reports: readonly ExecutionReport[]): OrderState | undefined =>
  reports.reduce<OrderState | undefined>((state, r) => applyExecutionReport(state, r), undefined);

describe('statusRank', () => {
  it('ranks unknown text < PENDING_NEW < NEW < PARTIALLY_FILLED < PENDING_CANCEL < every final status', () => {
    const statuses: OrderStatus[] = ['EXPIRED', '', 'PENDING_NEW', 'NEW', 'PARTIALLY_FILLED', 'PENDING_CANCEL', 'FILLED', 'PARTIALLY_CANCELED', 'CANCELED', 'REJECTED'];
    expect(statuses.map(statusRank)).toEqual([0, 0, 1, 2, 3, 4, FINAL_RANK, FINAL_RANK, FINAL_RANK, FINAL_RANK]);
  });

  it('ranks a status final exactly when isFinalOrderStatus says so (inherited names are unknown text)', () => {
    for (const status of [...Object.keys(KnownOrderStatusCodec.keys), 'EXPIRED', 'toString', '__proto__', 'constructor']) {
      expect(statusRank(status) === FINAL_RANK).toBe(isFinalOrderStatus(status));
    }
    expect(statusRank('toString')).toBe(0);
  });
});

describe('compareReports', () => {
  const base = report({ X: 'PARTIALLY_FILLED', z: '0.5', Z: '50', U: 100, E: 100, d: '5' });

  it.each<[string, Partial<ExecutionReport>]>([
    ['status progress first (even with less filled)', { X: 'CANCELED', z: '0.1' }],
    ['then the filled quantity, as a decimal', { z: '0.50001', U: 1 }],
    ['then the update time U', { U: 101, E: 1 }],
    ['then E', { E: 101 }],
    ['then the execution id d', { d: '6' }],
  ])('orders by %s', (_, over) => {
    const later = { ...base, ...over };
    expect(compareReports(later, base)).toBeGreaterThan(0);
    expect(compareReports(base, later)).toBeLessThan(0);
  });

  it('uses E when U is absent', () => {
    const { U: _u, ...noU } = base;
    expect(compareReports({ ...noU, E: 101 }, base)).toBeGreaterThan(0);
  });

  it('breaks a tie between terminal statuses by their text', () => {
    expect(compareReports({ ...base, X: 'FILLED' }, { ...base, X: 'CANCELED' })).toBeGreaterThan(0);
  });

  it('finds a report equal to itself and to a copy whose decimals are written differently', () => {
    expect(compareReports(base, base)).toBe(0);
    expect(compareReports(base, { ...base, z: '0.50' })).toBe(0);
  });
});

describe('applyExecutionReport', () => {
  it('starts an order from its first report', () => {
    const r = report({ i: '1900000000000000001', c: 'mine', X: 'PARTIALLY_FILLED', z: '0.5', Z: '15000.05', U: 1200 });
    expect(applyExecutionReport(undefined, r)).toEqual<OrderState>({
      orderId: '1900000000000000001',
      clientOrderId: 'mine',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      status: 'PARTIALLY_FILLED',
      quantity: '1',
      price: '100',
      filledQuantity: '0.5',
      filledQuoteQuantity: '15000.05',
      averagePrice: '30000.1',
      updateTime: 1200,
      report: r,
    });
  });

  it("takes the report's own average (V) or last price (L) when it is Z / z exactly, else divides", () => {
    const average = (fields: Partial<ExecutionReport>): string | undefined => applyExecutionReport(undefined, report({ X: 'PARTIALLY_FILLED', ...fields })).averagePrice;
    const both = (fields: Partial<ExecutionReport>): [string | undefined, string | undefined] => [average(fields), fillAverage(fields.Z!, fields.z!, report(fields))];
    expect(both({ z: '0.5', Z: '15000.05', V: '30000.10000', L: '29999' })).toEqual(['30000.1', '30000.1']); // V, written canonically
    expect(both({ z: '0.5', Z: '15000.05', V: '30000', L: '30000.1' })).toEqual(['30000.1', '30000.1']); // V is not the quotient: divided
    expect(both({ z: '0.5', Z: '15000.05', V: '', L: '030000.1' })).toEqual(['30000.1', '30000.1']); // L
    expect(both({ z: '3', Z: '10', V: '3.33333333', L: '3' })).toEqual(['3.333333333333333333', '3.333333333333333333']); // rounded by the service
    expect(both({ z: '0', Z: '0', V: '0', L: '0' })).toEqual([undefined, undefined]); // nothing filled
  });

  it('has no average price while nothing is filled, and takes E as the update time without U', () => {
    const { U: _u, ...noU } = report({ E: 777 });
    const state = applyExecutionReport(undefined, noU);
    expect(state.averagePrice).toBeUndefined();
    expect(state.updateTime).toBe(777);
  });

  it('moves forward with a newer report', () => {
    const first = applyExecutionReport(undefined, report({ X: 'NEW' }));
    const filled = report({ X: 'FILLED', z: '1', Z: '100', U: 2000, E: 2000 });
    const next = applyExecutionReport(first, filled);
    expect(next).toMatchObject({ status: 'FILLED', filledQuantity: '1', averagePrice: '100', updateTime: 2000, report: filled });
  });

  it('returns the same state for a duplicate or an older report', () => {
    const state = applyExecutionReport(undefined, report({ X: 'PARTIALLY_FILLED', z: '0.5', Z: '50', U: 2000 }));
    expect(applyExecutionReport(state, state.report)).toBe(state);
    expect(applyExecutionReport(state, report({ X: 'NEW', U: 1000 }))).toBe(state);
  });

  it('keeps the fills of a state when a newer report carries less filled (a cancel reporting z = 0)', () => {
    const partial = applyExecutionReport(undefined, report({ X: 'PARTIALLY_FILLED', z: '0.5', Z: '50', U: 2000 }));
    const canceled = report({ X: 'CANCELED', z: '0', Z: '0', U: 3000 });
    expect(applyExecutionReport(partial, canceled)).toMatchObject({
      status: 'CANCELED',
      filledQuantity: '0.5',
      filledQuoteQuantity: '50',
      averagePrice: '100',
      updateTime: 3000,
      report: canceled,
    });
  });

  it('takes more fills from an older report while keeping the newer status', () => {
    const canceled = applyExecutionReport(undefined, report({ X: 'CANCELED', z: '0', Z: '0', U: 3000 }));
    const fill = report({ X: 'PARTIALLY_FILLED', z: '0.25', Z: '25', U: 2000 });
    expect(applyExecutionReport(canceled, fill)).toMatchObject({
      status: 'CANCELED',
      filledQuantity: '0.25',
      filledQuoteQuantity: '25',
      averagePrice: '100',
      updateTime: 3000,
    });
  });

  it('takes a larger quote quantity at the same filled quantity', () => {
    const state = applyExecutionReport(undefined, report({ X: 'FILLED', z: '1', Z: '100', U: 2000 }));
    expect(applyExecutionReport(state, report({ X: 'FILLED', z: '1', Z: '101', U: 1000 })).filledQuoteQuantity).toBe('101');
  });

  it('folds to one state whatever the arrival order and the duplicates', () => {
    const reports: ExecutionReport[] = [
      report({ X: 'NEW', U: 1000, d: '0' }),
      report({ X: 'PARTIALLY_FILLED', z: '0.3', Z: '30', U: 1100, d: '1' }),
      report({ X: 'PARTIALLY_FILLED', z: '0.6', Z: '61', U: 1200, d: '2' }),
      report({ X: 'PARTIALLY_FILLED', z: '0.6', Z: '61', U: 1200, E: 1300, d: '2' }),
      report({ X: 'CANCELED', z: '0.6', Z: '61', U: 1400, d: '3' }),
    ];
    const expected = fold(reports);
    fc.assert(
      fc.property(fc.shuffledSubarray(reports, { minLength: reports.length }), fc.array(fc.nat(reports.length - 1), { maxLength: 4 }), (order, dupes) => {
        const arrived = [...order, ...dupes.map((i) => order[i]!)];
        expect(fold(arrived)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe('restOrderReport', () => {
  const order: RestOrder = {
    symbol: 'BTCUSDT',
    orderId: '1900000000000000001',
    clientOrderId: 'mine',
    side: 'SELL',
    status: 'PARTIALLY_FILLED',
    type: 'LIMIT',
    price: '30000',
    origQty: '1',
    executedQty: '0.5',
    cumulativeQuoteQty: '15000',
    time: 100,
    transactTime: 200,
    updateTime: 300,
  };

  it('stands an order of the REST API for its execution report, updateTime as E and U', () => {
    expect(restOrderReport(order, 9)).toEqual<ExecutionReport>({
      e: 'executionReport',
      E: 300,
      U: 300,
      s: 'BTCUSDT',
      i: '1900000000000000001',
      c: 'mine',
      S: 'SELL',
      o: 'LIMIT',
      X: 'PARTIALLY_FILLED',
      q: '1',
      p: '30000',
      z: '0.5',
      Z: '15000',
      d: '',
    });
  });

  it.each<[string, Partial<RestOrder>, number]>([
    ['transactTime', { updateTime: undefined }, 200],
    ['time', { updateTime: undefined, transactTime: undefined }, 100],
    ['the fallback', { updateTime: undefined, transactTime: undefined, time: undefined }, 9],
  ])('takes %s as the time when the newer ones are missing', (_, over, time) => {
    expect(restOrderReport({ ...order, ...over }, 9)).toMatchObject({ E: time, U: time });
  });

  it("reads the misspelt cummulativeQuoteQty, and '0' for missing or empty amounts and fields", () => {
    const bare: RestOrder = { symbol: 'BTCUSDT', orderId: '7', side: 'BUY', status: 'NEW', price: '', cummulativeQuoteQty: '12' };
    expect(restOrderReport(bare, 5)).toMatchObject({ c: '', o: '', q: '0', p: '0', z: '0', Z: '12', E: 5 });
  });

  it('carries the time in force when the order has one', () => {
    expect(restOrderReport({ ...order, timeInForce: 'IOC' }, 0)).toMatchObject({ f: 'IOC' });
    expect(restOrderReport(order, 0)).not.toHaveProperty('f');
  });

  it('stands for any status as sent: PENDING_* and unknown text fold by the push rules', () => {
    expect(restOrderReport({ ...order, status: 'PENDING_CANCEL' }, 0)).toMatchObject({ X: 'PENDING_CANCEL' });
    expect(restOrderReport({ ...order, status: 'PENDING_NEW' }, 0)).toMatchObject({ X: 'PENDING_NEW' });
    expect(restOrderReport({ ...order, status: 'SOMETHING_NEW' }, 0)).toMatchObject({ X: 'SOMETHING_NEW' });
  });

  it('merges into the states by the same rule as the pushes', () => {
    const pushed = applyExecutionReport(undefined, report({ i: order.orderId, X: 'PARTIALLY_FILLED', z: '0.25', Z: '7500', U: 250 }));
    const merged = applyExecutionReport(pushed, restOrderReport(order, 0)!);
    expect(merged).toMatchObject({ filledQuantity: '0.5', averagePrice: '30000', updateTime: 300 });
  });
});

describe('the order fold over the venue statuses (PENDING_NEW, PENDING_CANCEL, unknown text)', () => {
  /** A status the library does not know. */
  const unknownStatus = fc.constantFrom('EXPIRED', 'PENDING_REPLACE', '', 'ORDER_NEW');

  /**
   * One order's reports as the venue may send them, in the order it sent them (U grows): PENDING_NEW, NEW, fills,
   * maybe PENDING_CANCEL (fills may still come: a fill that beats the cancel), maybe an end (FILLED when all is
   * filled, else CANCELED / PARTIALLY_CANCELED or REJECTED), and reports of unknown statuses anywhere, with a fill
   * at most the one before them. Quantities in thousandths of 1, price 100.
   */
  const life = fc
    .record({
      pendingNew: fc.boolean(),
      fills: fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 4 }),
      cancelAt: fc.option(fc.nat(4), { nil: undefined }),
      end: fc.constantFrom<'none' | 'cancel' | 'fill' | 'reject'>('none', 'cancel', 'fill', 'reject'),
      unknown: fc.array(fc.tuple(fc.nat(8), unknownStatus), { maxLength: 3 }),
    })
    .map(({ pendingNew, fills, cancelAt, end, unknown }) => {
      const steps: Array<{ X: OrderStatus; filled: number }> = [];
      if (pendingNew) steps.push({ X: 'PENDING_NEW', filled: 0 });
      steps.push({ X: 'NEW', filled: 0 });
      let filled = 0;
      fills.forEach((f, k) => {
        if (cancelAt === k) steps.push({ X: 'PENDING_CANCEL', filled });
        filled = Math.min(1000, filled + f);
        steps.push({ X: 'PARTIALLY_FILLED', filled });
      });
      if (cancelAt !== undefined && cancelAt >= fills.length) steps.push({ X: 'PENDING_CANCEL', filled });
      if (end === 'fill') steps.push({ X: 'FILLED', filled: 1000 });
      else if (end === 'cancel') steps.push({ X: filled > 0 ? 'PARTIALLY_CANCELED' : 'CANCELED', filled });
      else if (end === 'reject' && filled === 0) steps.push({ X: 'REJECTED', filled });
      for (const [at, X] of unknown) {
        const k = at % steps.length;
        steps.splice(k + 1, 0, { X, filled: steps[k]!.filled });
      }
      const text = (n: number): string => (n === 0 ? '0' : (n / 1000).toString());
      return steps.map(({ X, filled }, n) =>
        report({ X, z: text(filled) as never, Z: text(filled * 100) as never, U: 1000 + n, E: 1000 + n, d: String(n), V: '', L: '' }),
      );
    });

  /** The reports, shuffled, some sent twice (duplicates). */
  const arrivals = (reports: readonly ExecutionReport[]): fc.Arbitrary<ExecutionReport[]> =>
    fc
      .tuple(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: reports.length, maxLength: reports.length }),
        fc.array(fc.nat(reports.length - 1), { maxLength: 2 }),
      )
      .map(([keys, repeats]) => {
        const shuffled = reports.map((r, k) => [keys[k]!, r] as const).sort((a, b) => a[0] - b[0]).map(([, r]) => r);
        return [...shuffled, ...repeats.map((k) => reports[k]!)];
      });

  const scenario = life.chain((reports) => arrivals(reports).map((arrived) => ({ reports, arrived })));

  it('the result is the same whatever the arrival order and duplicates', () => {
    fc.assert(
      fc.property(scenario, ({ reports, arrived }) => {
        expect(fold(arrived)).toEqual(fold(reports));
      }),
      { numRuns: 500 },
    );
  });

  it('never moves backwards: status rank and filled quantity only grow, at every step, in any order', () => {
    fc.assert(
      fc.property(scenario, ({ arrived }) => {
        let state: OrderState | undefined;
        for (const r of arrived) {
          const next = applyExecutionReport(state, r);
          if (state !== undefined) {
            expect(statusRank(next.status)).toBeGreaterThanOrEqual(statusRank(state.status));
            expect(Number(next.filledQuantity)).toBeGreaterThanOrEqual(Number(state.filledQuantity));
          }
          state = next;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('ends in the furthest status sent: final only when a final report came, never by an unknown status; all fills counted', () => {
    fc.assert(
      fc.property(scenario, ({ reports, arrived }) => {
        const end = fold(arrived)!;
        const final = reports.find((r) => isFinalOrderStatus(r.X));
        expect(isFinalOrderStatus(end.status)).toBe(final !== undefined);
        if (final !== undefined) expect(end.status).toBe(final.X);
        else {
          const known = reports.filter((r) => statusRank(r.X) > 0);
          expect(end.status).toBe(known.reduce((a, b) => (statusRank(b.X) >= statusRank(a.X) ? b : a)).X);
        }
        expect(end.filledQuantity).toBe(reports.reduce((a, r) => (Number(r.z) > Number(a) ? r.z : a), '0' as string));
      }),
      { numRuns: 500 },
    );
  });

  it.each<[string, OrderStatus[], OrderStatus]>([
    ['PENDING_CANCEL then FILLED (a fill beat the cancel) ends FILLED', ['NEW', 'PENDING_CANCEL', 'FILLED'], 'FILLED'],
    ['FILLED then a late PENDING_CANCEL stays FILLED', ['NEW', 'FILLED', 'PENDING_CANCEL'], 'FILLED'],
    ['PENDING_NEW after NEW does not bring it back', ['NEW', 'PENDING_NEW'], 'NEW'],
    ['a late PARTIALLY_FILLED after PENDING_CANCEL keeps PENDING_CANCEL (its fill counted)', ['NEW', 'PENDING_CANCEL', 'PARTIALLY_FILLED'], 'PENDING_CANCEL'],
    ['an unknown status after NEW changes nothing', ['NEW', 'EXPIRED'], 'NEW'],
    ['an unknown status alone is kept as text, not final', ['EXPIRED'], 'EXPIRED'],
  ])('%s', (_, statuses, end) => {
    const reports = statuses.map((X, n) => report({ X, z: X === 'FILLED' ? '1' : X === 'PARTIALLY_FILLED' ? '0.5' : '0', Z: '0', U: 1000 + n, E: 1000 + n }));
    expect(fold(reports)!.status).toBe(end);
    if (statuses.includes('PARTIALLY_FILLED')) expect(fold(reports)!.filledQuantity).toBe('0.5');
  });
});
