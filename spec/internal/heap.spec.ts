import fc from 'fast-check';
import { EventHeap } from '../../lib/internal/heap';

/** Replays `ops` (a time: push it; 'pop': pop) on a heap and on a linear-scan model; returns nothing, throws on a difference. */
function replay(ops: ReadonlyArray<number | 'pop'>, initialCapacity: number): void {
  const heap = new EventHeap<number>(initialCapacity);
  const model: { time: number; id: number }[] = [];
  let id = 0;
  for (const o of ops) {
    if (o === 'pop') {
      if (model.length === 0) continue;
      let best = 0;
      for (let k = 1; k < model.length; k++) if (model[k]!.time < model[best]!.time) best = k; // first of equals = lowest id
      const expected = model.splice(best, 1)[0]!;
      expect(heap.peekTime()).toBe(expected.time);
      expect(heap.pop()).toBe(expected.id);
    } else {
      heap.push(o, id);
      model.push({ time: o, id: id++ });
    }
    expect(heap.size).toBe(model.length);
  }
  heap.clear();
  expect(heap.size).toBe(0);
  expect(heap.peekTime()).toBe(Infinity);
}

describe('EventHeap', () => {
  it('pops by time, ties in insertion order, like a stable sort (property)', () => {
    const op = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: -5, max: 20 }) }, { weight: 2, arbitrary: fc.constant('pop' as const) });
    fc.assert(fc.property(fc.array(op, { maxLength: 300 }), (ops) => replay(ops, 2)));
  });

  it('stays stable in large heaps with many equal, fractional and infinite times (property)', () => {
    // Few distinct times, so most comparisons are ties; a fill phase first, so pops run on heaps of hundreds of
    // entries (the branch-free sift-down), then interleaved pushes and pops drain through every size.
    const time = fc.constantFrom(0, 1, 1.5, 2, 1_700_000_000_000.25, -Infinity, Infinity);
    const op = fc.oneof({ weight: 1, arbitrary: time }, { weight: 1, arbitrary: fc.constant('pop' as const) });
    fc.assert(
      fc.property(fc.array(time, { minLength: 30, maxLength: 400 }), fc.array(op, { maxLength: 600 }), fc.integer({ min: 2, max: 64 }), (fill, mixed, cap) => {
        const drain = Array.from({ length: fill.length + mixed.length }, () => 'pop' as const);
        replay([...fill, ...mixed, ...drain], cap);
      }),
      { numRuns: 200 },
    );
  });

  it('reuses a cleared heap', () => {
    const heap = new EventHeap<string>();
    for (let k = 0; k < 100; k++) heap.push(k % 3, `a${k}`);
    heap.clear();
    heap.push(5, 'x');
    heap.push(5, 'y');
    heap.push(4, 'z');
    expect([heap.pop(), heap.pop(), heap.pop()]).toEqual(['z', 'x', 'y']);
    expect(heap.size).toBe(0);
  });
});
