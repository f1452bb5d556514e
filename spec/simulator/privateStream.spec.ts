import { manualClock, startSimulator, type ManualClock, type Simulator } from '../../lib/simulator';
import { TestSocket, createListenKey } from './helpers';

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

describe('startSimulator: private stream sessions', () => {
  let sim: Simulator;
  let clock: ManualClock;
  let socket: TestSocket;

  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT'], listenKeyValidityMs: 10 * HOUR });
    socket = await TestSocket.open(`${sim.privateStreamUrl}/${await createListenKey(sim)}`);
  });
  afterEach(async () => {
    await socket.close();
    await sim.close();
  });

  it('sends { ping, channelId } every 30 s', async () => {
    clock.advance(29_999);
    clock.advance(1);
    const [first] = await socket.waitFrames(1);
    const ping = JSON.parse(first as string);
    expect(ping).toEqual({ ping: T0 + 30_000, channelId: expect.stringMatching(/^[A-Za-z0-9]{16}$/) });
    clock.advance(30_000);
    await socket.waitFrames(2);
    expect(socket.json()[1]).toEqual({ ping: T0 + 60_000, channelId: ping.channelId });
  });

  it('answers a client ping with { pong: <client ts>, channelId }', async () => {
    socket.send({ ping: 42 });
    expect(await socket.waitJson(() => true)).toEqual({ pong: 42, channelId: expect.any(String) });
  });

  it('records client pongs, matched only when they echo a server ping', async () => {
    clock.advance(30_000);
    const { ping } = await socket.waitJson((m) => m.ping !== undefined);
    socket.send({ pong: ping });
    socket.send({ pong: 1 });
    socket.send({ ping: 2 });
    await socket.waitJson((m) => m.pong === 2);
    expect(sim.observed().pongs.map((p) => [p.ts, p.matched])).toEqual([[ping, true], [1, false]]);
  });

  it('closes a session after 60 minutes without client ping or pong (4002)', async () => {
    clock.advance(HOUR - 1);
    expect(sim.observed().connections.private).toBe(1);
    clock.advance(1);
    expect(await socket.closed).toEqual({ code: 4002, reason: 'no heartbeat for too long' });
  });

  it('keeps the session while the client sends heartbeats (pongs with any timestamp count)', async () => {
    clock.advance(HOUR - 10);
    socket.send({ pong: 999 });
    socket.send({ ping: 4 }); // frames are handled in order: once ping 4 is answered, the pong was seen
    await socket.waitJson((m) => m.pong === 4);
    clock.advance(HOUR - 1);
    socket.send({ ping: 5 });
    await socket.waitJson((m) => m.pong === 5);
    expect(sim.observed().connections.private).toBe(1);
  });

  it('accepts and ignores a sub message with topic trade, recording it', async () => {
    socket.send({ symbol: 'BTCUSDT', topic: 'trade', event: 'sub', params: { limit: '100', binary: 'false' }, id: 1 });
    socket.send({ ping: 3 });
    await socket.waitJson((m) => m.pong === 3);
    expect(socket.frames).toHaveLength(1);
    expect(sim.observed().subscriptions).toEqual([
      { stream: 'private', connection: 1, symbol: 'BTCUSDT', topic: 'trade', binary: false, id: '1', at: T0 },
    ]);
  });
});
