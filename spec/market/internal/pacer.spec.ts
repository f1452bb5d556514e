import { concatMap, map, merge, mergeMap, of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { pacer } from '../../../lib/market/internal/pacer';

describe('pacer', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('lets a burst through at once, then one slot per interval (10/s, burst 3)', () => {
    testScheduler.run(({ expectObservable }) => {
      const slots = pacer(10, 3, testScheduler);
      const five = of('a', 'b', 'c', 'd', 'e').pipe(mergeMap((x) => slots.slot().pipe(map(() => x))));
      expectObservable(five).toBe('(abc) 95ms d 99ms (e|)');
    });
  });

  it('with burst 1 (or less) spaces every slot by the interval', () => {
    testScheduler.run(({ expectObservable }) => {
      const slots = pacer(100, 0, testScheduler);
      const three = of('a', 'b', 'c').pipe(mergeMap((x) => slots.slot().pipe(map(() => x))));
      expectObservable(three).toBe('a 9ms b 9ms (c|)');
    });
  });

  it('refills over time: a quiet period earns the burst back', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const slots = pacer(10, 2, testScheduler);
      const requests = merge(cold('(ab)'), cold('1s (cd)'));
      const granted = requests.pipe(mergeMap((x) => slots.slot().pipe(map(() => x))));
      expectObservable(granted).toBe('(ab) 996ms (cd)');
    });
  });

  it('reserves a slot only when subscribed (cold)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const slots = pacer(10, 1, testScheduler);
      slots.slot(); // never subscribed: takes nothing
      const later = cold('a').pipe(concatMap((x) => slots.slot().pipe(map(() => x))));
      expectObservable(later).toBe('a');
    });
  });
});
