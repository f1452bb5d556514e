import { BehaviorSubject, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';
import { streamStatus } from '../../lib/socket/streamStatus';

describe('streamStatus', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  const closed: ConnectionStatus = { type: 'closed', epoch: 0 };
  const connecting: ConnectionStatus = { type: 'connecting', epoch: 0, attempt: 0 };
  const open: ConnectionStatus = { type: 'open', epoch: 1, since: 3 };

  it('replays at once, shows each transition at once and a burst of counter changes once; none when they end where they were', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const connection = new BehaviorSubject<ConnectionStatus>(closed);
      const counters = new BehaviorSubject({ n: 0 });
      cold('--a---b', { a: connecting, b: open }).subscribe(connection);
      const bump = (values: number[]) => (): void => values.forEach((n) => counters.next({ n }));
      testScheduler.schedule(bump([1, 2, 3]), 2); // a burst: shown once, at its end (same frame)
      testScheduler.schedule(bump([4, 3]), 8); // back where it was: nothing
      const shown$ = streamStatus(connection, counters, testScheduler).pipe(map((s) => `${s.connection.type}:${s.n}`));
      expectObservable(shown$, '^ 9ms !').toBe('a-(bc)d', { a: 'closed:0', b: 'connecting:0', c: 'connecting:3', d: 'open:3' });
      expectObservable(shown$, '-------^ 4ms !').toBe('-------a', { a: 'open:3' }); // a late subscriber: the current one
    });
  });
});
