import { manualClock, realClock } from '../../lib/simulator';

describe('manualClock', () => {
  it('starts at startMs and moves only on advance', () => {
    const clock = manualClock(1000);
    expect(clock.now()).toBe(1000);
    clock.advance(250);
    expect(clock.now()).toBe(1250);
  });

  it('fires due timers in due-time order (ties in creation order), each at its own time', () => {
    const clock = manualClock(0);
    const log: string[] = [];
    clock.setTimeout(() => log.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => log.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => log.push(`c@${clock.now()}`), 20);
    clock.setTimeout(() => log.push('late'), 31);
    clock.advance(30);
    expect(log).toEqual(['a@10', 'b@20', 'c@20']);
    expect(clock.pending()).toBe(1);
  });

  it('fires timers scheduled by timers within the same advance', () => {
    const clock = manualClock(0);
    const log: number[] = [];
    const tick = (): void => {
      log.push(clock.now());
      clock.setTimeout(tick, 100);
    };
    clock.setTimeout(tick, 100);
    clock.advance(350);
    expect(log).toEqual([100, 200, 300]);
    expect(clock.now()).toBe(350);
  });

  it('does not fire cleared timers', () => {
    const clock = manualClock(0);
    const fn = jest.fn();
    const h = clock.setTimeout(fn, 5);
    clock.clearTimeout(h);
    clock.advance(10);
    expect(fn).not.toHaveBeenCalled();
    expect(clock.pending()).toBe(0);
  });
});

describe('realClock', () => {
  it('reads Date.now and runs real timers', async () => {
    const clock = realClock();
    const before = Date.now();
    expect(clock.now()).toBeGreaterThanOrEqual(before);
    await new Promise<void>((resolve) => clock.setTimeout(resolve, 1));
    const fn = jest.fn();
    clock.clearTimeout(clock.setTimeout(fn, 1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fn).not.toHaveBeenCalled();
  });
});
