import { serverClockSampler } from '../../lib/socket/serverClock';

describe('serverClockSampler', () => {
  it('estimates from the sample with the smallest round trip among the last `window`, emitting each new estimate once', () => {
    const clock = serverClockSampler(3);
    const estimates: number[] = [];
    clock.offset$.subscribe((ms) => estimates.push(ms));
    expect(clock.offsetMs()).toBe(0);
    expect(clock.rttMs()).toBeUndefined();
    clock.sample(100, 10);
    clock.sample(140, 30); // slower: the estimate stays 100
    clock.sample(90, 5); // faster: 90
    clock.sample(95, 20);
    clock.sample(97, 20);
    clock.sample(99, 20); // the 5 ms sample left the window of 3: best of (95, 97, 99) at 20 ms is the first, 95
    expect(estimates).toEqual([100, 90, 95]);
    expect(clock.offsetMs()).toBe(95);
    expect(clock.rttMs()).toBe(20);
  });

  it("says how far off the estimate can be: half its sample's round trip", () => {
    const clock = serverClockSampler(3);
    expect(clock.offsetErrorMs()).toBe(0);
    clock.sample(100, 10);
    expect([clock.offsetMs(), clock.offsetErrorMs()]).toEqual([100, 5]);
    clock.sample(-40, 80); // slower: the estimate and its error stay
    expect([clock.offsetMs(), clock.offsetErrorMs()]).toEqual([100, 5]);
    clock.sample(90, 4); // faster: 90 ± 2
    expect([clock.offsetMs(), clock.offsetErrorMs()]).toEqual([90, 2]);
  });

  it('samples$ shows every sample as measured (offset and round trip), not only the estimate; rtt() alone shows none', () => {
    const clock = serverClockSampler();
    const seen: string[] = [];
    clock.samples$.subscribe(({ offsetMs, rttMs }) => seen.push(`${offsetMs}/${rttMs}`));
    clock.sample(100, 10);
    clock.sample(140, 30);
    clock.rtt(7); // a private pong: a round trip without server time
    expect(seen).toEqual(['100/10', '140/30']);
    expect(clock.rttMs()).toBe(7);
    expect(clock.offsetMs()).toBe(100);
  });

  it('replays the current estimate to a late offset$ subscriber, but samples$ replays nothing', () => {
    const clock = serverClockSampler();
    clock.sample(42, 3);
    const late: number[] = [];
    const lateSamples: unknown[] = [];
    clock.offset$.subscribe((ms) => late.push(ms));
    clock.samples$.subscribe((s) => lateSamples.push(s));
    expect(late).toEqual([42]);
    expect(lateSamples).toEqual([]);
  });
});
