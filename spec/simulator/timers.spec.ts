import { manualClock } from '../../lib/simulator/clock';
import { Timers } from '../../lib/simulator/timers';

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
