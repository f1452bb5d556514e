import fc from 'fast-check';
import { type MonoTypeOperatorFunction, Observable, share, type Subscription, take, tap } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { shareFrames } from '../../lib/internal/shareFrames';

type Log = (string | number)[][];

interface Scenario {
  /** Cold source marble. */
  readonly source: string;
  /** Per subscriber: subscribe frame and (optional) unsubscribe frame. */
  readonly windows: readonly (readonly [number, number | undefined])[];
  /** A subscriber (by index) that also subscribes a new one when it sees this value. */
  readonly joinOn?: readonly [number, string];
  /** A subscriber (by index) that unsubscribes another when it sees this value. */
  readonly kickOn?: readonly [number, string, number];
}

/** Everything observable about a sharing operator in a scenario: what each subscriber saw, and when the source was (un)subscribed. */
function run(operator: () => MonoTypeOperatorFunction<string>, scenario: Scenario): Log {
  const log: Log = [];
  const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  testScheduler.run(({ cold }) => {
    const source = cold(scenario.source);
    const shared: Observable<string> = source.pipe(
      tap({ subscribe: () => log.push(['source subscribed']), unsubscribe: () => log.push(['source unsubscribed']) }),
      operator(),
    );
    const subs: Subscription[] = [];
    const subscribe = (who: number): void => {
      subs[who] = shared.subscribe({
        next: (v) => {
          log.push([who, 'next', v]);
          if (scenario.joinOn?.[0] === who && scenario.joinOn[1] === v) subscribe(subs.length);
          const kick = scenario.kickOn;
          if (kick !== undefined && kick[0] === who && kick[1] === v) subs[kick[2]]?.unsubscribe();
        },
        error: (e: unknown) => log.push([who, 'error', String(e)]),
        complete: () => log.push([who, 'complete']),
      });
    };
    scenario.windows.forEach(([from, to], who) => {
      testScheduler.schedule(() => subscribe(who), from);
      if (to !== undefined) testScheduler.schedule(() => subs[who]?.unsubscribe(), to);
    });
  });
  return log;
}

const same = (scenario: Scenario): void => expect(run(shareFrames, scenario)).toEqual(run(share, scenario));

interface SyncScenario {
  /** What the source emits, synchronously on subscription, each only while its subscriber is open. */
  readonly values: readonly string[];
  /** How it ends after the values: not at all, completion or error. */
  readonly end: '' | '|' | '#';
  /** Subscribers, subscribed one after the other: `take` count, and the value on which it unsubscribes itself. */
  readonly subscribers: readonly { readonly take?: number | undefined; readonly leaveOn?: string | undefined }[];
}

/** Everything observable about a sharing operator over a synchronous source: each emission, each delivery, subscription and teardown. */
function runSync(operator: () => MonoTypeOperatorFunction<string>, scenario: SyncScenario): Log {
  const log: Log = [];
  const source = new Observable<string>((subscriber) => {
    log.push(['source subscribed']);
    for (const v of scenario.values) {
      if (subscriber.closed) break;
      log.push(['source emits', v]);
      subscriber.next(v);
    }
    if (!subscriber.closed && scenario.end === '|') subscriber.complete();
    if (!subscriber.closed && scenario.end === '#') subscriber.error('boom');
    return () => log.push(['source finalized']);
  });
  const shared = source.pipe(tap({ unsubscribe: () => log.push(['source unsubscribed']) }), operator());
  const subs: (Subscription | undefined)[] = [];
  scenario.subscribers.forEach(({ take: count, leaveOn }, who) => {
    let leave = false;
    subs[who] = (count === undefined ? shared : shared.pipe(take(count))).subscribe({
      next: (v) => {
        log.push([who, 'next', v]);
        if (v === leaveOn) {
          if (subs[who] === undefined) leave = true; // still inside subscribe()
          else subs[who]!.unsubscribe();
        }
      },
      error: (e: unknown) => log.push([who, 'error', String(e)]),
      complete: () => log.push([who, 'complete']),
    });
    if (leave) subs[who]!.unsubscribe();
  });
  for (const sub of subs) sub?.unsubscribe();
  log.push(['all unsubscribed']);
  return log;
}

