import { TestScheduler } from 'rxjs/testing';
import { closedCandles } from '../../lib/operators/closedCandles';

const candle = (t: number, c: string) => ({ t, c });

describe('closedCandles', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  it('emits the last version of a candle when a later one starts, and never the open one', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = {
        a: candle(60_000, '1'),
        b: candle(60_000, '2'),
        c: candle(60_000, '3'),
        d: candle(120_000, '4'),
        e: candle(120_000, '5'),
        f: candle(180_000, '6'),
      };
      const source = cold('-a-b-c-d-e-f-|', values);
      expectObservable(source.pipe(closedCandles())).toBe('-------c---e-|', values);
      expectSubscriptions(source.subscriptions).toBe('^------------!');
    });
  });

  it('ignores replays of older candles after a resubscription', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const values = { a: candle(1, 'a'), b: candle(2, 'b'), x: candle(1, 'a2'), c: candle(3, 'c') };
      expectObservable(cold('-a-b-x-b-c-|', values).pipe(closedCandles())).toBe('---a-----b-|', values);
    });
  });

  it('skips intervals with no record (no synthetic candles) and forwards errors', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const values = { a: candle(1, 'a'), c: candle(5, 'c') };
      expectObservable(cold('-a-c-#', values).pipe(closedCandles())).toBe('---a-#', values);
    });
  });
});
