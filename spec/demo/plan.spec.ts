import { lastValueFrom, of } from 'rxjs';
import { orderBook, type OrderBook } from '../../lib/index';
import { planOrders } from '../../docs/examples/demo/plan';

const book = (s: string, bid: string, ask: string): Promise<OrderBook> =>
  lastValueFrom(of({ s, t: 1, a: [[ask, '1.0000'] as const], b: [[bid, '0.5000'] as const] }).pipe(orderBook()));

describe('planOrders', () => {
  it('on the simulator: two BUYs under the bid (rest, cancel), one larger than any level over the ask (fills)', async () => {
    const plan = planOrders({ restBook: await book('BTCUSDT', '30000.00', '30000.02'), fillBook: await book('ETHUSDT', '2000.00', '2000.02'), simulator: true, runId: '7' });
    expect(plan).toEqual([
      expect.objectContaining({ role: 'rests', symbol: 'BTCUSDT', side: 'BUY', price: '29700.00', quantity: '0.0333', clientOrderId: 'demoRest7' }),
      expect.objectContaining({ role: 'cancelled', symbol: 'BTCUSDT', side: 'BUY', price: '29400.00', quantity: '0.0333', clientOrderId: 'demoCancel7' }),
      expect.objectContaining({ role: 'fills', symbol: 'ETHUSDT', side: 'BUY', price: '2020.02', quantity: '2.5000', clientOrderId: 'demoFill7' }),
    ]);
  });

  it('on a deployment the orders are small', async () => {
    const plan = planOrders({ restBook: await book('BTCUSDT', '30000.00', '30000.02'), fillBook: await book('ETHUSDT', '2000.00', '2000.02'), simulator: false, runId: '7' });
    expect(plan?.map((o) => o.quantity)).toEqual(['0.0007', '0.0007', '0.0100']);
  });

  it('gives up when a side of a book is empty', async () => {
    const empty = await lastValueFrom(of({ s: 'BTCUSDT', t: 1, a: [], b: [] }).pipe(orderBook()));
    expect(planOrders({ restBook: empty, fillBook: empty, simulator: true, runId: '1' })).toBeUndefined();
  });
});
