import fc from 'fast-check';
import { type MonoTypeOperatorFunction, Observable, share, type Subscriber, type Subscription, take } from 'rxjs';
import { lightShare, lightSubject } from '../../lib/internal/lightShare';

/**
 * A script run against a shared observable: subscribers come and go (some with `take(n)`, some leaving or
 * bringing a new subscriber from inside their own `next`), the source emits, errors or completes. Everything
 * observable is written to one log: what each subscriber sees, and each subscription and unsubscription of the
 * source. `share()` and `lightShare()` must write the same log.
 */
type Step =
  | { readonly op: 'sub'; readonly take: number | undefined; readonly onValue: 'none' | 'leave' | 'join' | 'dropFirst' }
  | { readonly op: 'unsub'; readonly who: number }
  | { readonly op: 'next' }
  | { readonly op: 'error' }
  | { readonly op: 'complete' };

function play(operator: () => MonoTypeOperatorFunction<number>, steps: readonly Step[], syncValues: number): string[] {
  const log: string[] = [];
  const sources: Subscriber<number>[] = [];
  let runs = 0;
  const source = new Observable<number>((subscriber) => {
    const run = ++runs;
    log.push(`source+${run}`);
    // A synchronous start: values emitted during the subscription itself, as long as someone listens.
    for (let i = 0; i < syncValues && !subscriber.closed; i++) subscriber.next(1000 * run + i);
    sources.push(subscriber);
    return () => log.push(`source-${run}`);
  });
  const shared$ = source.pipe(operator());
  const subscriptions: Subscription[] = [];
  let value = 0;
  const subscribe = (step: Extract<Step, { op: 'sub' }>): void => {
    const id = subscriptions.length;
    let sub: Subscription | undefined;
    const piped$ = step.take === undefined ? shared$ : shared$.pipe(take(step.take));
    sub = piped$.subscribe({
      next: (v) => {
        log.push(`${id}:${v}`);
        if (step.onValue === 'leave') sub?.unsubscribe();
        else if (step.onValue === 'join') subscribe({ op: 'sub', take: 1, onValue: 'none' });
        else if (step.onValue === 'dropFirst') subscriptions[0]?.unsubscribe();
      },
      error: (e: unknown) => log.push(`${id}:error ${String(e)}`),
      complete: () => log.push(`${id}:complete`),
    });
    subscriptions[id] = sub;
  };
  for (const step of steps) {
    const live = sources.filter((s) => !s.closed);
    switch (step.op) {
      case 'sub':
        subscribe(step);
        break;
      case 'unsub':
        subscriptions[step.who % Math.max(1, subscriptions.length)]?.unsubscribe();
        break;
      case 'next':
        value++;
        for (const s of live) s.next(value);
        break;
      case 'error':
        for (const s of live) s.error(`e${value}`);
        break;
      case 'complete':
        for (const s of live) s.complete();
        break;
    }
  }
  for (const s of subscriptions) s.unsubscribe();
  return log;
}

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      op: fc.constant('sub' as const),
      take: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      onValue: fc.constantFrom('none' as const, 'leave' as const, 'join' as const, 'dropFirst' as const),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ op: fc.constant('unsub' as const), who: fc.nat(10) }), weight: 2 },
  { arbitrary: fc.constant({ op: 'next' as const }), weight: 5 },
  { arbitrary: fc.constant({ op: 'error' as const }), weight: 1 },
  { arbitrary: fc.constant({ op: 'complete' as const }), weight: 1 },
);

describe('lightShare (share() through a light subject)', () => {
  it('writes what share() writes for any script: values, endings, resets, subscriptions of the source (property)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.integer({ min: 0, max: 3 }), (steps, syncValues) => {
        expect(play(lightShare, steps, syncValues)).toEqual(play(share, steps, syncValues));
      }),
      { numRuns: 3000 },
    );
  });

  it('stops an endless synchronous source when take(1) leaves during its emission, as share() does', () => {
    const count = (operator: () => MonoTypeOperatorFunction<number>): { values: number[]; emitted: number } => {
      let emitted = 0;
      const endless = new Observable<number>((subscriber) => {
        for (let i = 0; !subscriber.closed; i++) {
          emitted++;
          subscriber.next(i);
        }
      });
      const values: number[] = [];
      endless.pipe(operator(), take(1)).subscribe((v) => values.push(v));
      return { values, emitted };
    };
    expect(count(lightShare)).toEqual({ values: [0], emitted: 1 });
    expect(count(lightShare)).toEqual(count(share));
  });

  it('the subject alone: a subscriber after the end gets the end at once; a plain observer is served too', () => {
    const subject = lightSubject<number>();
    const seen: string[] = [];
    subject.subscribe({ next: (v) => seen.push(`a${v}`) });
    subject.next(1);
    subject.error('boom');
    subject.next(2);
    subject.subscribe({ error: (e: unknown) => seen.push(`late ${String(e)}`) });
    expect(seen).toEqual(['a1', 'late boom']);

    const done = lightSubject<number>();
    done.complete();
    done.error('ignored');
    let completed = false;
    done.subscribe({ complete: () => (completed = true) });
    expect(completed).toBe(true);
  });

  it('lets go of a subscriber whose subscription ended, however it ended (no growth under churn)', () => {
    const subject = lightSubject<number>();
    const stay = subject.subscribe({});
    for (let i = 0; i < 100; i++) new Observable<number>((s) => void subject.subscribe(s)).pipe(take(1)).subscribe();
    for (let i = 0; i < 100; i++) subject.next(i);
    const leaving = new Observable<number>((s) => void subject.subscribe(s)).subscribe();
    leaving.unsubscribe();
    stay.unsubscribe();
    expect(subject.observed).toBe(false);
  });

  it('a subscription returned to a plain observer removes it', () => {
    const subject = lightSubject<number>();
    const seen: number[] = [];
    const sub = subject.subscribe({ next: (v) => seen.push(v) });
    subject.next(1);
    sub.unsubscribe();
    subject.next(2);
    expect(seen).toEqual([1]);
  });
});
