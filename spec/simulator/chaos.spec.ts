import { CHAOS_FAULT_KINDS, manualClock, startSimulator, type ManualClock, type Simulator } from '../../lib/simulator';
import { TestSocket, createListenKey, signedCall } from './helpers';

const T0 = 1_700_000_000_000;

describe('startSimulator: startChaos', () => {
  let sim: Simulator;
  let clock: ManualClock;
  const sockets: TestSocket[] = [];

  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT'], seed: 5 });
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
    await sim.close();
  });

  it('injects every kind once per round, at seeded times, and counts them', async () => {
    const chaos = sim.startChaos({ meanIntervalMs: 1000, seed: 9 });
    clock.advance(30_000);
    chaos.stop();
    const injected = chaos.injected();
    expect(injected.length).toBeGreaterThanOrEqual(CHAOS_FAULT_KINDS.length * 2);
    const firstRound = injected.slice(0, CHAOS_FAULT_KINDS.length).map((f) => f.kind);
    expect([...firstRound].sort()).toEqual([...CHAOS_FAULT_KINDS].sort());
    for (let i = 1; i < injected.length; i++) {
      const gap = injected[i].at - injected[i - 1].at;
      expect(gap).toBeGreaterThanOrEqual(500);
      expect(gap).toBeLessThanOrEqual(1500);
    }
    const faults = sim.sent().faults;
    const count = (k: string): number => injected.filter((f) => f.kind === k).length;
    expect(faults.drop).toBe(count('drop'));
    expect(faults.close).toBe(count('close'));
    expect(faults.stall).toBe(count('stall'));
    expect(faults.rawFrame).toBe(count('malformed') + count('wrongShape'));
    expect(faults.clockSkew).toBe(count('clockSkew'));
    expect(faults.privateChaos).toBe(count('duplicate') + count('reorder'));

    // same seed, same schedule
    const again = sim.startChaos({ meanIntervalMs: 1000, seed: 9 });
    clock.advance(30_000);
    again.stop();
    expect(again.injected().map((f) => [f.kind, f.at - T0 - 30_000, f.detail])).toEqual(
      injected.map((f) => [f.kind, f.at - T0, f.detail]),
    );
  });

  it('only injects the kinds asked for, and stop() ends a stall in progress', async () => {
    const s = await TestSocket.open(sim.publicStreamUrl);
    sockets.push(s);
    const chaos = sim.startChaos({ meanIntervalMs: 100, kinds: ['stall'], maxStallMs: 100_000 });
    clock.advance(150);
    expect(chaos.injected()).toHaveLength(1);
    expect(chaos.injected()[0]).toMatchObject({ kind: 'stall', sockets: expect.any(Number) });
    chaos.stop();
    clock.advance(1_000);
    expect(chaos.injected()).toHaveLength(1);
    s.send({ ping: 1 });
    expect(await s.waitJson((m) => 'pong' in m)).toEqual({ pong: T0 + 1150 });
  });

  it('records the private pushes with their sequence, copy and text', async () => {
    const key = await createListenKey(sim);
    const s = await TestSocket.open(`${sim.privateStreamUrl}/${key}`);
    sockets.push(s);
    sim.privateChaos({ duplicateProbability: 1 });
    const r = await signedCall(sim, { method: 'POST', path: '/api/v1/spot/order', query: 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.001&price=1' });
    expect(r.status).toBe(200);
    await s.waitFrames(6);
    const log = sim.sent().privateLog;
    expect(log.map((e) => [e.seq, e.copy, e.kind, JSON.parse(e.text).X])).toEqual([
      [1, 0, 'executionReport', 'PENDING_NEW'],
      [1, 1, 'executionReport', 'PENDING_NEW'],
      [2, 0, 'executionReport', 'NEW'],
      [2, 1, 'executionReport', 'NEW'],
      [3, 0, 'outboundAccountInfo', undefined],
      [3, 1, 'outboundAccountInfo', undefined],
    ]);
    expect(s.frames).toEqual(log.map((e) => `[${e.text}]`));
    expect(log.every((e) => e.sessions === 1 && e.at === T0 && e.E === T0)).toBe(true);
    expect(sim.sent().faults).toMatchObject({ privateChaos: 1, duplicatedPrivateFrames: 3, delayedPrivateFrames: 0 });
  });
});
