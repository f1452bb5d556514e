import fc from 'fast-check';
import { type MonoTypeOperatorFunction, type Observable, share, type Subscription, tap } from 'rxjs';
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
