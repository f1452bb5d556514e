import { spawn } from 'node:child_process';
import path from 'node:path';
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

describe('ex-streams-simulator (CLI)', () => {
  it('prints its addresses and credentials and stops on SIGTERM', async () => {
    const bin = path.join(__dirname, '..', '..', 'bin', 'ex-streams-simulator.js');
    const child = spawn(process.execPath, [bin, '--port', '0', '--symbols', 'BTCUSDT', '--seed', '4'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('control:')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    expect(out).toMatch(/baseUrl: +http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toMatch(/publicStreamUrl: +ws:\/\/127\.0\.0\.1:\d+\/quote\/ws\/v1/);
    expect(out).toMatch(/apiKey: +sim[A-Za-z0-9]{61}/);
    expect(out).toMatch(/secretKey: +[A-Za-z0-9]{64}/);
    const port = /127\.0\.0\.1:(\d+)/.exec(out)?.[1];
    const r = await fetch(`http://127.0.0.1:${port}/api/v1/time`);
    expect(((await r.json()) as { serverTime: number }).serverTime).toEqual(expect.any(Number));
    expect(out).toMatch(/controlToken: +none/);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('beyond loopback prints the control token it requires (from EX_STREAMS_SIM_CONTROL_TOKEN when set)', async () => {
    const bin = path.join(__dirname, '..', '..', 'bin', 'ex-streams-simulator.js');
    const child = spawn(process.execPath, [bin, '--port', '0', '--host', '0.0.0.0', '--symbols', 'BTCUSDT'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, EX_STREAMS_SIM_CONTROL_TOKEN: 'cli-token-1' },
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('controlToken:')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    expect(out).toMatch(/controlToken: +cli-token-1 /);
    const port = /0\.0\.0\.0:(\d+)/.exec(out)?.[1];
    const post = (headers: Record<string, string>) => fetch(`http://127.0.0.1:${port}/__control/step`, { method: 'POST', body: '{}', headers });
    expect((await post({})).status).toBe(401);
    expect((await post({ Authorization: 'Bearer cli-token-1' })).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
