import { connect as tcpConnect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server } from 'node:http';
import { WebSocket, type WebSocketServer } from 'ws';
import type { HttpAnswer } from '../../lib/simulator/http/httpApi';
import { createSimServer, MAX_BODY_BYTES, type SimServerDeps } from '../../lib/simulator/http/simServer';

interface Seen {
  readonly api: Array<{ method: string; path: string; query: string; body: string; apiKey: unknown; ip: string }>;
  readonly control: Array<{ name: string; body: string }>;
  readonly requests: Array<{ method: string; url: string; body: string }>;
  readonly upgrades: string[];
  readonly served: Array<{ kind: string; key?: string }>;
}

async function start(options: { token?: string; api?: SimServerDeps['api'] } = {}) {
  const seen: Seen = { api: [], control: [], requests: [], upgrades: [], served: [] };
  const deps: SimServerDeps = {
    api:
      options.api ??
      ((method, path, req, ip) => {
        seen.api.push({ method, path, query: req.query, body: req.body, apiKey: req.headers['x-ex-apikey'], ip });
        return { status: 201, body: { ok: true }, headers: { 'Retry-After': '7' } };
      }),
    control: (name, body): HttpAnswer => {
      seen.control.push({ name, body });
      return { status: 200, body: { name } };
    },
    controlToken: options.token,
    after: (ms, fn) => void setTimeout(fn, ms),
    onRequest: (method, url, _headers, body) => seen.requests.push({ method, url, body }),
    onUpgrade: (url) => seen.upgrades.push(url),
    serve: (ws, stream) => {
      seen.served.push({ ...stream });
      ws.send(`hello ${stream.kind}`);
    },
  };
  const { server, wss } = createSimServer(deps);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { seen, server, wss, port, base: `http://127.0.0.1:${port}` };
}

const stop = ({ server, wss }: { server: Server; wss: WebSocketServer }): Promise<void> =>
  new Promise((resolve) => {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** Opens a websocket; resolves with its first message, or the HTTP status of a refused upgrade. */
const upgrade = (url: string): Promise<{ readonly message: string } | { readonly status: number }> =>
  new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.on('error', () => undefined);
    ws.once('message', (data) => {
      resolve({ message: data.toString() });
      ws.terminate();
    });
    ws.once('unexpected-response', (_req, res: IncomingMessage) => {
      resolve({ status: res.statusCode ?? 0 });
      res.resume();
      ws.terminate();
    });
  });

/** Writes raw bytes on a TCP connection; resolves with everything the server sent until it closed. */
const raw = (port: number, text: string): Promise<string> =>
  new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.on('data', (b) => (got += b.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(got));
  });