const sameSync = (scenario: SyncScenario): void => expect(runSync(shareFrames, scenario)).toEqual(runSync(share, scenario));

describe('shareFrames', () => {
  it('multicasts like share(): late subscribers, refcount to zero and reconnection', () => {
    same({ source: '-a-b-c-d-e-f-|', windows: [[0, 7], [3, 9], [10, undefined]] });
  });

  it('resets after an error and after completion, like share()', () => {
    same({ source: '-a-b-#', windows: [[0, undefined], [2, undefined], [8, undefined]] });
    same({ source: '-a-|', windows: [[0, undefined], [1, undefined], [5, undefined]] });
    same({ source: '#', windows: [[0, undefined], [2, undefined]] });
    same({ source: '(ab|)', windows: [[0, undefined], [0, undefined]] });
  });

  it('a subscriber added during an emission gets the next value; one removed during it gets nothing more', () => {
    same({ source: '-a-b-c-|', windows: [[0, undefined], [0, undefined]], joinOn: [0, 'a'] });
    same({ source: '-a-b-c-|', windows: [[0, undefined], [0, undefined], [0, undefined]], kickOn: [0, 'b', 1] });
    same({ source: '-a-b-c-|', windows: [[0, undefined], [0, undefined]], kickOn: [1, 'b', 0] });
  });

  it('stops a synchronous source as soon as the last subscriber leaves, like share() (take(1) downstream)', () => {
    let emitted = 0;
    // Endless unless stopped; bounded here so that a regression fails instead of hanging.
    const endless = new Observable<number>((subscriber) => {
      while (!subscriber.closed && emitted < 100_000) subscriber.next(emitted++);
    });
    const seen: number[] = [];
    endless.pipe(shareFrames(), take(1)).subscribe((v) => seen.push(v));
    expect(seen).toEqual([0]);
    expect(emitted).toBe(1);
  });

  it('agrees with share() on synchronous sources, take() and unsubscription during an emission', () => {
    sameSync({ values: ['a', 'b', 'c'], end: '', subscribers: [{ take: 1 }] });
    sameSync({ values: ['a', 'b', 'c'], end: '|', subscribers: [{ leaveOn: 'b' }, {}] });
    sameSync({ values: ['a', 'b', 'c'], end: '#', subscribers: [{ take: 2 }, { take: 1 }] });
    sameSync({ values: [], end: '', subscribers: [{}, { take: 1 }] });
  });

  it('agrees with share() on random synchronous sources and early unsubscriptions (property)', () => {
    const value = fc.constantFrom('a', 'b', 'c');
    const subscriber = fc.record({
      take: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
      leaveOn: fc.option(value, { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(value, { maxLength: 8 }), fc.constantFrom('' as const, '|' as const, '#' as const), fc.array(subscriber, { minLength: 1, maxLength: 4 }), (values, end, subscribers) => {
        sameSync({ values, end, subscribers });
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with share() on random sources and subscription windows (property)', () => {
    const value = fc.constantFrom('a', 'b', 'c');
    const source = fc
      .tuple(fc.array(fc.oneof(value, fc.constant('-')), { maxLength: 12 }), fc.constantFrom('', '|', '#'))
      .map(([cells, end]) => cells.join('') + end);
    const window = fc.tuple(fc.nat(14), fc.option(fc.nat(16), { nil: undefined })).map(([from, len]) => [from, len === undefined ? undefined : from + len] as const);
    fc.assert(
      fc.property(source, fc.array(window, { minLength: 1, maxLength: 4 }), fc.option(fc.tuple(fc.nat(3), value), { nil: undefined }), (src, windows, joinOn) => {
        same({ source: src, windows, ...(joinOn && { joinOn }) });
      }),
      { numRuns: 300 },
    );
  });
});
