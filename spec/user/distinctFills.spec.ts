import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { distinctFills } from '../../lib/user/distinctFills';
import { ticket } from './fixtures';

describe('distinctFills', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  it('passes each ticket id once', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-a-c-b-|', { a: ticket('1'), b: ticket('2'), c: ticket('3') });
      expectObservable(source.pipe(distinctFills(), map((t) => t.T))).toBe('-a-b---c---|', { a: '1', b: '2', c: '3' });
      expectSubscriptions(source.subscriptions).toBe('^----------!');
    });
  });

  it('forgets the oldest ids beyond maxRemembered', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-b-c-a-c-|', { a: ticket('1'), b: ticket('2'), c: ticket('3') });
      expectObservable(source.pipe(distinctFills({ maxRemembered: 2 }), map((t) => t.T))).toBe('-a-b-c-a---|', {
        a: '1',
        b: '2',
        c: '3',
      });
    });
  });

  it('keeps a separate memory per subscription', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-a-|', { a: ticket('1') });
      const fills = source.pipe(distinctFills(), map((t) => t.T));
      expectObservable(fills).toBe('-a---|', { a: '1' });
      expectObservable(fills).toBe('-a---|', { a: '1' });
    });
  });
});
