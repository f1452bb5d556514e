import fc from 'fast-check';
import { mergeMap, Observable, type OperatorFunction, take, throwError, concat, from } from 'rxjs';
import { flatMapArray } from '../../lib/internal/flatMapArray';

type Note = ['N', number] | ['E', string] | ['C'];

/** What a subscriber sees, and how many values the source produced before it stopped. */
function run(op: OperatorFunction<readonly number[], number>, source: Observable<readonly number[]>, limit: number | undefined): Note[] {
  const notes: Note[] = [];
  const piped = limit === undefined ? source.pipe(op) : source.pipe(op, take(limit));
  piped.subscribe({
    next: (v) => notes.push(['N', v]),
    error: (e: unknown) => notes.push(['E', String(e)]),
    complete: () => notes.push(['C']),
  });
  return notes;
}

/** A synchronous source of `batches`, then an error or completion; it counts what it emitted. */
function syncSource(batches: readonly (readonly number[])[], fail: boolean, counter: { emitted: number }): Observable<readonly number[]> {
  return new Observable<readonly number[]>((subscriber) => {
    for (const b of batches) {
      if (subscriber.closed) return;
      counter.emitted++;
      subscriber.next(b);
    }
    if (fail) subscriber.error('boom');
    else subscriber.complete();
  });
}

describe('flatMapArray (a stand-in for mergeMap over arrays)', () => {
  const batches = fc.array(fc.array(fc.integer({ min: 0, max: 99 }), { maxLength: 5 }), { maxLength: 12 });
  const limit = fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined });

  it('gives what mergeMap gives, and stops a synchronous source as early, for any batches, take(n) and ending (property)', () => {
    fc.assert(
      fc.property(batches, fc.boolean(), limit, fc.integer({ min: 0, max: 30 }), (bs, fail, n, throwAt) => {
        const project = (b: readonly number[]): readonly number[] => {
          if (b.length === 1 && b[0] === throwAt) throw new Error(`project ${throwAt}`);
          return b;
        };
        const ours = { emitted: 0 };
        const theirs = { emitted: 0 };
        const a = run(flatMapArray(project), syncSource(bs, fail, ours), n);
        const b = run(mergeMap(project), syncSource(bs, fail, theirs), n);
        expect(a).toEqual(b);
        expect(ours.emitted).toBe(theirs.emitted);
      }),
      { numRuns: 2000 },
    );
  });

  it('stops an endless synchronous source when the subscriber leaves during its emission', () => {
    let emitted = 0;
    const endless = new Observable<readonly number[]>((subscriber) => {
      for (let i = 0; !subscriber.closed; i++) {
        emitted++;
        subscriber.next([i, i]);
      }
    });
    expect(run(flatMapArray((b: readonly number[]) => b), endless, 5)).toEqual([['N', 0], ['N', 0], ['N', 1], ['N', 1], ['N', 2], ['C']]);
    expect(emitted).toBe(3);
  });

  it('passes an error of the source on, after the items before it', () => {
    const source = concat(from([[1, 2]]), throwError(() => 'late'));
    expect(run(flatMapArray((b: readonly number[]) => b), source, undefined)).toEqual([['N', 1], ['N', 2], ['E', 'late']]);
  });
});
