import fc from 'fast-check';
import { from, toArray, firstValueFrom } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { incrementalBook, type BookGap, type IncrementalDepth } from '../../lib/operators/incrementalBook';
import { toOrderBook, type OrderBook } from '../../lib/operators/orderBook';
import { propertyRuns } from '../helpers/propertyRuns';

/** A full book: price → quantity per side (prices as integers of a tick, written with 2 decimals). */
interface FullBook {
  readonly bids: ReadonlyMap<number, string>;
  readonly asks: ReadonlyMap<number, string>;
}

const priceText = (ticks: number): string => (ticks / 100).toFixed(2);
const sideLevels = (side: ReadonlyMap<number, string>, descending: boolean): [string, string][] =>
  [...side.entries()].sort((x, y) => (descending ? y[0] - x[0] : x[0] - y[0])).map(([p, q]) => [priceText(p), q]);

/** The book's levels as a snapshot record, sorted, with sequence `o`. */
const snapshotOf = (book: FullBook, t: number, o: string | number = 0): IncrementalDepth & { s: string } => ({
  s: 'BTCUSDT',
  t,
  o,
  b: sideLevels(book.bids, true),
  a: sideLevels(book.asks, false),
});

/** The levels that changed from `before` to `after` (a level gone: quantity "0"), in any order. */
function deltaSide(before: ReadonlyMap<number, string>, after: ReadonlyMap<number, string>, zero: string): [string, string][] {
  const out: [string, string][] = [];
  for (const [p, q] of after) if (before.get(p) !== q) out.push([priceText(p), q]);
  for (const p of before.keys()) if (!after.has(p)) out.push([priceText(p), zero]);
  return out;
}

// Bids below 5000 ticks, asks from 5000: never crossed. Quantities never zero.
const quantity = fc.integer({ min: 1, max: 10_000 }).map((n) => (n / 1000).toString());
const side = (min: number, max: number) =>
  fc.array(fc.tuple(fc.integer({ min, max }), quantity), { maxLength: 30 }).map((levels) => new Map(levels));
const fullBook: fc.Arbitrary<FullBook> = fc.record({ bids: side(4900, 4999), asks: side(5000, 5100) });
const zeroText = fc.constantFrom('0', '0.0', '0.000');

/** What `orderBook()` gives for the full book: the reference the incremental book must equal. */
const reference = (book: FullBook, t: number): OrderBook => toOrderBook(snapshotOf(book, t));

/** The books emitted for `records`, and the gaps signalled. */
async function run(records: readonly IncrementalDepth[], levels?: number): Promise<{ books: OrderBook[]; gaps: BookGap[] }> {
  const gaps: BookGap[] = [];
  const books = await firstValueFrom(from(records).pipe(incrementalBook({ onGap: (g) => gaps.push(g), ...(levels !== undefined && { levels }) }), toArray()));
  return { books, gaps };
}

