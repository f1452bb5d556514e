import { manualClock, type SimulatorClock } from '../../lib/simulator/core/clock';
import { Timers } from '../../lib/simulator/core/timers';

describe('Timers', () => {
  it('runs a timer once after its delay, and forgets it', () => {
    const clock = manualClock(0);
    const timers = new Timers(clock);
    const ran: number[] = [];
    timers.after(100, () => ran.push(clock.now()));
    clock.advance(99);
    expect(ran).toEqual([]);
    clock.advance(1);
    clock.advance(1000);
    expect(ran).toEqual([100]);
    expect(clock.pending()).toBe(0);
  });

  it('cancels a timer, once, and a cancel after it ran changes nothing', () => {
    const clock = manualClock(0);
    const timers = new Timers(clock);
    const ran: string[] = [];
    const cancelA = timers.after(10, () => ran.push('a'));
    const cancelB = timers.after(20, () => ran.push('b'));
    cancelA();
    cancelA();
    clock.advance(30);
    cancelB();
    expect(ran).toEqual(['b']);
    expect(clock.pending()).toBe(0);
  });

  it('repeats every period until cancelled, re-arming before it runs', () => {
    const clock = manualClock(0);
    const timers = new Timers(clock);
    const ran: number[] = [];
    const stop = timers.every(10, () => {
      ran.push(clock.now());
      if (ran.length === 3) stop();
    });
    clock.advance(100);
    expect(ran).toEqual([10, 20, 30]);
    expect(clock.pending()).toBe(0);
  });

  /** A clock whose timers run when the test says, late or not (as Node's do when the event loop is busy). */
  function lateClock(): SimulatorClock & { at: number; armed: Map<number, { due: number; readonly fn: () => void }>; runDue(at: number): void } {
    let seq = 0;
    const clock = {
      at: 0,
      armed: new Map<number, { due: number; fn: () => void }>(),
      now: () => clock.at,
      setTimeout: (fn: () => void, ms: number) => {
        clock.armed.set(++seq, { due: clock.at + Math.max(0, ms), fn });
        return seq;
      },
      clearTimeout: (handle: unknown) => void clock.armed.delete(handle as number),
      /** Moves to `at` and runs, in one go, every timer due by then (each sees `at`: they all ran late together). */
      runDue(at: number): void {
        clock.at = at;
        const due = [...clock.armed].filter(([, t]) => t.due <= at);
        for (const [h, t] of due) {
          clock.armed.delete(h);
          t.fn();
        }
      },
    };
    return clock;
  }

  it('keeps its cadence when a run is late: timers late together do not stay together, and missed runs are skipped', () => {
    const clock = lateClock();
    const timers = new Timers(clock);
    const ran: Array<[string, number]> = [];
    timers.every(100, () => ran.push(['a', clock.now()])); // due 100, 200, …
    clock.at = 30;
    timers.every(100, () => ran.push(['b', clock.now()])); // due 130, 230, …
    clock.runDue(150); // a busy loop: both run late, at 150
    expect(ran).toEqual([
      ['a', 150],
      ['b', 150],
    ]);
    // next: each on its own phase again (re-armed 100 ms after the late run, both would be due at 250)
    expect([...clock.armed.values()].map((t) => t.due).sort()).toEqual([200, 230]);
    ran.length = 0;
    clock.runDue(480); // a stall past several periods: one run each, the missed ones not made up
    expect(ran).toEqual([
      ['a', 480],
      ['b', 480],
    ]);
    expect([...clock.armed.values()].map((t) => t.due).sort()).toEqual([500, 530]);
  });

  it('waits at most a period when the clock was set back between two runs', () => {
    const clock = lateClock();
    const timers = new Timers(clock);
    const ran: number[] = [];
    timers.every(100, () => ran.push(clock.now()));
    clock.runDue(100);
    // The wall clock steps back an hour; a timer already armed still fires 100 ms later (Node's timers are monotonic).
    const back = 3_600_000;
    clock.at -= back;
    for (const t of clock.armed.values()) t.due -= back;
    clock.runDue(200 - back);
    expect(ran).toEqual([100, 200 - back]);
    // the next run a period on, not an hour (the cadence counted from before the step would be due at 300)
    expect([...clock.armed.values()].map((t) => t.due)).toEqual([300 - back]);
  });

  it('clears every live timer, and arms nothing afterwards', () => {
    const clock = manualClock(0);
    const timers = new Timers(clock);
    const ran: string[] = [];
    timers.after(10, () => ran.push('once'));
    timers.every(5, () => ran.push('tick'));
    clock.advance(5);
    timers.clearAll();
    const cancel = timers.after(1, () => ran.push('late'));
    clock.advance(100);
    cancel();
    expect(ran).toEqual(['tick']);
    expect(clock.pending()).toBe(0);
  });
});
