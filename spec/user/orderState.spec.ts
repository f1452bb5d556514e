import fc from 'fast-check';
import type { ExecutionReport, OrderStatus } from '../../lib/codecs/executionReport';
import type { RestOrder } from '../../lib/codecs/rest/order';
import { applyExecutionReport, compareReports, fillAverage, restOrderReport, statusRank, type OrderState } from '../../lib/user/orderState';
import { executionReport } from '../../lib/testing/privateMessages';

/** A decoded execution report at E = O = U = 1000 (as the user-stream fixtures' `report`). */
const report = (over: Partial<ExecutionReport> = {}): ExecutionReport => executionReport({ E: 1000, r: '1', O: 1000, U: 1000, ...over });

const fold = (reports: readonly ExecutionReport[]): OrderState | undefined =>
  reports.reduce<OrderState | undefined>((state, r) => applyExecutionReport(state, r), undefined);

describe('statusRank', () => {
  it('ranks NEW below PARTIALLY_FILLED below every terminal status', () => {
    const statuses: OrderStatus[] = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'PARTIALLY_CANCELED', 'CANCELED', 'REJECTED'];
    expect(statuses.map(statusRank)).toEqual([0, 1, 2, 2, 2, 2]);
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

  it('gives undefined for a status the fold does not know', () => {
    expect(restOrderReport({ ...order, status: 'PENDING_CANCEL' }, 0)).toBeUndefined();
  });

  it('merges into the states by the same rule as the pushes', () => {
    const pushed = applyExecutionReport(undefined, report({ i: order.orderId, X: 'PARTIALLY_FILLED', z: '0.25', Z: '7500', U: 250 }));
    const merged = applyExecutionReport(pushed, restOrderReport(order, 0)!);
    expect(merged).toMatchObject({ filledQuantity: '0.5', averagePrice: '30000', updateTime: 300 });
  });
});
