import { startSimulator } from '../../lib/simulator';
import { TestSocket, createListenKey } from './helpers';

describe('startSimulator', () => {
  it('serves HTTP and both streams on one ephemeral port of 127.0.0.1 with the real clock, and close() releases everything', async () => {
    const sim = await startSimulator({ periodsMs: { trade: 20 }, marketStepMs: 10 });
    expect(sim.baseUrl).toBe(`http://127.0.0.1:${sim.port}`);
    expect(sim.publicStreamUrl).toBe(`ws://127.0.0.1:${sim.port}/quote/ws/v1`);
    expect(sim.privateStreamUrl).toBe(`ws://127.0.0.1:${sim.port}/api/v1/ws`);
    expect(sim.port).toBeGreaterThan(0);
    const pub = await TestSocket.open(sim.publicStreamUrl);
    const priv = await TestSocket.open(`${sim.privateStreamUrl}/${await createListenKey(sim)}`);
    pub.send({ symbol: 'ETHUSDT', topic: 'trade', event: 'sub', params: { binary: false }, id: 1 });
    await pub.waitFrames(3);
    expect(pub.json()[2].f).toBe(false);
    await sim.close();
    expect((await pub.closed).code).toBe(1006);
    expect((await priv.closed).code).toBe(1006);
    await expect(fetch(`${sim.baseUrl}/api/v1/time`)).rejects.toThrow();
  });

  it('refuses upgrades on other paths and unsupported symbols at start', async () => {
    const sim = await startSimulator({ marketStepMs: 0 });
    try {
      const s = new TestSocket(`ws://127.0.0.1:${sim.port}/elsewhere`);
      await expect(s.opened).rejects.toThrow();
    } finally {
      await sim.close();
    }
    await expect(startSimulator({ symbols: ['BTCEUR'] })).rejects.toThrow(/Unsupported symbol/);
  });
});
