import fc from 'fast-check';
import { EventHeap } from '../../lib/internal/heap';

describe('EventHeap', () => {
  it('pops by time, ties in insertion order, like a stable sort (property)', () => {
    const op = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: -5, max: 20 }) }, { weight: 2, arbitrary: fc.constant('pop' as const) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const heap = new EventHeap<number>(2);
        const model: { time: number; id: number }[] = [];
        let id = 0;
        for (const o of ops) {
          if (o === 'pop') {
            if (model.length === 0) continue;
            model.sort((a, b) => a.time - b.time || a.id - b.id);
            const expected = model.shift()!;
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
      }),
    );
  });
});
