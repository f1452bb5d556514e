import { BehaviorSubject, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';
import { sameConnectionState, streamStatus } from '../../lib/socket/streamStatus';

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

  it('never shows a connection state identical to the last (same type, epoch, attempt; closed: same cause), while counter bursts still show', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const lost = new Error('lost');
      const gaveUp = new Error('gave up');
      const states: Record<string, ConnectionStatus> = {
        c: { type: 'connecting', epoch: 0, attempt: 0 },
        d: { type: 'connecting', epoch: 0, attempt: 0 }, // the same state again (a fresh object)
        o: { type: 'open', epoch: 1, since: 5 },
        p: { type: 'open', epoch: 1, since: 5 }, // the same socket again
        r: { type: 'reconnecting', epoch: 1, attempt: 1, delayMs: 4, cause: lost },
        s: { type: 'reconnecting', epoch: 1, attempt: 1, delayMs: 9, cause: lost }, // the same wait again
        t: { type: 'reconnecting', epoch: 1, attempt: 2, delayMs: 9, cause: lost }, // the next attempt: shown
        u: { type: 'connecting', epoch: 1, attempt: 2 },
        v: { type: 'closed', epoch: 1 },
        w: { type: 'closed', epoch: 1, cause: gaveUp }, // closed for another reason: shown
        x: { type: 'closed', epoch: 1, cause: gaveUp },
      };
      const connection = new BehaviorSubject<ConnectionStatus>(closed);
      const counters = new BehaviorSubject({ n: 0 });
      cold('-cdopr-stuvwx', states).subscribe(connection);
      testScheduler.schedule(() => counters.next({ n: 1 }), 2); // coalesced: shown at 2 with the same connection
      testScheduler.schedule(() => counters.next({ n: 2 }), 6);
      const shown$ = streamStatus(connection, counters, testScheduler).pipe(
        map((st) => `${st.connection.type}${st.connection.epoch}${'attempt' in st.connection ? `.${st.connection.attempt}` : ''}${st.connection.type === 'closed' && st.connection.cause ? '!' : ''}:${st.n}`),
      );
      // d, p, s and x are dropped; the counters' changes at 2 and 6 are shown with the connection in force
      expectObservable(shown$).toBe('abcd-ef-ghij', {
        a: 'closed0:0',
        b: 'connecting0.0:0',
        c: 'connecting0.0:1',
        d: 'open1:1',
        e: 'reconnecting1.1:1',
        f: 'reconnecting1.1:2',
        g: 'reconnecting1.2:2',
        h: 'connecting1.2:2',
        i: 'closed1:2',
        j: 'closed1!:2',
      });
    });
  });

  it('gives a counter burst the very connection object shown before', () => {
    testScheduler.run(() => {
      const connection = new BehaviorSubject<ConnectionStatus>(connecting);
      const counters = new BehaviorSubject({ n: 0 });
      const seen: ConnectionStatus[] = [];
      streamStatus(connection, counters, testScheduler).subscribe((st) => seen.push(st.connection));
      connection.next({ ...connecting });
      testScheduler.schedule(() => counters.next({ n: 1 }), 1);
      testScheduler.flush();
      expect(seen).toHaveLength(2);
      expect(seen[1]).toBe(seen[0]);
    });
  });

  it.each<[string, ConnectionStatus, ConnectionStatus, boolean]>([
    ['connecting, same attempt', { type: 'connecting', epoch: 2, attempt: 1 }, { type: 'connecting', epoch: 2, attempt: 1 }, true],
    ['connecting, another attempt', { type: 'connecting', epoch: 2, attempt: 1 }, { type: 'connecting', epoch: 2, attempt: 2 }, false],
    ['connecting, another epoch', { type: 'connecting', epoch: 2, attempt: 1 }, { type: 'connecting', epoch: 3, attempt: 1 }, false],
    ['open, same epoch', { type: 'open', epoch: 2, since: 1 }, { type: 'open', epoch: 2, since: 1 }, true],
    ['open, another epoch', { type: 'open', epoch: 2, since: 1 }, { type: 'open', epoch: 3, since: 9, downSince: 4 }, false],
    ['closed and connecting', { type: 'closed', epoch: 0 }, { type: 'connecting', epoch: 0, attempt: 0 }, false],
    ['closed, neither with a cause', { type: 'closed', epoch: 1 }, { type: 'closed', epoch: 1 }, true],
    ['closed, with and without a cause', { type: 'closed', epoch: 1 }, { type: 'closed', epoch: 1, cause: new Error('x') }, false],
  ])('sameConnectionState: %s → %s', (_, a, b, same) => {
    expect(sameConnectionState(a, b)).toBe(same);
    expect(sameConnectionState(b, a)).toBe(same);
  });
});
