import { TestScheduler } from 'rxjs/testing';
import { orderBook, type DepthSnapshot, type OrderBook } from '../../lib/operators/orderBook';

const snapshot = (b: [string, string][], a: [string, string][], t = 1): DepthSnapshot => ({ s: 'BTCUSDT', t, a, b });

describe('orderBook', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  it('maps each snapshot to a checked view, one for one', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const d1 = snapshot([['27000.1', '1'], ['26999.9', '2']], [['27000.3', '0.5'], ['27001', '3']], 1);
      const d2 = snapshot([], [['5', '1']], 2);
      const source = cold('--x---y--|', { x: d1, y: d2 });
      const expected: Record<string, OrderBook> = {
        a: {
          symbol: 'BTCUSDT',
          time: 1,
          bids: d1.b,
          asks: d1.a,
          bestBid: ['27000.1', '1'],
          bestAsk: ['27000.3', '0.5'],
          spread: '0.2',
          mid: '27000.2',
          crossed: false,
          sorted: true,
          invalidLevels: 0,
        },
        b: { symbol: 'BTCUSDT', time: 2, bids: [], asks: [['5', '1']], bestAsk: ['5', '1'], crossed: false, sorted: true, invalidLevels: 0 },
      };
      expectObservable(source.pipe(orderBook())).toBe('--a---b--|', expected);
      expectSubscriptions(source.subscriptions).toBe('^--------!');
    });
  });

  it('compares prices as exact decimals, not as text or floats', () => {
    // '9.5' > '10' as text; 0.1 + 0.2 style float noise must not appear in spread or mid
    const book = snapshotBook([['9.5', '1'], ['10', '1'], ['0.30', '1']], [['10.3', '1'], ['10.30000000000000001', '1']]);
    expect(book.bids.map((l) => l[0])).toEqual(['10', '9.5', '0.30']);
    expect(book.asks.map((l) => l[0])).toEqual(['10.3', '10.30000000000000001']);
    expect(book.spread).toBe('0.3');
    expect(book.mid).toBe('10.15');
    expect(book.sorted).toBe(false);
  });

  it('flags a crossed or locked book', () => {
    expect(snapshotBook([['101', '1']], [['100', '1']])).toMatchObject({ crossed: true, spread: '-1', mid: '100.5' });
    expect(snapshotBook([['100.0', '1']], [['100', '1']])).toMatchObject({ crossed: true, spread: '0.0' });
    expect(snapshotBook([['99.99', '1']], [['100', '1']])).toMatchObject({ crossed: false, spread: '0.01' });
  });

  it('flags unsorted sides and duplicate prices, and sorts them', () => {
    const unsortedAsks = snapshotBook([['2', '1'], ['1', '1']], [['4', '1'], ['3', '1']]);
    expect(unsortedAsks.sorted).toBe(false);
    expect(unsortedAsks.asks).toEqual([['3', '1'], ['4', '1']]);
    expect(snapshotBook([['2', '1'], ['2.0', '1']], [['3', '1']]).sorted).toBe(false);
    expect(snapshotBook([['2', '1'], ['1', '1']], [['3', '1'], ['4', '1']]).sorted).toBe(true);
  });

  it('drops malformed levels without throwing and counts them', () => {
    const raw = { s: 'X', t: 1, b: [['1', '1'], ['abc', '1'], null, ['2']], a: [['3', '-1'], ['3', '1']] } as unknown as DepthSnapshot;
    const book = snapshotBook(raw.b as [string, string][], raw.a as [string, string][]);
    expect(book.bids).toEqual([['1', '1']]);
    expect(book.asks).toEqual([['3', '1']]);
    expect(book.invalidLevels).toBe(4);
  });

  it('keeps the best `levels` per side', () => {
    const book = snapshotBook([['1', '1'], ['3', '1'], ['2', '1']], [['6', '1'], ['4', '1'], ['5', '1']], { levels: 2 });
    expect(book.bids).toEqual([['3', '1'], ['2', '1']]);
    expect(book.asks).toEqual([['4', '1'], ['5', '1']]);
  });

  function snapshotBook(b: [string, string][], a: [string, string][], config = {}): OrderBook {
    let out: OrderBook | undefined;
    testScheduler.run(({ cold }) => {
      cold('a|', { a: snapshot(b, a) }).pipe(orderBook(config)).subscribe((v) => (out = v));
    });
    if (!out) throw new Error('no book');
    return out;
  }
});
