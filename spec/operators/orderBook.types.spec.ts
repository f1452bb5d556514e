import { firstValueFrom, of } from 'rxjs';
import { orderBook } from '../../lib/operators/orderBook';
import type { DepthRecord } from '../../lib/codecs/depth';

describe('orderBook typing', () => {
  it('accepts decoded depth records directly (as market.depth(symbol) emits them)', async () => {
    const record: DepthRecord = { t: 1, a: [['101', '1']], b: [['100', '2']] };
    const book = await firstValueFrom(of(record).pipe(orderBook()));
    expect(book.symbol).toBe('');
    expect(book.bestBid?.[0]).toBe('100');
  });
});
