import { connect } from 'node:net';
import { WebSocket } from 'ws';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { TestSocket } from './helpers';

/** Sends raw bytes on a fresh TCP connection; resolves with everything the server wrote until it closed. */
const raw = (port: number, data: string | Buffer, timeoutMs = 3000): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${timeoutMs} ms; got ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`));
    }, timeoutMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.on('connect', () => socket.write(data));
  });

const upgrade = (path: string, extra = ''): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}Connection: close\r\n\r\n`;

const statusLine = (response: string): string => response.split('\r\n')[0] ?? '';

/** The simulator still answers HTTP and its public stream still answers pings. */
async function stillServing(sim: Simulator): Promise<void> {
  const r = await fetch(`${sim.baseUrl}/api/v1/time`);
  expect(r.status).toBe(200);
  const s = await TestSocket.open(sim.publicStreamUrl);
  s.send({ ping: 1 });
  expect((await s.waitJson((m) => m.pong !== undefined)).pong).toEqual(expect.any(Number));
  await s.close();
}

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** A JSON object whose `String(v)` / `Number(v)` throw: its toString and valueOf are not functions. */
const POISON = '{"toString":1,"valueOf":1}';

describe('simulator under hostile clients', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ marketStepMs: 0, symbols: ['BTCUSDT'] });
  });
  afterAll(() => sim.close());

  it('answers a websocket upgrade with a malformed escape (/api/v1/ws/%E0%A4%A) with 400, and keeps serving', async () => {
    expect(statusLine(await raw(sim.port, upgrade('/api/v1/ws/%E0%A4%A')))).toBe('HTTP/1.1 400 Bad Request');
    expect(statusLine(await raw(sim.port, upgrade('/api/v1/ws/%')))).toBe('HTTP/1.1 400 Bad Request');
    await stillServing(sim);
  });

  it('refuses unknown upgrade paths (404) and bad handshakes (400) without a crash', async () => {
    expect(statusLine(await raw(sim.port, upgrade('/nowhere/%E0')))).toBe('HTTP/1.1 404 Not Found');
    const badKey = `GET /quote/ws/v1 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    expect(statusLine(await raw(sim.port, badKey))).toMatch(/^HTTP\/1\.1 400/);
    await stillServing(sim);
  });

  it('answers malformed HTTP with 400 and oversized headers with 431', async () => {
    expect(statusLine(await raw(sim.port, 'NOT HTTP AT ALL\r\n\r\n'))).toBe('HTTP/1.1 400 Bad Request');
    expect(statusLine(await raw(sim.port, Buffer.from([0x00, 0xff, 0xfe, 0x0d, 0x0a, 0x0d, 0x0a])))).toBe('HTTP/1.1 400 Bad Request');
    const huge = `GET /api/v1/time HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`;
    expect(statusLine(await raw(sim.port, huge))).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    await stillServing(sim);
  });

  it('reads bad escapes in queries and bodies as text, and answers control calls with bad JSON or arguments with 400', async () => {
    const time = await raw(sim.port, 'GET /api/v1/time?%E0%A4%A=%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(statusLine(time)).toBe('HTTP/1.1 200 OK');
    const order = await fetch(`${sim.baseUrl}/api/v1/spot/order?%E0%A4%A=1&symbol=%`, { method: 'POST', body: '%E0%A4%A', headers: { 'X-EX-APIKEY': sim.apiKey } });
    expect(order.status).toBe(400);
    const post = (name: string, body: string): Promise<Response> => fetch(`${sim.baseUrl}/__control/${name}`, { method: 'POST', body });
    for (const [name, body] of [
      ['drop', '{"stream":'],
      ['drop', `{"stream":"all","code":5}`],
      ['drop', `{"stream":"all","code":1005}`],
      ['drop', `{"stream":"all","code":4000,"reason":"${'r'.repeat(200)}"}`],
      ['step', '{"n":1e12}'],
      ['step', '{"n":-1}'],
      ['injectTrade', `{"symbol":${POISON},"price":"1"}`],
      ['rejectNextRequests', '{"n":1,"status":99}'],
      ['skewClock', `{"ms":${nested(5000)}}`],
    ] as const) {
      const r = await post(name, body);
      expect([name, body.slice(0, 40), r.status]).toEqual([name, body.slice(0, 40), 400]);
    }
    await stillServing(sim);
  });

  it('survives hostile public frames: poisoned values, deep nesting, binary junk, huge symbol lists; invalid UTF-8 closes 1007, > 1 MiB closes 1009', async () => {
    const s = await TestSocket.open(sim.publicStreamUrl);
    s.send(`{"ping":${POISON}}`);
    s.send(`{"pong":${POISON}}`);
    s.send(`{"event":"cancel_all","symbol":${POISON},"topic":${POISON},"id":${POISON}}`);
    s.send(`{"event":"sub","symbol":"BTCUSDT","topic":"trade","id":${POISON},"params":${POISON}}`);
    s.send(nested(100_000));
    s.send('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
    s.ws.send(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
    s.send({ event: 'sub', symbol: Array.from({ length: 5000 }, () => 'BTCUSDT').join(','), topic: 'trade', id: 'many' });
    expect(await s.waitJson((m) => m.id === 'many')).toEqual({ id: 'many', code: '-100001', desc: 'Invalid request' });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    await s.close();

    const utf8 = await TestSocket.open(sim.publicStreamUrl);
    utf8.ws.send(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), { binary: false });
    expect((await utf8.closed).code).toBe(1007);
    const big = await TestSocket.open(sim.publicStreamUrl);
    big.send(`"${'x'.repeat((1 << 20) + 10)}"`);
    expect((await big.closed).code).toBe(1009);
    await stillServing(sim);
  });

  it('survives hostile private frames (poisoned ping/pong/sub values, a deep ping, binary junk) and keeps the session', async () => {
    const r = await fetch(`${sim.baseUrl}/api/v1/userDataStream`, { method: 'POST', headers: { 'X-EX-APIKEY': sim.apiKey } });
    const { listenKey } = (await r.json()) as { listenKey: string };
    const s = await TestSocket.open(`${sim.privateStreamUrl}/${listenKey}`);
    s.send(`{"ping":${POISON}}`);
    s.send(`{"pong":${POISON}}`);
    s.send(`{"event":"sub","topic":"trade","symbol":${POISON},"id":${POISON},"params":${POISON}}`);
    s.send(`{"event":"cancel","symbol":${POISON},"topic":${POISON},"id":${POISON}}`);
    s.send(`{"ping":${nested(3000)}}`);
    s.send(nested(100_000));
    s.ws.send(Buffer.from([0x00, 0x01, 0xff]));
    s.send({ ping: 7 });
    expect(await s.waitJson((m) => m.pong !== undefined)).toEqual({ pong: 7, channelId: expect.any(String) });
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    await s.close();
    await stillServing(sim);
  });
});

describe('simulator control token', () => {
  const control = (sim: Simulator, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`http://127.0.0.1:${sim.port}/__control/step`, { method: 'POST', body: '{}', headers });

  it('beyond loopback, generates a token and requires it (X-SIM-CONTROL-TOKEN or Bearer) on every control route: 401 without', async () => {
    const sim = await startSimulator({ host: '0.0.0.0', marketStepMs: 0 });
    try {
      const token = sim.controlToken ?? '';
      expect(token).toMatch(/^[0-9a-f]{48}$/);
      expect((await control(sim)).status).toBe(401);
      expect((await control(sim, { 'X-SIM-CONTROL-TOKEN': `${token}x` })).status).toBe(401);
      expect((await control(sim, { Authorization: 'Bearer nope' })).status).toBe(401);
      const get = await fetch(`http://127.0.0.1:${sim.port}/__control/sent`);
      expect(get.status).toBe(401);
      expect(await get.text()).not.toContain(token);
      expect((await control(sim, { 'X-SIM-CONTROL-TOKEN': token })).status).toBe(200);
      expect((await control(sim, { Authorization: `Bearer ${token}` })).status).toBe(200);
      // the API itself is not behind the token
      expect((await fetch(`http://127.0.0.1:${sim.port}/api/v1/time`)).status).toBe(200);
    } finally {
      await sim.close();
    }
    const other = await startSimulator({ host: '0.0.0.0', marketStepMs: 0 });
    try {
      expect(other.controlToken).not.toBe(sim.controlToken);
    } finally {
      await other.close();
    }
  });

  it('on loopback keeps the control routes open unless a token is given', async () => {
    const open = await startSimulator({ marketStepMs: 0 });
    const locked = await startSimulator({ marketStepMs: 0, controlToken: 'given-token' });
    try {
      expect(open.controlToken).toBeUndefined();
      expect((await control(open)).status).toBe(200);
      expect(locked.controlToken).toBe('given-token');
      expect((await control(locked)).status).toBe(401);
      expect((await control(locked, { 'x-sim-control-token': 'given-token' })).status).toBe(200);
    } finally {
      await open.close();
      await locked.close();
    }
  });
});