describe('createSimServer', () => {
  let sim: Awaited<ReturnType<typeof start>>;
  afterEach(() => stop(sim));

  it('hands an API request its method, path, raw query, body, headers and IP, and writes the answer as JSON', async () => {
    sim = await start();
    const res = await fetch(`${sim.base}/api/v1/spot/order?symbol=BTCUSDT&x=%20`, { method: 'POST', body: 'a=1&b=2', headers: { 'X-EX-APIKEY': 'k' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(await res.json()).toEqual({ ok: true });
    expect(sim.seen.api).toEqual([{ method: 'POST', path: '/api/v1/spot/order', query: 'symbol=BTCUSDT&x=%20', body: 'a=1&b=2', apiKey: 'k', ip: '127.0.0.1' }]);
    expect(sim.seen.requests).toEqual([{ method: 'POST', url: '/api/v1/spot/order?symbol=BTCUSDT&x=%20', body: 'a=1&b=2' }]);
  });

  it('answers 500 when the API handler throws', async () => {
    sim = await start({
      api: () => {
        throw new Error('bug');
      },
    });
    const res = await fetch(`${sim.base}/api/v1/time`);
    expect([res.status, await res.json()]).toEqual([500, { code: -1000, msg: 'Internal error.' }]);
  });

  it('answers 413 to a body above 1 MiB, without calling the API', async () => {
    sim = await start();
    const res = await fetch(`${sim.base}/api/v1/spot/order`, { method: 'POST', body: 'x'.repeat(MAX_BODY_BYTES + 1) });
    expect([res.status, await res.json()]).toEqual([413, { code: -1104, msg: 'Request body too large.' }]);
    expect(sim.seen.api).toEqual([]);
  });

  it('serves control routes by name with their body, not recorded as API traffic', async () => {
    sim = await start();
    const res = await fetch(`${sim.base}/__control/step?ignored=1`, { method: 'POST', body: '{"n":2}' });
    expect([res.status, await res.json()]).toEqual([200, { name: 'step' }]);
    expect(sim.seen.control).toEqual([{ name: 'step', body: '{"n":2}' }]);
    expect(sim.seen.requests).toEqual([]);
  });

  it('requires the control token when there is one, in either header', async () => {
    sim = await start({ token: 'secret-token' });
    const none = await fetch(`${sim.base}/__control/observed`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { code: number }).code).toBe(-1002);
    const wrong = await fetch(`${sim.base}/__control/observed`, { headers: { 'X-SIM-CONTROL-TOKEN': 'nope' } });
    expect(wrong.status).toBe(401);
    expect((await fetch(`${sim.base}/__control/observed`, { headers: { 'X-SIM-CONTROL-TOKEN': 'secret-token' } })).status).toBe(200);
    expect((await fetch(`${sim.base}/__control/sent`, { headers: { Authorization: 'Bearer secret-token' } })).status).toBe(200);
    expect(sim.seen.control.map((c) => c.name)).toEqual(['observed', 'sent']);
  });

  it('upgrades the public path and private paths (key URI-decoded), recording the URL', async () => {
    sim = await start();
    expect(await upgrade(`ws://127.0.0.1:${sim.port}/quote/ws/v1?x=1`)).toEqual({ message: 'hello public' });
    expect(await upgrade(`ws://127.0.0.1:${sim.port}/api/v1/ws/ab%2Fc`)).toEqual({ message: 'hello private' });
    expect(await upgrade(`ws://127.0.0.1:${sim.port}/quote/ws/v2`)).toEqual({ message: 'hello public' });
    expect(sim.seen.served).toEqual([{ kind: 'public' }, { kind: 'private', key: 'ab/c' }, { kind: 'public', v2: true }]);
    expect(sim.seen.upgrades).toEqual(['/quote/ws/v1?x=1', '/api/v1/ws/ab%2Fc', '/quote/ws/v2']);
  });

  it('refuses an upgrade to another path (404) or with a malformed escape in the key (400), serving nothing', async () => {
    sim = await start();
    expect(await upgrade(`ws://127.0.0.1:${sim.port}/quote/ws/v3`)).toEqual({ status: 404 });
    expect(await upgrade(`ws://127.0.0.1:${sim.port}/api/v1/ws/%E0%A4%A`)).toEqual({ status: 400 });
    expect(sim.seen.served).toEqual([]);
    expect(sim.seen.upgrades).toEqual([]);
  });

  it('answers 400 to a malformed request line and 431 to oversized headers, and keeps serving', async () => {
    sim = await start();
    expect(await raw(sim.port, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(await raw(sim.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 431 /);
    expect((await fetch(`${sim.base}/api/v1/time`)).status).toBe(201);
  });

  it('closes a websocket whose message is above 1 MiB (1009), and keeps serving', async () => {
    sim = await start();
    const ws = new WebSocket(`ws://127.0.0.1:${sim.port}/quote/ws/v1`);
    ws.on('error', () => undefined);
    await new Promise((resolve) => ws.once('message', resolve));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('x'.repeat(MAX_BODY_BYTES + 1));
    expect(await closed).toBe(1009);
    expect(await upgrade(`ws://127.0.0.1:${sim.port}/quote/ws/v1`)).toEqual({ message: 'hello public' });
  });
});
