import { TestScheduler } from 'rxjs/testing';
import fc from 'fast-check';
import { compareDecimal, isNonNegativeDecimal } from '../../lib/decimal/compare';
import { orderBook, toOrderBook, type DepthSnapshot, type OrderBook, type OrderBookLevel } from '../../lib/operators/orderBook';
import { propertyRuns } from '../helpers/propertyRuns';

const snapshot = (b: OrderBookLevel[], a: OrderBookLevel[], t = 1) => ({ s: 'BTCUSDT', t, a, b }) satisfies DepthSnapshot;

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
    const book = snapshotBook(raw.b as OrderBookLevel[], raw.a as OrderBookLevel[]);
    expect(book.bids).toEqual([['1', '1']]);
    expect(book.asks).toEqual([['3', '1']]);
    expect(book.invalidLevels).toBe(4);
  });

  it('keeps the best `levels` per side', () => {
    const book = snapshotBook([['1', '1'], ['3', '1'], ['2', '1']], [['6', '1'], ['4', '1'], ['5', '1']], { levels: 2 });
    expect(book.bids).toEqual([['3', '1'], ['2', '1']]);
    expect(book.asks).toEqual([['4', '1'], ['5', '1']]);
  });

  function snapshotBook(b: OrderBookLevel[], a: OrderBookLevel[], config = {}): OrderBook {
    let out: OrderBook | undefined;
    testScheduler.run(({ cold }) => {
      cold('a|', { a: snapshot(b, a) }).pipe(orderBook(config)).subscribe((v) => (out = v));
    });
    if (!out) throw new Error('no book');
    return out;
  }
});

describe('toOrderBook against a plain model (property)', () => {
  // The model: filter with the decimal grammar, check order with compareDecimal, sort a copy. The operator reads
  // each plain price once and compares on integer-part lengths; both must agree on every field.
  const price = fc.oneof(
    fc.tuple(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 99 })).map(([i, f]) => `${i}.${String(f).padStart(2, '0')}`),
    fc.integer({ min: 0, max: 120 }).map(String),
    fc.constantFrom('1e2', '0100', '-1', '1.5E1', 'x', '', '1.', '007.5', '100.000'),
  );
  const level = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(price, fc.constantFrom('1', '0.5', '2.000')) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(['1'], null, [1, '1'], ['1', '-2'], 'x') },
  );
  const side = fc.oneof(fc.array(level, { maxLength: 12 }), fc.array(level, { maxLength: 12 }).map((ls) => sortedModel(ls, 1)));

  function isLevelModel(l: unknown): l is [string, string] {
    return Array.isArray(l) && typeof l[0] === 'string' && typeof l[1] === 'string' && isNonNegativeDecimal(l[0]) && isNonNegativeDecimal(l[1]);
  }
  function sortedModel(levels: readonly unknown[], sign: 1 | -1): unknown[] {
    const valid = levels.filter(isLevelModel);
    return [...valid].sort((x, y) => sign * compareDecimal(x[0], y[0]));
  }
  function sideModel(levels: readonly unknown[], sign: 1 | -1) {
    const valid = levels.filter(isLevelModel);
    let sorted = true;
    for (let i = 1; i < valid.length; i++) if (!(sign * compareDecimal(valid[i - 1]![0], valid[i]![0]) < 0)) sorted = false;
    return { levels: sorted ? valid : sortedModel(valid, sign), sorted, invalid: levels.length - valid.length };
  }

  it('gives the model’s sides, flags and counts for any levels, valid or not, sorted or not', () => {
    fc.assert(
      fc.property(side, side, (b, a) => {
        const book = toOrderBook({ t: 1, a: a as OrderBookLevel[], b: b as OrderBookLevel[] });
        const bids = sideModel(b, -1);
        const asks = sideModel(a, 1);
        expect(book.bids).toEqual(bids.levels);
        expect(book.asks).toEqual(asks.levels);
        expect(book.sorted).toBe(bids.sorted && asks.sorted);
        expect(book.invalidLevels).toBe(bids.invalid + asks.invalid);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});
