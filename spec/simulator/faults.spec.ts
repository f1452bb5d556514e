import { manualClock, startSimulator, type ManualClock, type Simulator } from '../../lib/simulator';
import { TestSocket, call, createListenKey, settle, signedCall } from './helpers';

const T0 = 1_700_000_000_000;

describe('startSimulator: faults and control surface', () => {
  let sim: Simulator;
  let clock: ManualClock;
  const sockets: TestSocket[] = [];
  const open = async (url: string): Promise<TestSocket> => {
    const s = await TestSocket.open(url);
    sockets.push(s);
    return s;
  };
  const control = (name: string, body: unknown = {}) =>
    fetch(`${sim.baseUrl}/__control/${name}`, { method: 'POST', body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT'], seed: 11 });
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
    await sim.close();
  });

  it('drop without code destroys the sockets abruptly (1006)', async () => {
    const s = await open(sim.publicStreamUrl);
    sim.drop({ stream: 'public' });
    expect((await s.closed).code).toBe(1006);
  });

  it('halfOpen black-holes the open sockets both ways without a close, counts pushes as written, then drops them; new sockets work', async () => {
    const key = await createListenKey(sim);
    const priv = await open(`${sim.privateStreamUrl}/${key}`);
    const pub = await open(sim.publicStreamUrl);
    expect((await control('halfOpen', { stream: 'private', durationMs: 10_000 })).body).toEqual({ sockets: 1 });
    let pongs = 0;
    priv.ws.on('pong', () => (pongs += 1));
    priv.ws.ping();
    priv.send({ ping: 5 });
    await signedCall(sim, { method: 'POST', path: '/api/v1/spot/order', query: 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000' });
    sim.drop({ stream: 'private', code: 4000 }); // a close frame cannot pass either
    expect(sim.expireListenKey()).toBe(true);
    await settle(100);
    expect(priv.frames).toEqual([]);
    expect(pongs).toBe(0);
    expect(priv.ws.readyState).toBe(1);
    const log = sim.sent().privateLog;
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((r) => r.sessions === 1)).toBe(true); // the server believes it wrote them
    expect(sim.observed().pings.filter((p) => p.stream === 'private')).toEqual([]);
    pub.send({ ping: 1 });
    expect(await pub.waitJson(() => true)).toEqual({ pong: T0 }); // the other stream is untouched
    clock.advance(10_000);
    expect((await priv.closed).code).toBe(1006);
    expect(sim.sent().faults.halfOpen).toBe(1);
    const again = await open(`${sim.privateStreamUrl}/${await createListenKey(sim)}`);
    again.send({ ping: 6 });
    expect(await again.waitJson(() => true)).toEqual({ pong: 6, channelId: expect.any(String) });
  });

  it('drop with a code closes with that code, only on the chosen stream', async () => {
    const pub = await open(sim.publicStreamUrl);
    const priv = await open(`${sim.privateStreamUrl}/${await createListenKey(sim)}`);
    expect((await control('drop', { stream: 'private', code: 4010, reason: 'bye' })).status).toBe(200);
    expect(await priv.closed).toEqual({ code: 4010, reason: 'bye' });
    pub.send({ ping: 1 });
    expect(await pub.waitJson(() => true)).toEqual({ pong: T0 });
  });

  it('stall keeps the socket open but sends and answers nothing until resume', async () => {
    const s = await open(sim.publicStreamUrl);
    sim.stall({ stream: 'all' });
    s.send({ ping: 1 });
    s.send({ symbol: 'BTCUSDT', topic: 'depth', event: 'sub', params: { binary: false }, id: 1 });
    let pongs = 0;
    s.ws.on('pong', () => (pongs += 1));
    s.ws.ping();
    clock.advance(1000);
    await settle(100);
    expect(s.frames).toHaveLength(0);
    expect(pongs).toBe(0);
    expect(sim.observed().connections.public).toBe(1);
    sim.resume();
    s.send({ ping: 2 });
    expect(await s.waitJson(() => true)).toEqual({ pong: T0 + 1000 });
  });

  it('sendRaw sends text and binary frames as given', async () => {
    const s = await open(sim.publicStreamUrl);
    sim.sendRaw({ stream: 'public', data: '{"half":' });
    await control('sendRaw', { stream: 'public', base64: Buffer.from([1, 2, 3]).toString('base64') });
    const frames = await s.waitFrames(2);
    expect(frames).toEqual(['{"half":', new Uint8Array([1, 2, 3])]);
  });

  it('rejectNextRequests rejects exactly n API requests with the given status, code and message', async () => {
    sim.rejectNextRequests(2, { status: 503, code: -1003, msg: 'busy' });
    const a = await call(sim, { path: '/api/v1/time', signatureIn: 'none' });
    const b = await call(sim, { path: '/api/v1/time', signatureIn: 'none' });
    const c = await call(sim, { path: '/api/v1/time', signatureIn: 'none' });
    expect([a.status, b.status, c.status]).toEqual([503, 503, 200]);
    expect(a.body).toEqual({ code: -1003, msg: 'busy' });
    await control('rejectNextRequests', { n: 1 });
    expect(await call(sim, { path: '/api/v1/time', signatureIn: 'none' })).toMatchObject({ status: 429, body: { code: -1003 } });
  });

  it('skewClock shifts server time (over HTTP too)', async () => {
    await control('skewClock', { ms: -2500 });
    expect(sim.serverTime()).toBe(T0 - 2500);
    expect((await call(sim, { path: '/api/v1/time', signatureIn: 'none' })).body.serverTime).toBe(T0 - 2500);
  });

  it('privateChaos duplicates events (seeded) and reorders them within the window', async () => {
    const s = await open(`${sim.privateStreamUrl}/${await createListenKey(sim)}`);
    sim.privateChaos({ duplicateProbability: 1 });
    await signedCall(sim, { method: 'POST', path: '/api/v1/spot/order', query: 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000' });
    // PENDING_NEW, NEW and the lock, each sent twice
    const frames = await s.waitFrames(6);
    expect(frames[0]).toBe(frames[1]);
    expect(frames[2]).toBe(frames[3]);
    expect(frames[0]).not.toBe(frames[2]);
    expect(sim.sent().privateByKind.executionReport).toBe(4);

    sim.privateChaos({ reorderWindowMs: 1000 });
    for (let i = 0; i < 4; i++) {
      await signedCall(sim, { method: 'POST', path: '/api/v1/spot/order', query: `symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=${1000 + i}` });
    }
    expect(s.frames).toHaveLength(6);
    clock.advance(1000);
    await s.waitFrames(18);
    // two reports (PENDING_NEW, NEW) of each of the 4 orders, no longer in the order they were placed
    const reports = s.json().slice(6).flat().filter((e: any) => e.e === 'executionReport').map((e: any) => e.p);
    const placed = ['1000', '1000', '1001', '1001', '1002', '1002', '1003', '1003'];
    expect([...reports].sort()).toEqual(placed);
    expect(reports).not.toEqual(placed);
  });

  it('answers unknown controls with 404 and bad arguments with 400', async () => {
    expect((await control('nothing')).status).toBe(404);
    expect(await control('drop', { stream: 'moon' })).toMatchObject({ status: 400, body: { code: -1 } });
  });

  it('reports observed subscriptions, connections and sent trades over HTTP', async () => {
    const s = await open(sim.publicStreamUrl);
    s.send({ symbol: 'BTCUSDT', topic: 'trade', event: 'sub', params: { binary: true }, id: 5 });
    await s.waitFrames(1);
    const observed = await control('observed');
    expect(observed.body.subscriptions).toEqual([{ stream: 'public', connection: 1, symbol: 'BTCUSDT', topic: 'trade', binary: true, id: '5', at: T0 }]);
    expect(observed.body.connections).toEqual({ public: 1, private: 0 });
    const sent = await control('sent');
    expect(sent.body.trades.BTCUSDT.count).toBe(60);
  });
});

describe('startSimulator: two-factor endpoints', () => {
  let sim: Simulator;
  let clock: ManualClock;
  const withdraw = (token?: string) =>
    signedCall(sim, { method: 'POST', path: '/api/v1/account/withdraw', body: 'coin=BTC&amount=1', signatureIn: 'body', headers: token === undefined ? {} : { 'X-TWO-FA-TOKEN': token } });

  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT'], twoFactor: true });
  });
  afterEach(() => sim.close());

  it('requires the token on each of the four endpoints when 2FA is enabled', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/whitelist/verify'],
      ['POST', '/api/v1/account/withdraw'],
      ['POST', '/api/v1/account/fiat/withdraw'],
      ['POST', '/api/v1/whitelist/walletSigning'],
    ]) {
      const r = await signedCall(sim, { method, path });
      expect(r).toMatchObject({ status: 403, body: { code: -2030, msg: '2FA verification is required.' } });
      const ok = await signedCall(sim, { method, path, headers: { 'X-TWO-FA-TOKEN': sim.issueTwoFactorToken() } });
      expect(ok.status).toBe(200);
    }
  });

  it('accepts a token once', async () => {
    const token = sim.issueTwoFactorToken();
    expect((await withdraw(token)).status).toBe(200);
    expect(await withdraw(token)).toMatchObject({ status: 403, body: { code: -2031 } });
  });

  it('accepts a token 30 s old and rejects one 30 001 ms old', async () => {
    const a = sim.issueTwoFactorToken();
    const b = sim.issueTwoFactorToken();
    clock.advance(30_000);
    expect((await withdraw(a)).status).toBe(200);
    clock.advance(1);
    expect((await withdraw(b)).body.code).toBe(-2031);
  });

  it('rejects unknown tokens and still verifies the signature first', async () => {
    expect((await withdraw('made-up')).body.code).toBe(-2031);
    const r = await signedCall(sim, { method: 'POST', path: '/api/v1/account/withdraw', signature: 'bad' });
    expect(r.body.code).toBe(-1022);
  });

  it('ignores the token when 2FA is disabled (also through the control route)', async () => {
    const r = await fetch(`${sim.baseUrl}/__control/setTwoFactor`, { method: 'POST', body: JSON.stringify({ enabled: false }) });
    expect(r.status).toBe(200);
    expect((await withdraw()).status).toBe(200);
    expect((await withdraw('anything')).body).toEqual({ success: true, id: expect.stringMatching(/^\d{19}$/) });
  });
});
