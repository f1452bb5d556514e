import * as fc from 'fast-check';
import { firstValueFrom, from, Observable, of, Subject, take, toArray, VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { ConfigError } from '../../lib/errors';
import { LateEventError } from '../../lib/operators/lateEventError';
import { reorderByEventTime } from '../../lib/operators/reorderByEventTime';
import { watchActionChains } from '../helpers/actionChains';

interface Ev {
  readonly E: number;
  readonly id: string;
}

/** Marble values: letter -> event; `a`..`e` have E 1..5, `A` is a second event with E = 1. */
const v: Record<string, Ev> = {
  a: { E: 1, id: 'a' },
  b: { E: 2, id: 'b' },
  c: { E: 3, id: 'c' },
  d: { E: 4, id: 'd' },
  e: { E: 5, id: 'e' },
  A: { E: 1, id: 'A' },
};

describe('reorderByEventTime', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('passes in-order events on after holding each for maxDelayMs', () => {
    testScheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('  -a-b-c----|', v);
      const subs = '        ^---------!';
      const expected = '    ---a-b-c--|';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 2 }))).toBe(expected, v);
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('emits events shuffled within the window sorted by E', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const source = hot('  -c-a-b--------|', v);
      const expected = '    ------(abc)---|';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 5 }))).toBe(expected, v);
    });
  });

  it('behaves as its documentation diagram says', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const source = hot('  --c-a-b-----d---|', v);
      const expected = '    -------(abc)----(d|)';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 5 }))).toBe(expected, v);
    });
  });

  it('keeps arrival order for equal event times (stable)', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const source = hot('  -b-A-a-----|', v);
      const expected = '    ------(Aab)|';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 5 }))).toBe(expected, v);
    });
  });

  it('releases an event held behind an earlier event no later than its own deadline', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      // d arrives first (deadline 5), then a and c: at 5, everything with E <= 4 leaves; e leaves at 12.
      const source = hot('  d-a-c--e----|', v);
      const expected = '    -----(acd)--(e|)';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 5 }))).toBe(expected, v);
    });
  });

  it('flushes an idle stream after maxDelayMs and leaves no timer after unsubscribe', () => {
    let pending = -1;
    testScheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('  -a-b------------c-', v);
      const subs = '        ^----------------!';
      const expected = '    -----------a-b----';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 10 })), subs).toBe(expected, v);
      expectSubscriptions(source.subscriptions).toBe(subs);
      // c arrives at 16 and would leave at 26; the subscription ends at 17.
      testScheduler.schedule(() => (pending = testScheduler.actions.length), 18);
    });
    expect(pending).toBe(0);
  });

  it("emits a late event at once with late: 'emit' (default) and reports it to onLate", () => {
    const reported: [Ev, number][] = [];
    testScheduler.run(({ hot, expectObservable }) => {
      const source = hot('  -b-----a-|', v);
      const expected = '    ----b--a-|';
      const onLate = (e: Ev, watermark: number) => reported.push([e, watermark]);
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 3, onLate }))).toBe(expected, v);
    });
    expect(reported).toEqual([[v.a, 2]]);
  });

  it("drops a late event with late: 'drop'", () => {
    const reported: Ev[] = [];
    testScheduler.run(({ hot, expectObservable }) => {
      const source = hot('  -b-----a-|', v);
      const expected = '    ----b----|';
      const onLate = (e: Ev) => reported.push(e);
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 3, late: 'drop', onLate }))).toBe(expected, v);
    });
    expect(reported).toEqual([v.a]);
  });

  it("flushes what is held, then errors with LateEventError with late: 'error'", () => {
    testScheduler.run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('  -b-e-a-|', v);
      const subs = '        ^----!';
      const expected = '    ----b(e#)';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 3, late: 'error' }))).toBe(
        expected,
        v,
        new LateEventError(1, 2),
      );
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('an event with the same time as the last emitted one is not late', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const source = hot('  -a-----A-|', v);
      const expected = '    ----a----(A|)';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 3, late: 'error' }))).toBe(expected, v);
    });
  });

  it('drops duplicates, whether the first copy is held or already emitted', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const source = hot('  -a-a-b--a--|', v);
      const expected = '    ----a---b--|';
      const dedupeKey = (e: Ev) => e.id;
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 3, dedupeKey }))).toBe(expected, v);
    });
  });

  it('forgets duplicate keys after dedupeWindowMs', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const source = hot('  -a--a--a---|', v);
      const expected = '    ---a-----a-|';
      const dedupeKey = (e: Ev) => e.id;
      const op = reorderByEventTime<Ev>({ maxDelayMs: 2, dedupeKey, dedupeWindowMs: 6 });
      expectObservable(source.pipe(op)).toBe(expected, v);
    });
  });

  it('emits the earliest held event at once when more than maxBuffered are held', () => {
    testScheduler.run(({ hot, expectObservable }) => {
      const source = hot('  -c-b-a-d-|', v);
      const expected = '    -----a-b-(cd|)';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 100, maxBuffered: 2 }))).toBe(expected, v);
    });
  });

  it('flushes everything held in order on completion', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('  -e-c-d-a-b|', v);
      const subs = '         ^---------!';
      const expected = '     ----------(abcde|)';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: Infinity }))).toBe(expected, v);
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('flushes everything held in order, then propagates a source error', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('  -c-a-#', v, new Error('boom'));
      const subs = '         ^----!';
      const expected = '     -----(ac#)';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 10 }))).toBe(expected, v, new Error('boom'));
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('errors (after flushing) when a callback throws', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const source = cold('  -a-b-|', v);
      const expected = '     ---(a#)';
      const eventTime = (e: Ev) => {
        if (e.id === 'b') throw new Error('bad event');
        return e.E;
      };
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 10, eventTime }))).toBe(
        expected,
        v,
        new Error('bad event'),
      );
    });
  });

  it('passes an event without a numeric time on at once', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const values = { ...v, x: { E: Number.NaN, id: 'x' } };
      const source = cold('  -b-x---|', values);
      const expected = '     ---x-b-|';
      expectObservable(source.pipe(reorderByEventTime({ maxDelayMs: 4 }))).toBe(expected, values);
    });
  });

  it('uses a custom eventTime and the given scheduler', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const values = { p: { t: 2 }, q: { t: 1 } };
      const source = cold('  -p-q----|', values);
      const expected = '     ---(qp)-|';
      const op = reorderByEventTime({ eventTime: (e: { t: number }) => e.t, maxDelayMs: 2, scheduler: testScheduler });
      expectObservable(source.pipe(op)).toBe(expected, values);
    });
  });

  it('keeps one timer at a time and none after completion, error or unsubscribe', () => {
    const scheduler = new VirtualTimeScheduler();
    const events = new Subject<Ev>();
    const out: string[] = [];
    const sub = events.pipe(reorderByEventTime({ maxDelayMs: 10, scheduler })).subscribe((e) => out.push(e.id));
    for (let i = 0; i < 100; i++) events.next({ E: 100 - i, id: String(100 - i) });
    expect(scheduler.actions.length).toBe(1);
    sub.unsubscribe();
    expect(scheduler.actions.length).toBe(0);
    expect(out).toEqual([]);

    const completing = new Subject<Ev>();
    completing.pipe(reorderByEventTime({ maxDelayMs: 10, scheduler })).subscribe((e) => out.push(e.id));
    completing.next(v.b);
    completing.next(v.a);
    expect(scheduler.actions.length).toBe(1);
    completing.complete();
    expect(scheduler.actions.length).toBe(0);
    expect(out).toEqual(['a', 'b']);

    const failing = new Subject<Ev>();
    failing.pipe(reorderByEventTime({ maxDelayMs: 10, scheduler })).subscribe({ error: () => out.push('error') });
    failing.next(v.a);
    failing.error(new Error('x'));
    expect(scheduler.actions.length).toBe(0);
    expect(out).toEqual(['a', 'b', 'error']);
  });

  it('stops and schedules nothing when a synchronous source outlives its subscriber', () => {
    const scheduler = new VirtualTimeScheduler();
    const out: number[] = [];
    // Emits synchronously and never completes, so nothing but the guard stops the late pushes.
    const source = new Observable<Ev>((s) => [3, 1, 2, 5, 4].forEach((E) => s.next({ E, id: String(E) })));
    source
      .pipe(reorderByEventTime({ maxDelayMs: 10, maxBuffered: 1, scheduler }), take(1))
      .subscribe((e) => out.push(e.E));
    expect(out).toEqual([1]);
    expect(scheduler.actions.length).toBe(0);
  });

  it('runs on the real asyncScheduler by default', async () => {
    const events = new Subject<Ev>();
    const out = firstValueFrom(events.pipe(reorderByEventTime({ maxDelayMs: 5 }), take(3), toArray()));
    events.next(v.c);
    events.next(v.a);
    events.next(v.b);
    await expect(out).resolves.toEqual([v.a, v.b, v.c]);
  });

  it('rejects impossible configurations with ConfigError', () => {
    expect(() => reorderByEventTime({ maxDelayMs: -1 })).toThrow(ConfigError);
    expect(() => reorderByEventTime({ maxDelayMs: Number.NaN })).toThrow(ConfigError);
    expect(() => reorderByEventTime({ maxBuffered: 0 })).toThrow(ConfigError);
    expect(() => reorderByEventTime({ maxBuffered: 1.5 })).toThrow(ConfigError);
    expect(() => reorderByEventTime({ late: 'keep' as 'emit' })).toThrow(ConfigError);
    expect(() => reorderByEventTime({ dedupeWindowMs: 0 })).toThrow(ConfigError);
  });

  it('needs eventTime when the value has no E (type level), and orders by it', async () => {
    // @ts-expect-error: { t } has no `E`, so an `eventTime` is required
    of({ t: 1 }).pipe(reorderByEventTime());
    const sorted = of({ t: 3 }, { t: 1 }, { t: 2 }).pipe(reorderByEventTime({ eventTime: (e) => e.t, maxDelayMs: Infinity }), toArray());
    await expect(firstValueFrom(sorted)).resolves.toEqual([{ t: 1 }, { t: 2 }, { t: 3 }]);
  });

  it('property: any permutation within displacement d comes out stably sorted by E', () => {
    const arb = fc
      .integer({ min: 1, max: 64 })
      .chain((d) =>
        fc.record({
          d: fc.constant(d),
          items: fc.array(fc.record({ E: fc.integer({ min: 0, max: 200 }), shift: fc.integer({ min: 0, max: d }) }), {
            maxLength: 300,
          }),
          extra: fc.integer({ min: 0, max: 20 }),
        }),
      );
    fc.assert(
      fc.property(arb, ({ d, items, extra }) => {
        // Sorted events (ties allowed), then each moved by at most d positions.
        const sorted = items
          .map((it) => it.E)
          .sort((x, y) => x - y)
          .map((E, i) => ({ E, id: String(i) }));
        const input = sorted
          .map((e, i) => ({ e, key: i + items[i]!.shift }))
          .sort((x, y) => x.key - y.key)
          .map((x) => x.e);
        const scheduler = new VirtualTimeScheduler();
        const out: Ev[] = [];
        let completed = false;
        from(input)
          .pipe(reorderByEventTime({ maxDelayMs: 1e9, maxBuffered: d + extra, scheduler }))
          .subscribe({ next: (e) => out.push(e), complete: () => (completed = true) });
        const expected = [...input].sort((x, y) => x.E - y.E);
        expect(out).toEqual(expected);
        expect(completed).toBe(true);
        expect(scheduler.actions.length).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
  it('holds one timer action however long a busy stream re-arms it, in virtual time too', () => {
    const chains = watchActionChains();
    try {
      const scheduler = new VirtualTimeScheduler(undefined, Infinity);
      // an event every 100 ms for 2 000 s: the 250 ms window always holds one, so the timer re-arms from its own run
      const events = new Observable<Ev>((subscriber) => {
        let n = 0;
        const next = (): void => {
          subscriber.next({ E: n, id: String(n) });
          if (++n < 20_000) scheduler.schedule(next, 100);
        };
        return scheduler.schedule(next, 100);
      });
      let emitted = 0;
      const subscription = events.pipe(reorderByEventTime({ scheduler })).subscribe(() => emitted++);
      scheduler.schedule(() => subscription.unsubscribe(), 2_000_500);
      expect(() => scheduler.flush()).not.toThrow();
      expect(emitted).toBe(20_000);
      // on main: ~20 000 actions chained, each added to the one that rescheduled it and held by the next (the heap grows
      // per event for as long as the stream stays busy)
      expect(chains.longest()).toBeLessThanOrEqual(2);
    } finally {
      chains.restore();
    }
  });
});