describe('incrementalBook', () => {
  it('keeps the book from a snapshot and deltas: a zero quantity deletes, a new price is inserted in order', async () => {
    const { books, gaps } = await run([
      { s: 'BTCUSDT', t: 1, o: 0, b: [['100', '1'], ['99', '2']], a: [['101', '1'], ['102', '3']] },
      { s: 'BTCUSDT', t: 2, o: '1', b: [['99.5', '4'], ['99', '0']], a: [['101', '0.000']] },
      { s: 'BTCUSDT', t: 3, o: 2, b: [], a: [['101.5', '1']] },
    ]);
    expect(gaps).toEqual([]);
    expect(books.map((b) => [b.bids, b.asks])).toEqual([
      [[['100', '1'], ['99', '2']], [['101', '1'], ['102', '3']]],
      [[['100', '1'], ['99.5', '4']], [['102', '3']]],
      [[['100', '1'], ['99.5', '4']], [['101.5', '1'], ['102', '3']]],
    ]);
    expect(books[2]).toMatchObject({ symbol: 'BTCUSDT', time: 3, spread: '1.5', mid: '100.75', crossed: false, sorted: true, invalidLevels: 0 });
  });

  it('signals a skipped, a repeated and a missing snapshot, emits nothing until the next snapshot, then heals', async () => {
    const s = { s: 'X', a: [['2', '1']] as [string, string][], b: [['1', '1']] as [string, string][] };
    const { books, gaps } = await run([
      { ...s, t: 1, o: 3, a: [['2', '5']], b: [] }, // before any snapshot
      { ...s, t: 2, o: 0 },
      { ...s, t: 3, o: 1, a: [['2', '2']], b: [] },
      { ...s, t: 4, o: 3, a: [['2', '9']], b: [] }, // o 2 lost
      { ...s, t: 5, o: 4, a: [], b: [] }, // still broken: dropped without a second signal
      { ...s, t: 6, o: 0 },
      { ...s, t: 7, o: 1, a: [], b: [['1', '7']] },
      { ...s, t: 8, o: 1, a: [], b: [['1', '8']] }, // repeated
      { ...s, t: 9, o: 0 },
    ]);
    expect(gaps).toEqual([
      { symbol: 'X', reason: 'no-snapshot', expected: '', received: '3', time: 1 },
      { symbol: 'X', reason: 'skipped', expected: '2', received: '3', time: 4 },
      { symbol: 'X', reason: 'repeated', expected: '2', received: '1', time: 8 },
    ]);
    expect(books.map((b) => b.time)).toEqual([2, 3, 6, 7, 9]);
    expect(books[1]!.asks).toEqual([['2', '2']]);
    expect(books[3]!.bids).toEqual([['1', '7']]);
  });

  it('marbles: one book per record while the chain holds', () => {
    new TestScheduler((a, e) => expect(a).toEqual(e)).run(({ cold, expectObservable, expectSubscriptions }) => {
      const r = (t: number, o: number): IncrementalDepth => ({ t, o, a: [], b: [['1', String(t)]] });
      const source = cold('-a-b-c-d-|', { a: r(1, 0), b: r(2, 1), c: r(3, 3), d: r(4, 0) });
      const times = source.pipe(incrementalBook());
      expectObservable(times).toBe('-x-y---z-|', {
        x: toOrderBook({ t: 1, a: [], b: [['1', '1']] }),
        y: toOrderBook({ t: 2, a: [], b: [['1', '2']] }),
        z: toOrderBook({ t: 4, a: [], b: [['1', '4']] }),
      });
      expectSubscriptions(source.subscriptions).toBe('^--------!');
    });
  });

  it('drops a level that is not decimal text and counts it in that book', async () => {
    const { books } = await run([
      { t: 1, o: 0, b: [['1', '1']], a: [] },
      { t: 2, o: 1, b: [['x', '1'], ['0.5', '-1'], ['0.9', '2']], a: [] },
    ]);
    expect(books[1]).toMatchObject({ bids: [['1', '1'], ['0.9', '2']], invalidLevels: 2 });
  });

  it('limits the levels emitted, not the levels kept', async () => {
    const { books } = await run(
      [
        { t: 1, o: 0, b: [['3', '1'], ['2', '1'], ['1', '1']], a: [] },
        { t: 2, o: 1, b: [['3', '0']], a: [] },
      ],
      2,
    );
    expect(books.map((b) => b.bids)).toEqual([
      [['3', '1'], ['2', '1']],
      [['2', '1'], ['1', '1']],
    ]);
  });

  it('takes a full-book feed too (depth, mergedDepth: every record a snapshot, o 0): the same books as orderBook()', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fullBook, { minLength: 1, maxLength: 10 }), async (books) => {
        const records = books.map((b, t) => ({ ...snapshotOf(b, t), o: '0' }));
        const { books: out, gaps } = await run(records);
        expect(gaps).toEqual([]);
        expect(out).toEqual(records.map((r) => toOrderBook(r)));
      }),
      { numRuns: 50 },
    );
  });

  it('property: for random delta streams the book equals the full book (orderBook of it) at every step', async () => {
    await fc.assert(
      fc.asyncProperty(fullBook, fc.array(fc.tuple(fullBook, zeroText), { maxLength: 25 }), async (first, rest) => {
        const records: IncrementalDepth[] = [snapshotOf(first, 0)];
        const expected: OrderBook[] = [reference(first, 0)];
        let before = first;
        rest.forEach(([after, zero], i) => {
          const t = i + 1;
          records.push({ s: 'BTCUSDT', t, o: String(t), b: deltaSide(before.bids, after.bids, zero), a: deltaSide(before.asks, after.asks, zero) });
          expected.push(reference(after, t));
          before = after;
        });
        const { books, gaps } = await run(records);
        expect(gaps).toEqual([]);
        expect(books).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it('property: small deltas (a few levels, often one side, prices of any length and form): each book equals the full book, and a book once emitted never changes', async () => {
    /** Price text of a tick: plain with integer parts of 1 to 4 digits, some written with an exponent (not plain). */
    const text = (tick: number): string => (tick % 7 === 0 ? `${tick}e-2` : (tick / 100).toFixed(2));
    const level = fc.tuple(fc.integer({ min: 1, max: 300_000 }), quantity);
    const book = fc.record({
      bids: fc.array(level, { maxLength: 40 }).map((l) => new Map(l.filter(([p]) => p < 150_000))),
      asks: fc.array(level, { maxLength: 40 }).map((l) => new Map(l.filter(([p]) => p >= 150_000))),
    });
    /** One change: a side, a price already in it (by index) or any, and a quantity (or a deletion). */
    const change = fc.record({ bid: fc.boolean(), pick: fc.option(fc.nat(), { nil: undefined }), tick: fc.integer({ min: 1, max: 149_999 }), qty: fc.option(quantity, { nil: undefined }) });
    const delta = fc.array(change, { minLength: 0, maxLength: 4 });
    const asLevels = (side: ReadonlyMap<number, string>): [string, string][] => [...side].map(([p, q]) => [text(p), q]);
    await fc.assert(
      fc.asyncProperty(book, fc.array(delta, { maxLength: 30 }), fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }), async (first, deltas, levels) => {
        const bids = new Map(first.bids);
        const asks = new Map(first.asks);
        const records: IncrementalDepth[] = [{ s: 'BTCUSDT', t: 0, o: 0, b: asLevels(bids), a: asLevels(asks) }];
        const expected: OrderBook[] = [toOrderBook(records[0]!, levels)];
        deltas.forEach((changes, i) => {
          const b: [string, string][] = [];
          const a: [string, string][] = [];
          for (const c of changes) {
            const side = c.bid ? bids : asks;
            const known = [...side.keys()];
            const tick = c.pick !== undefined && known.length > 0 ? known[c.pick % known.length]! : c.bid ? c.tick : c.tick + 150_000;
            if (c.qty === undefined) side.delete(tick);
            else side.set(tick, c.qty);
            (c.bid ? b : a).push([text(tick), c.qty ?? '0']);
          }
          records.push({ s: 'BTCUSDT', t: i + 1, o: i + 1, b, a });
          expected.push(toOrderBook({ s: 'BTCUSDT', t: i + 1, b: asLevels(bids), a: asLevels(asks) }, levels));
        });
        const emitted: OrderBook[] = [];
        const atEmission: string[] = [];
        const gaps: BookGap[] = [];
        from(records)
          .pipe(incrementalBook({ onGap: (g) => gaps.push(g), ...(levels !== undefined && { levels }) }))
          .subscribe((book) => {
            emitted.push(book);
            atEmission.push(JSON.stringify(book));
          });
        expect(gaps).toEqual([]);
        // toOrderBook of a full book that arrived unsorted says so; the kept book is always sorted
        expect(emitted).toEqual(expected.map((e) => ({ ...e, sorted: true })));
        expect(emitted.map((e) => JSON.stringify(e))).toEqual(atEmission);
      }),
      { numRuns: 300 },
    );
  });

  it('property: sequence numbers of any form (numbers, text of up to 30 digits, leading zeros, past 2^53, junk) are judged as bigints are', async () => {
    /** The reference: the `o` of a record as a bigint, as the operator reads it (`undefined`: not a sequence number). */
    const reference = (o: string | number | undefined): bigint | undefined =>
      o === undefined ? 0n : typeof o === 'number' ? (Number.isSafeInteger(o) ? BigInt(o) : undefined) : /^\d{1,30}$/.test(o) ? BigInt(o) : undefined;
    const digits = fc.stringMatching(/^[0-9]{1,32}$/);
    const o = fc.oneof(
      fc.nat(12),
      fc.nat(12).map(String),
      fc.nat(12).map((n) => `000${n}`),
      digits,
      fc.constantFrom(2 ** 53, 2 ** 53 - 1, -1, 1.5, 1e21, '9007199254740993', '18446744073709551616', '', ' 1', '1e3', '-1', '0x1'),
      fc.constant(undefined),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat(10), fc.boolean(), o, async (k, asText, last) => {
        const records: IncrementalDepth[] = [{ s: 'X', t: 0, o: 0, b: [], a: [] }];
        for (let i = 1; i <= k; i++) records.push({ s: 'X', t: i, o: asText ? String(i) : i, b: [], a: [] });
        records.push({ s: 'X', t: k + 1, o: last, b: [], a: [] });
        const { books, gaps } = await run(records);
        const r = reference(last);
        if (r === 0n || r === BigInt(k + 1)) {
          expect(gaps).toEqual([]);
          expect(books).toHaveLength(k + 2);
        } else {
          expect(books).toHaveLength(k + 1);
          expect(gaps).toEqual([{ symbol: 'X', reason: r !== undefined && r < BigInt(k + 1) ? 'repeated' : 'skipped', expected: String(k + 1), received: String(last), time: k + 1 }]);
        }
      }),
      { numRuns: propertyRuns(1_000) },
    );
  });

  it('property: every injected sequence fault is signalled once, no book is emitted until the next snapshot, which heals it', async () => {
    /** A fault before delta `at`: its `o` skips (+1 or more) or repeats one. */
    const fault = fc.record({ at: fc.nat(), kind: fc.constantFrom('skip', 'repeat'), by: fc.integer({ min: 1, max: 3 }) });
    await fc.assert(
      fc.asyncProperty(fullBook, fc.array(fullBook, { minLength: 2, maxLength: 20 }), fc.array(fault, { maxLength: 4 }), async (first, books, faults) => {
        const records: IncrementalDepth[] = [];
        /** For each record, the book expected (`undefined`: none may be emitted) and whether a gap is expected. */
        const plan: { readonly expect: OrderBook | undefined; readonly gap: boolean }[] = [];
        const faultAt = new Map(faults.map((f) => [f.at % books.length, f]));
        let o = 0;
        let trusted = true;
        let before = first;
        records.push(snapshotOf(first, 0));
        plan.push({ expect: reference(first, 0), gap: false });
        books.forEach((after, i) => {
          const t = i + 1;
          const f = faultAt.get(i);
          if (f !== undefined && trusted) {
            // the faulty delta, then (healing) the snapshot of the same book
            const wrong = f.kind === 'skip' ? o + 1 + f.by : Math.max(1, o + 1 - f.by);
            const repeatable = f.kind === 'repeat' && o >= 1;
            const faulty = f.kind === 'skip' || repeatable ? wrong : o + 1 + f.by;
            records.push({ t, o: faulty, b: deltaSide(before.bids, after.bids, '0'), a: deltaSide(before.asks, after.asks, '0') });
            plan.push({ expect: undefined, gap: true });
            // one more delta while broken: dropped, not signalled again
            records.push({ t, o: faulty + 1, b: [], a: [] });
            plan.push({ expect: undefined, gap: false });
            records.push(snapshotOf(after, t));
            plan.push({ expect: reference(after, t), gap: false });
            o = 0;
          } else {
            o += 1;
            records.push({ s: 'BTCUSDT', t, o, b: deltaSide(before.bids, after.bids, '0'), a: deltaSide(before.asks, after.asks, '0') });
            plan.push({ expect: reference(after, t), gap: false });
          }
          before = after;
          trusted = true;
        });
        const { books: out, gaps } = await run(records);
        expect(gaps).toHaveLength(plan.filter((p) => p.gap).length);
        expect(gaps.every((g) => g.reason === 'skipped' || g.reason === 'repeated')).toBe(true);
        expect(out).toEqual(plan.flatMap((p) => (p.expect === undefined ? [] : [p.expect])));
      }),
      { numRuns: 150 },
    );
  });
});
