import * as fc from 'fast-check';
import { concatMap, map, merge, mergeMap, of, type Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { pacer } from '../../../lib/market/internal/pacer';

/** One step of a pacing scenario: at `at` (ms), a request asks for a slot, or gives up the request `target` asks. */
type Op = { readonly at: number; readonly kind: 'request' } | { readonly at: number; readonly kind: 'cancel'; readonly target: number };

/**
 * The reference: a token bucket in ms of credit, written independently of the pacer's cell rate algorithm. The
 * bucket holds at most `burst * intervalMs`, fills at 1 per ms, a grant takes `intervalMs`; waiting requests are
 * served in order, each as soon as the credit is there. At one instant, the steps given for it come first (in
 * their order), then the grants. Returns the grant time of each request (`undefined`: never granted).
 */
function referenceGrants(ops: readonly Op[], intervalMs: number, burst: number, endMs: number): (number | undefined)[] {
  const cap = Math.max(1, burst) * intervalMs;
  let credit = cap;
  let last = 0;
  const granted: (number | undefined)[] = ops.map(() => undefined);
  const queue: number[] = [];
  const advance = (t: number): void => {
    credit = Math.min(cap, credit + (t - last));
    last = t;
  };
  const serve = (t: number): void => {
    while (queue.length > 0 && credit >= intervalMs) {
      credit -= intervalMs;
      granted[queue.shift()!] = t;
    }
  };
  let i = 0;
  for (;;) {
    // the next instant: the next step, or when the head of the queue has its credit
    const headAt = queue.length > 0 ? last + Math.max(0, intervalMs - credit) : Infinity;
    const opAt = i < ops.length ? ops[i]!.at : Infinity;
    const t = Math.min(headAt, opAt);
    if (t > endMs) break;
    advance(t);
    for (; i < ops.length && ops[i]!.at === t; i++) {
      const op = ops[i]!;
      if (op.kind === 'request') {
        if (queue.length === 0 && credit >= intervalMs) {
          credit -= intervalMs;
          granted[i] = t;
        } else queue.push(i);
      } else {
        const k = queue.indexOf(op.target);
        if (k >= 0) queue.splice(k, 1);
      }
    }
    serve(t);
  }
  return granted;
}

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

  it('gives a slot back when its request leaves before it was granted: the next request takes it at once', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const slots = pacer(10, 1, testScheduler);
      // a takes the only slot; b waits for 100 and leaves at 50; c (at 60) waits for 100, not 200
      const a = slots.slot().pipe(map(() => 'a'));
      const b = slots.slot().pipe(map(() => 'b'));
      const c = cold('60ms x').pipe(concatMap(() => slots.slot().pipe(map(() => 'c'))));
      expectObservable(a).toBe('(a|)');
      expectObservable(b, '^ 50ms !').toBe('');
      expectObservable(c).toBe('100ms c');
    });
  });

  it('after 1000 subscribe/unsubscribe cycles in one tick, a new request waits at most one interval', () => {
    testScheduler.run(({ expectObservable }) => {
      const slots = pacer(10, 10, testScheduler);
      for (let i = 0; i < 1000; i++) slots.slot().subscribe().unsubscribe(); // the first 10 are granted at once
      for (let i = 0; i < 1000; i++) {
        const waiting = slots.slot().subscribe();
        waiting.unsubscribe();
      }
      // the burst is spent (10 granted at 0): the next slot is due one interval later, whatever came and went
      expectObservable(slots.slot().pipe(map(() => 'n'))).toBe('100ms (n|)');
    });
  });

  it('matches a token-bucket reference under random request / give-up sequences', () => {
    const intervals = [1, 2, 4, 5, 8, 10, 20, 25, 40, 50];
    const scenario = fc
      .record({
        interval: fc.constantFrom(...intervals),
        burst: fc.integer({ min: 1, max: 5 }),
        steps: fc.array(fc.record({ gap: fc.integer({ min: 0, max: 30 }), cancel: fc.boolean(), pick: fc.nat() }), { minLength: 1, maxLength: 60 }),
      })
      .map(({ interval, burst, steps }) => {
        const ops: Op[] = [];
        let at = 0;
        for (const { gap, cancel, pick } of steps) {
          at += gap;
          const requests = ops.flatMap((op, i) => (op.kind === 'request' ? [i] : []));
          if (cancel && requests.length > 0) ops.push({ at, kind: 'cancel', target: requests[pick % requests.length]! });
          else ops.push({ at, kind: 'request' });
        }
        return { interval, burst, ops };
      });
    fc.assert(
      fc.property(scenario, ({ interval, burst, ops }) => {
        const endMs = (ops[ops.length - 1]?.at ?? 0) + ops.length * interval + 1;
        const actual: (number | undefined)[] = ops.map(() => undefined);
        const scheduler = new TestScheduler(() => undefined);
        scheduler.run(() => {
          const slots = pacer(1000 / interval, burst, scheduler);
          const subscriptions: (Subscription | undefined)[] = [];
          // every step is scheduled before any timer of the pacer: at one instant, the steps come first
          ops.forEach((op, i) =>
            scheduler.schedule(() => {
              if (op.kind === 'request') subscriptions[i] = slots.slot().subscribe(() => (actual[i] = scheduler.now()));
              else subscriptions[op.target]?.unsubscribe();
            }, op.at),
          );
          scheduler.schedule(() => subscriptions.forEach((s) => s?.unsubscribe()), endMs + 1);
        });
        expect(actual).toEqual(referenceGrants(ops, interval, burst, endMs));
      }),
      { numRuns: 300 },
    );
  });
});
