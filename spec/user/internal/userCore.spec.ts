import { NEVER, of, Subject, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { PrivateEvent } from '../../../lib/codecs/privateEvents';
import { reorderBuffer } from '../../../lib/operators/reorderByEventTime';
import type { UserItem } from '../../../lib/user/internal/items';
import type { StateFolds } from '../../../lib/user/internal/stateFolds';
import { userCore, type UserCoreSettings } from '../../../lib/user/internal/userCore';
import { UserStreamState } from '../../../lib/user/internal/userStreamState';
import type { CoreSink } from '../../../lib/user/internal/userOutputs';
import { fakeWebSocket } from '../../../lib/testing/fakeWebSocket';
import { report } from '../fixtures';

/** A sink recording what a run writes, with the scheduler's time. */
function recordingSink(now: () => number, listening: CoreSink['listening'] = () => true) {
  const log: string[] = [];
  const sink: CoreSink & { closed: boolean } = {
    closed: false,
    event: (e: PrivateEvent) => log.push(`${now()} event ${e.e === 'executionReport' ? e.i : e.e}`),
    item: (i: UserItem) => log.push(`${now()} ${i.type === 'status' ? i.status.type : i.type === 'error' ? i.error.name : i.type}`),
    error: (e: unknown) => log.push(`${now()} ERROR ${(e as Error).message}`),
    complete: () => log.push(`${now()} COMPLETE`),
    listening,
  };
  return { log, sink };
}

function settings(testScheduler: TestScheduler, over: Partial<UserCoreSettings> = {}): UserCoreSettings {
  return {
    base: 'ws://test/ws',
    listenKey$: of('key-1'),
    rest: undefined,
    listenKeyOptions: {},
    snapshots: undefined,
    followed: () => [],
    connection: {},
    suspectKeyAfterFailures: 3,
    maxEventTimeSkewMs: 100,
    serverOffsetMs: undefined,
    serverOffsetErrorMs: undefined,
    scheduler: testScheduler,
    WebSocketCtor: undefined,
    openReorder: reorderBuffer<PrivateEvent>({ scheduler: testScheduler, maxDelayMs: 5 }, undefined),
    openDedupe: () => undefined,
    ...over,
  };
}

describe('userCore', () => {
  it('runs the path: key session → decode → guard → the folds on arrival, and reorder → outputs', () => {
    const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    testScheduler.run(() => {
      const ws = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
      const { log, sink } = recordingSink(() => testScheduler.now());
      // The states of the run, as the stream's state object holds them: while it runs, then after it ended.
      const runs: (StateFolds | undefined)[] = [];
      const state = new UserStreamState();
      const run = userCore(settings(testScheduler, { WebSocketCtor: ws.WebSocketCtor }), state)(sink);
      runs.push(state.states);
      ws.at(2, (s) => s.receive(JSON.stringify([report({ i: '2', E: 2, U: 2 }), report({ i: '1', E: 1, U: 1 }), report({ i: '3', E: 999, U: 3 })])));
      testScheduler.schedule(() => run.unsubscribe(), 20);
      testScheduler.flush();
      runs.push(state.states);
      expect(ws.latest().url).toBe('ws://test/ws/key-1');
      expect(log).toEqual([
        '0 connecting', // the start
        '0 connecting', // the connection's own
        '1 open',
        '2 orders', // order 2 folded on arrival: no hold before a state
        '2 orders', // order 1
        '2 EventTimeOutOfRangeError', // E 999 is 997 ms off the clock: dropped
        '7 event 1', // the events ordered by E after the 5 ms hold
        '7 event 2',
      ]);
      expect(runs.map((r) => r !== undefined)).toEqual([true, false]);
    });
  });

  it('with a zero hold, releases a frame\'s events in E order in the call that received the frame (no timer)', () => {
    const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    testScheduler.run(() => {
      const ws = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
      const { log, sink } = recordingSink(() => testScheduler.now());
      const run = userCore(
        settings(testScheduler, {
          WebSocketCtor: ws.WebSocketCtor,
          openReorder: reorderBuffer<PrivateEvent>({ scheduler: testScheduler, maxDelayMs: 0 }, undefined, { releasedByCaller: true }),
        }),
        new UserStreamState(),
      )(sink);
      ws.at(2, (s) => s.receive(JSON.stringify([report({ i: '2', E: 2, U: 2 }), report({ i: '1', E: 1, U: 1 })])));
      ws.at(3, (s) => s.receive(JSON.stringify([report({ i: '3', E: 3, U: 3 })])));
      testScheduler.schedule(() => run.unsubscribe(), 20);
      testScheduler.flush();
      expect(log.filter((l) => !l.endsWith('connecting') && !l.endsWith('open'))).toEqual([
        '2 orders',
        '2 orders',
        '2 event 1', // ordered within the frame, released at its end
        '2 event 2',
        '3 orders',
        '3 event 3',
      ]);
    });
  });

  it('a duplicate changes no state (the folds only move forward) and reaches the event streams once', () => {
    const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    testScheduler.run(() => {
      const ws = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
      const { log, sink } = recordingSink(() => testScheduler.now());
      const seen = new Set<string>();
      const run = userCore(
        settings(testScheduler, {
          WebSocketCtor: ws.WebSocketCtor,
          openDedupe: () => (e) => {
            const key = e.e === 'executionReport' ? `${e.i}/${e.X}` : e.e;
            if (seen.has(key)) return false;
            seen.add(key);
            return true;
          },
        }),
        new UserStreamState(),
      )(sink);
      const frame = JSON.stringify([report({ i: '1', E: 1, U: 1 })]);
      ws.at(2, (s) => s.receive(frame));
      ws.at(3, (s) => s.receive(frame));
      testScheduler.schedule(() => run.unsubscribe(), 20);
      testScheduler.flush();
      expect(log.filter((l) => !l.endsWith('connecting') && !l.endsWith('open'))).toEqual(['2 orders', '7 event 1']);
    });
  });

  it('while nobody reads the event streams, neither remembers nor orders anything: the states alone', () => {
    const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    testScheduler.run(() => {
      const ws = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
      const { log, sink } = recordingSink(() => testScheduler.now(), (type) => type !== 'events');
      let asked = 0;
      const run = userCore(
        settings(testScheduler, {
          WebSocketCtor: ws.WebSocketCtor,
          openDedupe: () => () => (asked++, true),
        }),
        new UserStreamState(),
      )(sink);
      ws.at(2, (s) => s.receive(JSON.stringify([report({ i: '1', E: 1, U: 1 }), report({ i: '2', E: 2, U: 2 })])));
      testScheduler.schedule(() => run.unsubscribe(), 20);
      testScheduler.flush();
      expect(log.filter((l) => !l.endsWith('connecting') && !l.endsWith('open'))).toEqual(['2 orders', '2 orders']);
      expect(asked).toBe(0);
    });
  });

  it('ends with the error of its keys, scrubbed of the listen keys it used', () => {
    const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    testScheduler.run(() => {
      const keys = new Subject<string>();
      const { log, sink } = recordingSink(() => testScheduler.now());
      userCore(settings(testScheduler, { listenKey$: keys, WebSocketCtor: fakeWebSocket({ scheduler: testScheduler }).WebSocketCtor }), new UserStreamState())(sink);
      keys.next('secretkey-1234567890');
      testScheduler.schedule(() => keys.error(new Error('gave up on secretkey-1234567890')), 3);
      testScheduler.flush();
      expect(log[log.length - 1]).toBe('3 ERROR gave up on ***');
    });
  });

  it('starts nothing but a connecting status while no key comes', () => {
    const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    testScheduler.run(() => {
      const { log, sink } = recordingSink(() => testScheduler.now());
      const run = userCore(settings(testScheduler, { listenKey$: NEVER }), new UserStreamState())(sink);
      testScheduler.flush();
      run.unsubscribe();
      expect(log).toEqual(['0 connecting']);
    });
  });

  it('refuses nothing it cannot start: a listenKey$ that errors at once ends the run with that error', () => {
    const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    const { log, sink } = recordingSink(() => testScheduler.now());
    userCore(settings(testScheduler, { listenKey$: throwError(() => new Error('no key')) }), new UserStreamState())(sink);
    expect(log).toEqual(['0 connecting', '0 ERROR no key']);
  });
});
