import { defer, EMPTY, map, of, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { RequestRejectedError } from '../../lib/errors';
import type { MarketStatus } from '../../lib/market/marketStatus';
import type { UserStatus } from '../../lib/user/userStatus';
import { userStream, type UserStreamConfig } from '../../lib/user/userStream';
import { fakeUserStream, report } from './fixtures';


/** `type+epoch` then each counter that is not zero (or false), e.g. `open1 gaps=1 decodeErrors=1`. */
const summary = (s: UserStatus): string => {
  const { connection, ...counters } = s;
  const shown = Object.entries(counters).filter(([, v]) => v !== 0 && v !== false && v !== undefined);
  return [`${connection.type}${connection.epoch}`, ...shown.map(([k, v]) => `${k}=${String(v)}`)].join(' ');
};

describe('userStream status$', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  /** Records `status$` with the virtual time of each emission while `run` runs the stream from 0 to `until`. */
  const record = (user: ReturnType<typeof userStream>, until: number): string[] => {
    const shown: string[] = [];
    const watch = user.status$.subscribe((s) => shown.push(`${testScheduler.now()} ${summary(s)}`));
    const run = user.events$.subscribe();
    testScheduler.schedule(() => run.unsubscribe(), until);
    testScheduler.schedule(() => watch.unsubscribe(), until + 10);
    testScheduler.flush();
    return shown;
  };

  const setup = (over: Partial<UserStreamConfig> = {}) => fakeUserStream(testScheduler, over);

  it('replays the current status at once, as the market does (connection plus counters), and observing starts nothing', () => {
    testScheduler.run(({ expectObservable, flush }) => {
      const { ws, user } = setup();
      expectObservable(user.status$, '^ 20ms !').toBe('a', {
        a: { connection: { type: 'closed', epoch: 0 }, gaps: 0, keyChanges: 0, keyErrors: 0, decodeErrors: 0, outOfRangeEvents: 0, lateEvents: 0, authoritative: false },
      });
      flush();
      expect(ws.sockets).toEqual([]); // nothing started
    });
    // one shape: a function of the connection part reads both
    const line = (s: Pick<MarketStatus | UserStatus, 'connection'>): string => s.connection.type;
    let shown = '';
    setup().user.status$.subscribe((s) => (shown = line(s))).unsubscribe();
    expect(shown).toBe('closed');
  });

  it('shows every connection transition at once and a burst of counter changes once, at the end of the burst', () => {
    testScheduler.run(({ expectObservable }) => {
      const { ws, user } = setup();
      // at 4: one good event, two bad elements and one stamped a day ahead, in one frame; at 10 an event older
      // than the one emitted at 8 (late: emitted anyway)
      ws.at(4, (s) =>
        s.receive([report({ i: '7', E: 1000 }), { e: 'executionReport', E: 11, i: 'x' }, { e: 'executionReport', E: 12 }, report({ i: '8', E: 86_400_000 })]),
      );
      ws.at(10, (s) => s.receive([report({ i: '9', E: 900 })]));
      expectObservable(user.events$.pipe(map((e) => e.E)), '--^------------!').toBe('---------ab', { a: 1000, b: 900 });
      expectObservable(user.status$.pipe(map(summary)), '^ 20ms !').toBe('x-abc-----d----e', {
        x: 'closed0',
        a: 'connecting0', // the start, at once (the connection's own first `connecting` adds nothing)
        b: 'open1',
        // a frame's two bad elements are one DecodeError on errors$; with the event dropped for its time, two
        // counter changes in one frame: one emission
        c: 'open1 decodeErrors=1 outOfRangeEvents=1',
        d: 'open1 decodeErrors=1 outOfRangeEvents=1 lateEvents=1',
        e: 'closed1 decodeErrors=1 outOfRangeEvents=1 lateEvents=1', // counters are kept across stops
      });
    });
  });

  it('counts gaps and key changes (with listenKey$), across listen keys', () => {
    testScheduler.run(({ cold }) => {
      const { user } = setup({ listenKey$: cold('k-----l', { k: 'key-1', l: 'key-2' }) });
      expect(record(user, 12)).toEqual([
        '0 closed0',
        '0 connecting0',
        '1 open1',
        '6 connecting1', // key-2 at 6: the socket moves
        '6 connecting1 keyChanges=1',
        '7 open2 keyChanges=1',
        '7 open2 gaps=1 keyChanges=1', // the gap of the move
        '12 closed2 gaps=1 keyChanges=1',
      ]);
    });
  });

  it('counts failed listen-key calls', () => {
    const rejected = new RequestRejectedError(401, -2015, 'Invalid API-key');
    let n = 0;
    testScheduler.run(() => {
      const { user } = setup({
        listenKey$: undefined,
        listenKeyOptions: { retryDelayMs: 2, random: () => 1 },
        rest: {
          createListenKey: () => defer(() => (++n <= 2 ? throwError(() => rejected) : of('key-1'))),
          extendListenKey: () => EMPTY,
          closeListenKey: () => EMPTY,
        },
      });
      // rejected at 0 and 2 (retried after 2, then 4); the key comes at 6, the socket opens at 7
      expect(record(user, 12)).toEqual([
        '0 closed0',
        '0 connecting0',
        '0 reconnecting0', // the transition at once …
        '0 reconnecting0 keyErrors=1', // … the count at the end of the burst
        '2 reconnecting0 keyErrors=1',
        '2 reconnecting0 keyErrors=2',
        '6 connecting0 keyErrors=2',
        '7 open1 keyErrors=2',
        '12 closed1 keyErrors=2',
      ]);
    });
  });

  it('shows whether the state is authoritative: from the snapshot merge after an open until the connection is lost', () => {
    testScheduler.run(() => {
      const rest = {
        createListenKey: () => of('key-1'),
        extendListenKey: () => EMPTY,
        closeListenKey: () => EMPTY,
        openOrders: () => of([]),
        getOrder: () => EMPTY,
        account: () => of({ balances: [] }),
      } as unknown as NonNullable<UserStreamConfig['rest']>;
      const { ws, user } = setup({ listenKey$: undefined, rest });
      ws.at(4, (s) => s.closeFromServer({ code: 1006 }));
      expect(record(user, 12)).toEqual([
        '0 closed0',
        '0 connecting0',
        '1 open1',
        '1 open1 authoritative=true syncedEpoch=1', // the snapshots (answered at once) merged after the open
        '4 reconnecting1 authoritative=true syncedEpoch=1',
        '4 reconnecting1 syncedEpoch=1', // lost: no longer authoritative
        '6 connecting1 syncedEpoch=1',
        '7 open2 syncedEpoch=1',
        '7 open2 gaps=1 authoritative=true syncedEpoch=2',
        '12 closed2 gaps=1 authoritative=true syncedEpoch=2',
        '12 closed2 gaps=1', // stopped: the next start folds afresh
      ]);
    });
  });
});
