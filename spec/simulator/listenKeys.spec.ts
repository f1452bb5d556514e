import { manualClock, startSimulator, type ManualClock, type Simulator } from '../../lib/simulator';
import { TestSocket, createListenKey, signedCall } from './helpers';

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;

describe('startSimulator: listen keys', () => {
  let sim: Simulator;
  let clock: ManualClock;
  const sockets: TestSocket[] = [];
  const connect = async (key: string): Promise<TestSocket> => {
    const s = new TestSocket(`${sim.privateStreamUrl}/${key}`);
    sockets.push(s);
    await s.opened;
    return s;
  };
  const put = (key: string) => signedCall(sim, { method: 'PUT', path: '/api/v1/userDataStream', query: `listenKey=${key}` });
  const del = (key: string) => signedCall(sim, { method: 'DELETE', path: '/api/v1/userDataStream', query: `listenKey=${key}` });

  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT'], seed: 3 });
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
    await sim.close();
  });

  it('none → active: POST returns a 60-character alphanumeric key', async () => {
    const key = await createListenKey(sim);
    expect(key).toMatch(/^[A-Za-z0-9]{60}$/);
    expect(sim.activeListenKey()).toBe(key);
  });

  it('is deterministic for a seed', async () => {
    const key = await createListenKey(sim);
    const twin = await startSimulator({ clock: manualClock(T0), marketStepMs: 0, symbols: ['BTCUSDT'], seed: 3 });
    try {
      expect(await createListenKey(twin)).toBe(key);
    } finally {
      await twin.close();
    }
  });

  it('active → active: POST returns the active key and extends it to 60 minutes', async () => {
    const key = await createListenKey(sim);
    clock.advance(HOUR - 1);
    expect(await createListenKey(sim)).toBe(key);
    clock.advance(HOUR - 1);
    expect(sim.activeListenKey()).toBe(key);
    clock.advance(1);
    expect(sim.activeListenKey()).toBeUndefined();
  });

  it('active → active: PUT answers 200 and resets validity', async () => {
    const key = await createListenKey(sim);
    clock.advance(30 * 60_000);
    expect((await put(key)).status).toBe(200);
    clock.advance(HOUR - 1);
    const s = await connect(key);
    clock.advance(1);
    expect(await s.closed).toEqual({ code: 4001, reason: 'listen key expired' });
  });

  it('active → expired after 60 minutes without PUT or POST; PUT then fails and POST makes a new key', async () => {
    const key = await createListenKey(sim);
    const s = await connect(key);
    clock.advance(HOUR);
    expect(await s.closed).toEqual({ code: 4001, reason: 'listen key expired' });
    expect(await put(key)).toMatchObject({ status: 400, body: { code: -1125, msg: 'This listenKey does not exist.' } });
    const late = new TestSocket(`${sim.privateStreamUrl}/${key}`);
    sockets.push(late);
    expect(await late.closed).toEqual({ code: 4001, reason: 'invalid listen key' });
    const next = await createListenKey(sim);
    expect(next).not.toBe(key);
  });

  it('active → invalid: DELETE closes the streams and invalidates the key', async () => {
    const key = await createListenKey(sim);
    const a = await connect(key);
    const b = await connect(key);
    expect((await del(key)).status).toBe(200);
    expect(await a.closed).toEqual({ code: 4001, reason: 'listen key deleted' });
    expect(await b.closed).toEqual({ code: 4001, reason: 'listen key deleted' });
    expect((await put(key)).body.code).toBe(-1125);
    expect((await del(key)).body.code).toBe(-1125);
    expect(await createListenKey(sim)).not.toBe(key);
  });

  it('rejects unknown keys on the private stream with close code 4001', async () => {
    const s = new TestSocket(`${sim.privateStreamUrl}/unknown`);
    sockets.push(s);
    expect(await s.closed).toEqual({ code: 4001, reason: 'invalid listen key' });
  });

  it('requires listenKey on PUT and DELETE, and the API key on every call', async () => {
    expect((await signedCall(sim, { method: 'PUT', path: '/api/v1/userDataStream' })).body.code).toBe(-1102);
    expect((await signedCall(sim, { method: 'POST', path: '/api/v1/userDataStream', apiKey: null })).body.code).toBe(-1002);
  });

  it('verifies signed listen-key calls, and accepts API-key-only calls (USER_STREAM)', async () => {
    const bad = await signedCall(sim, { method: 'POST', path: '/api/v1/userDataStream', signature: '00' });
    expect(bad.body.code).toBe(-1022);
    const r = await fetch(`${sim.baseUrl}/api/v1/userDataStream`, { method: 'POST', headers: { 'X-EX-APIKEY': sim.apiKey } });
    expect(((await r.json()) as { listenKey: string }).listenKey).toMatch(/^[A-Za-z0-9]{60}$/);
  });

  it('expireListenKey() expires the active key now', async () => {
    const key = await createListenKey(sim);
    const s = await connect(key);
    expect(sim.expireListenKey()).toBe(true);
    expect(await s.closed).toEqual({ code: 4001, reason: 'listen key expired' });
    expect(sim.expireListenKey()).toBe(false);
  });
});
