import { lastValueFrom, of } from 'rxjs';
import { orderBook, type OrderBook } from '../../lib/index';
import type { SymbolRules } from '../../lib/orders/index';
import { planOrders } from '../../docs/examples/demo/plan';

const book = (s: string, bid: string, ask: string): Promise<OrderBook> =>
  lastValueFrom(of({ s, t: 1, a: [[ask, '1.0000'] as const], b: [[bid, '0.5000'] as const] }).pipe(orderBook()));

const rule = (symbol: string, more: Partial<SymbolRules> = {}): SymbolRules => ({ symbol, tickSize: '0.01', stepSize: '0.0001', ...more });
const rules = new Map([['BTCUSDT', rule('BTCUSDT')], ['ETHUSDT', rule('ETHUSDT')]]);

describe('planOrders', () => {
  it('on the simulator: two BUYs under the bid (rest, cancel), one larger than any level over the ask (fills)', async () => {
    const plan = planOrders({ restBook: await book('BTCUSDT', '30000.00', '30000.02'), fillBook: await book('ETHUSDT', '2000.00', '2000.02'), simulator: true, runId: '7', rules });
    expect(plan).toEqual([
      expect.objectContaining({ role: 'rests', symbol: 'BTCUSDT', side: 'BUY', price: '29700', quantity: '0.0333', clientOrderId: 'demoRest7' }),
      expect.objectContaining({ role: 'cancelled', symbol: 'BTCUSDT', side: 'BUY', price: '29400', quantity: '0.0333', clientOrderId: 'demoCancel7' }),
      expect.objectContaining({ role: 'fills', symbol: 'ETHUSDT', side: 'BUY', price: '2020.02', quantity: '2.5', clientOrderId: 'demoFill7' }),
    ]);
  });

  it('on a deployment the orders are small', async () => {
    const plan = planOrders({ restBook: await book('BTCUSDT', '30000.00', '30000.02'), fillBook: await book('ETHUSDT', '2000.00', '2000.02'), simulator: false, runId: '7', rules });
    expect(plan?.map((o) => o.quantity)).toEqual(['0.0006', '0.0006', '0.0099']);
  });

  it("fits prices to the tick (a buy rounds down) and quantities to the step, as exact text (no float's toFixed)", async () => {
    const coarse = new Map([
      ['BTCUSDT', rule('BTCUSDT', { tickSize: '0.5', stepSize: '0.001' })],
      ['ETHUSDT', rule('ETHUSDT', { tickSize: '0.05', stepSize: '0.1' })],
    ]);
    const plan = planOrders({ restBook: await book('BTCUSDT', '30000.3', '30000.8'), fillBook: await book('ETHUSDT', '2000.07', '2000.13'), simulator: true, runId: '7', rules: coarse });
    expect(plan?.map((o) => [o.price, o.quantity])).toEqual([
      ['29700', '0.033'], // 30000.3 × 0.99 = 29700.297 → down to 29700
      ['29400', '0.033'],
      ['2020.1', '2.5'], // 2000.13 × 1.01 = 2020.1313 → down to 2020.10, canonical
    ]);
  });

  it('at least the minimum quantity when the notional buys less than one step', async () => {
    const dear = new Map([['BTCUSDT', rule('BTCUSDT', { stepSize: '0.1', minQty: '0.2' })], ['ETHUSDT', rule('ETHUSDT')]]);
    const plan = planOrders({ restBook: await book('BTCUSDT', '30000', '30000.02'), fillBook: await book('ETHUSDT', '2000', '2000.02'), simulator: false, runId: '7', rules: dear });
    expect(plan?.[0]?.quantity).toBe('0.2');
  });

  it('gives up when a side of a book is empty, or a symbol has no rules', async () => {
    const empty = await lastValueFrom(of({ s: 'BTCUSDT', t: 1, a: [], b: [] }).pipe(orderBook()));
    expect(planOrders({ restBook: empty, fillBook: empty, simulator: true, runId: '1', rules })).toBeUndefined();
    const btc = await book('BTCUSDT', '30000.00', '30000.02');
    expect(planOrders({ restBook: btc, fillBook: await book('SOLUSDT', '20', '20.01'), simulator: true, runId: '1', rules })).toBeUndefined();
  });
});
