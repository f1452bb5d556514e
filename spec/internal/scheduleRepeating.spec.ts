import { asyncScheduler, VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { scheduleRepeating } from '../../lib/internal/scheduleRepeating';
import { watchActionChains } from '../helpers/actionChains';

describe('scheduleRepeating', () => {
  it('runs after the first delay, then after each delay the work returns, until it returns undefined', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    const runs: number[] = [];
    testScheduler.run(() => {
      const delays = [5, 0, 20];
      scheduleRepeating(testScheduler, () => (runs.push(testScheduler.now()), delays.shift()), 3);
    });
    expect(runs).toEqual([3, 8, 8, 28]);
  });

  it('unsubscribing cancels the next run, also from inside the work', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    const runs: number[] = [];
    testScheduler.run(() => {
      const outside = scheduleRepeating(testScheduler, () => (runs.push(testScheduler.now()), 10), 0);
      testScheduler.schedule(() => outside.unsubscribe(), 25);
      const inside = scheduleRepeating(testScheduler, () => (runs.push(-testScheduler.now()), inside.unsubscribe(), 1), 7);
    });
    expect(runs).toEqual([0, -7, 10, 20]);
  });

  it('holds one action however many runs: no chain in virtual time, a clean teardown after 100 000 runs', () => {
    const chains = watchActionChains();
    try {
      const scheduler = new VirtualTimeScheduler(undefined, 1_000_000);
      let runs = 0;
      const subscription = scheduleRepeating(scheduler, () => (runs++, 10), 0);
      scheduler.flush();
      expect(runs).toBe(100_001);
      expect(scheduler.actions).toHaveLength(1);
      expect(() => subscription.unsubscribe()).not.toThrow();
      expect(chains.longest()).toBe(0);
    } finally {
      chains.restore();
    }
  });

  it('repeats on asyncScheduler', async () => {
    let runs = 0;
    await new Promise<void>((resolve) => scheduleRepeating(asyncScheduler, () => (++runs < 3 ? 1 : (resolve(), undefined)), 0));
    expect(runs).toBe(3);
  });
});
