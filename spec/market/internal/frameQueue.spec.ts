import * as fc from 'fast-check';
import { FrameQueue, type QueuedTopic } from '../../../lib/market/internal/frameQueue';

interface Topic extends QueuedTopic {
  tag: number;
}

const topicOf = (symbol: string, topic: string, binary = false, tag = 0): Topic => ({ symbol, topic, binary, tag });
const ALL = { normal: true, suspects: true };

describe('FrameQueue', () => {
  it('groups waiting subs by request topic and encoding, first come first out, at most maxSymbols a frame; cancels first', () => {
    const q = new FrameQueue<Topic>(2);
    const [a, b, c, d, e] = [topicOf('A', 'trade'), topicOf('B', 'depth'), topicOf('C', 'trade'), topicOf('D', 'trade'), topicOf('E', 'trade', true)];
    for (const t of [a, b, c, d, e]) q.addSub(t);
    q.addCancel('X', 'trade', false);
    q.addCancel('Y', 'trade', false);
    q.addCancel('Z', 'trade', false);
    const frames = [];
    for (let f = q.next(ALL); f !== undefined; f = q.next(ALL)) {
      frames.push(f.kind === 'cancel' ? `cancel ${f.symbols.join(',')} ${f.topic}` : `sub ${f.members.map((m) => m.symbol).join(',')} ${f.topic}${f.binary ? ' binary' : ''}`);
    }
    expect(frames).toEqual(['cancel X,Y trade', 'cancel Z trade', 'sub A,C trade', 'sub D trade', 'sub B depth', 'sub E trade binary']);
  });

  it('keeps suspect groups apart, after the ordinary ones, and lets each through its gate', () => {
    const q = new FrameQueue<Topic>(20);
    const [s1, s2, n] = [topicOf('S1', 'trade', false, 1), topicOf('S2', 'trade', false, 2), topicOf('N', 'trade')];
    q.addSub(s1);
    q.addSub(s2);
    q.addSub(n);
    expect(q.ready({ normal: false, suspects: false })).toBe(false);
    expect(q.next({ normal: false, suspects: true })).toMatchObject({ kind: 'sub', tag: 1, members: [s1] });
    expect(q.next({ normal: true, suspects: true })).toMatchObject({ kind: 'sub', tag: 0, members: [n] });
    expect(q.next({ normal: true, suspects: false })).toBeUndefined();
    s2.tag = 0; // moved to the ordinary group when queued again
    q.addSub(s2);
    expect(q.next({ normal: true, suspects: false })).toMatchObject({ kind: 'sub', tag: 0, members: [s2] });
    expect(q.waitingSubs).toBe(false);
  });

  it('gives every queued sub exactly once in a frame of its own group, none that was taken out (random sequences)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), i: fc.nat(11) }),
      fc.record({ kind: fc.constant('remove' as const), i: fc.nat(11) }),
      fc.record({ kind: fc.constant('next' as const), normal: fc.boolean(), suspects: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 80 }), (max, ops) => {
        const topics = Array.from({ length: 12 }, (_, i) => topicOf(`S${i}`, i % 3 === 0 ? 'depth' : 'trade', i % 4 === 0, i % 5 === 0 ? 1 + (i % 2) : 0));
        const q = new FrameQueue<Topic>(max);
        const queued = new Set<Topic>();
        const drain = (gate: { normal: boolean; suspects: boolean }, once: boolean): void => {
          for (let f = q.next(gate); f !== undefined; f = once ? undefined : q.next(gate)) {
            expect(f.kind).toBe('sub');
            if (f.kind !== 'sub') return;
            expect(f.members.length).toBeGreaterThan(0);
            expect(f.members.length).toBeLessThanOrEqual(max);
            for (const m of f.members) {
              expect(queued.has(m)).toBe(true);
              expect([m.topic, m.binary, m.tag]).toEqual([f.topic, f.binary, f.tag]);
              expect(f.tag === 0 ? gate.normal : gate.suspects).toBe(true);
              queued.delete(m);
            }
          }
        };
        for (const o of ops) {
          if (o.kind === 'add') {
            q.addSub(topics[o.i]!);
            queued.add(topics[o.i]!);
          } else if (o.kind === 'remove') {
            expect(q.removeSub(topics[o.i]!)).toBe(queued.delete(topics[o.i]!));
          } else drain(o, true);
          expect(q.waitingSubs).toBe(queued.size > 0);
        }
        drain(ALL, false);
        expect(queued.size).toBe(0);
        expect(q.ready(ALL)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
