import fc from 'fast-check';
import { from, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { distinctTrades, type TradeBatch, type TradeGap } from '../../lib/operators/distinctTrades';

type T = { v: string };
const batch = (ids: string[], first = false, epoch = 1, symbol = 'BTCUSDT'): TradeBatch<T> => ({
  symbol,
  first,
  epoch,
  data: ids.map((v) => ({ v })),
});
const trade = (v: string): T => ({ v });

describe('distinctTrades', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  it('emits each trade once, in id order, across a resubscription that repeats recent trades', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const gaps: TradeGap[] = [];
      const source = cold('-a-----b---c--|', {
        a: batch(['1', '2', '3'], true),
        b: batch(['4']),
        c: batch(['3', '4', '5'], true, 2),
      });
      expectObservable(source.pipe(distinctTrades({ onGap: (g) => gaps.push(g) }))).toBe('-(123)-4---5--|', {
        1: trade('1'),
        2: trade('2'),
        3: trade('3'),
        4: trade('4'),
        5: trade('5'),
      });
      expectSubscriptions(source.subscriptions).toBe('^-------------!');
      testScheduler.flush();
      expect(gaps).toEqual([]);
    });
  });

  it('compares 64-bit ids exactly and sorts a batch given newest first', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const big = ['9007199254740993', '9007199254740992', '929681067596857345'];
      const source = cold('-a-----b-|', { a: batch(big, true), b: batch(['9007199254740993', '929681067596857346']) });
      expectObservable(source.pipe(distinctTrades())).toBe('-(xyz)-w-|', {
        x: trade('9007199254740992'),
        y: trade('9007199254740993'),
        z: trade('929681067596857345'),
        w: trade('929681067596857346'),
      });
    });
  });

  it('signals a gap when a full first message does not reach back to the last trade seen', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const gaps: TradeGap[] = [];
      const source = cold('-a----b----c------|', {
        a: batch(['10', '11'], true, 1),
        b: batch(['12', '13'], true, 2), // all newer than 11, but a short replay holds every trade: no gap
        c: batch(['20', '21', '22'], true, 3), // a full replay window (replaySize 3) newer than 13: 14..19 may be lost
      });
      expectObservable(source.pipe(distinctTrades({ replaySize: 3, onGap: (g) => gaps.push(g) }))).toBe(
        '-(ab)-(cd)-(efg)--|',
        { a: trade('10'), b: trade('11'), c: trade('12'), d: trade('13'), e: trade('20'), f: trade('21'), g: trade('22') },
      );
      testScheduler.flush();
      expect(gaps).toEqual([{ symbol: 'BTCUSDT', lastSeenId: '13', firstNewId: '20', epoch: 3 }]);
    });
  });

  it('does not signal a gap for non-consecutive ids when the replay reaches back', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const gaps: TradeGap[] = [];
      const source = cold('-a----b----|', {
        a: batch(['100', '205'], true, 1),
        b: batch(['205', '317'], true, 2), // ids jump (venue-wide ids) but 205 was seen: nothing lost
      });
      expectObservable(source.pipe(distinctTrades({ replaySize: 2, onGap: (g) => gaps.push(g) }))).toBe(
        '-(ab)-c----|',
        { a: trade('100'), b: trade('205'), c: trade('317') },
      );
      testScheduler.flush();
      expect(gaps).toEqual([]);
    });
  });

  it('signals a gap, once, when a replay shows trades that were missed on a socket that stayed open', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const gaps: TradeGap[] = [];
      const source = cold('-a----b----c----d----e----|', {
        a: batch(['10', '11'], true, 1),
        b: batch(['20', '21']), // 12..19 never arrived (lost while the server was stalled)
        c: batch(['30']), // 22..29 lost too
        d: batch(['11', '12', '15', '20', '21', '25', '30', '31'], true, 2), // the replay shows 12, 15 and 25
        e: batch(['12', '15', '20', '21', '25', '30', '31', '32'], true, 3), // already reported: no new gap
      });
      expectObservable(source.pipe(distinctTrades({ replaySize: 8, onGap: (g) => gaps.push(g) }))).toBe('-(ab)-(cd)-e----f----g----|', {
        a: trade('10'),
        b: trade('11'),
        c: trade('20'),
        d: trade('21'),
        e: trade('30'),
        f: trade('31'),
        g: trade('32'),
      });
      testScheduler.flush();
      expect(gaps).toEqual([
        { symbol: 'BTCUSDT', lastSeenId: '11', firstNewId: '20', epoch: 2 },
        { symbol: 'BTCUSDT', lastSeenId: '21', firstNewId: '30', epoch: 2 },
      ]);
    });
  });

  it('keeps state per symbol and per subscription', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-b-c-|', { a: batch(['5'], true), b: batch(['5'], true, 1, 'ETHUSDT'), c: batch(['5']) });
      const op = distinctTrades<T>();
      expectObservable(source.pipe(op)).toBe('-x-x---|', { x: trade('5') });
      expectObservable(source.pipe(op)).toBe('-x-x---|', { x: trade('5') });
    });
  });

  it('emits what a model of "each id once, in id order" emits, for any batches (live messages passed as they are included)', async () => {
    // The model: each batch sorted by value; a trade goes out when its id is above every id emitted before.
    const model = (batches: readonly TradeBatch<T>[]): string[] => {
      let seen: bigint | undefined;
      const out: string[] = [];
      for (const b of batches) {
        for (const { v } of [...b.data].sort((x, y) => (BigInt(x.v) < BigInt(y.v) ? -1 : BigInt(x.v) > BigInt(y.v) ? 1 : 0))) {
          if (seen !== undefined && BigInt(v) <= seen) continue;
          seen = BigInt(v);
          out.push(v);
        }
      }
      return out;
    };
    const id = fc.oneof(fc.integer({ min: 0, max: 40 }).map(String), fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String), fc.constantFrom('007', '0'));
    const batches = fc.array(fc.record({ first: fc.boolean(), ids: fc.array(id, { maxLength: 6 }) }), { maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(batches, fc.integer({ min: 1, max: 6 }), async (spec, replaySize) => {
        const input = spec.map(({ first, ids }, i) => batch(ids, first, i + 1));
        const gaps: TradeGap[] = [];
        const got = await new Promise<T[]>((resolve, reject) =>
          from(input).pipe(distinctTrades<T>({ replaySize, onGap: (g) => gaps.push(g) }), toArray()).subscribe({ next: resolve, error: reject }),
        );
        expect(got.map((t) => t.v)).toEqual(model(input));
        // A live message of new ids in order (not a replay) shows no gap.
        let seen: bigint | undefined;
        for (const b of input) {
          const ids = b.data.map((t) => BigInt(t.v));
          const newInOrder = ids.every((x, i) => x > (i === 0 ? (seen ?? -1n) : ids[i - 1]!));
          if (newInOrder && !(b.first && seen !== undefined)) expect(gaps.filter((g) => g.epoch === b.epoch)).toEqual([]);
          for (const x of ids) if (seen === undefined || x > seen) seen = x;
        }
      }),
    );
  });
});
