import fc from 'fast-check';
import { DeadlineQueue } from '../../lib/internal/deadlineQueue';

describe('DeadlineQueue', () => {
  it('is a FIFO of (deadline, time) pairs, growing and wrapping around (property)', () => {
    const op = fc.oneof(fc.tuple(fc.constant('push' as const), fc.nat(100), fc.nat(100)), fc.tuple(fc.constant('shift' as const), fc.nat(), fc.nat()));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const q = new DeadlineQueue(2);
        const model: [number, number][] = [];
        for (const [kind, d, t] of ops) {
          if (kind === 'push') {
            q.push(d, t);
            model.push([d, t]);
          } else {
            q.shift();
            model.shift();
          }
          expect(q.size).toBe(model.length);
          expect(q.headDeadline()).toBe(model[0]?.[0] ?? Infinity);
          expect(q.headTime()).toBe(model[0]?.[1] ?? -Infinity);
        }
      }),
    );
  });

  it('pushOrRaise merges an entry into the newest one of the same deadline, keeping the larger time', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(3), fc.nat(50), fc.boolean()), { maxLength: 200 }), (ops) => {
        const q = new DeadlineQueue(2);
        const model: [number, number][] = [];
        let deadline = 0;
        for (const [step, t, shift] of ops) {
          if (shift && model.length > 0) {
            q.shift();
            model.shift();
            continue;
          }
          deadline += step; // deadlines never decrease (one clock)
          q.pushOrRaise(deadline, t);
          const last = model[model.length - 1];
          if (last !== undefined && last[0] === deadline) last[1] = Math.max(last[1], t);
          else model.push([deadline, t]);
        }
        const drained: [number, number][] = [];
        while (q.size > 0) {
          drained.push([q.headDeadline(), q.headTime()]);
          q.shift();
        }
        expect(drained).toEqual(model);
      }),
    );
  });

  it('clear empties it', () => {
    const q = new DeadlineQueue();
    q.push(1, 2);
    q.clear();
    expect(q.size).toBe(0);
    expect(q.headDeadline()).toBe(Infinity);
  });
});
