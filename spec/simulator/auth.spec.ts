import { manualClock, startSimulator, type ManualClock, type Simulator } from '../../lib/simulator';
import { call, sign } from './helpers';

const T0 = 1_700_000_000_000;

describe('startSimulator: request verification', () => {
  let sim: Simulator;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT'] });
  });
  afterEach(() => sim.close());

  const account = (query: string, extra: Partial<Parameters<typeof call>[1]> = {}) =>
    call(sim, { path: '/api/v1/account', query, ...extra });

  it('accepts a signed request whose timestamp is serverTime', async () => {
    const r = await account(`timestamp=${T0}`);
    expect(r.status).toBe(200);
    expect(r.body.balances).toEqual(
      expect.arrayContaining([
        { asset: 'USDT', assetId: 'USDT', assetName: 'USDT', total: '100000', free: '100000', locked: '0' },
        { asset: 'BTC', assetId: 'BTC', assetName: 'BTC', total: '10', free: '10', locked: '0' },
      ]),
    );
  });

  it('rejects a timestamp exactly serverTime + 1000 and accepts serverTime + 999', async () => {
    expect((await account(`timestamp=${T0 + 999}`)).status).toBe(200);
    const r = await account(`timestamp=${T0 + 1000}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
  });

  it('accepts an age of exactly recvWindow and rejects one more millisecond', async () => {
    expect((await account(`timestamp=${T0 - 5000}`)).status).toBe(200);
    expect((await account(`timestamp=${T0 - 5001}`)).body.code).toBe(-1021);
    expect((await account(`timestamp=${T0 - 200}&recvWindow=200`)).status).toBe(200);
    expect((await account(`timestamp=${T0 - 201}&recvWindow=200`)).body.code).toBe(-1021);
  });

  it('follows the clock and its skew', async () => {
    clock.advance(10_000);
    expect((await account(`timestamp=${T0}`)).body.code).toBe(-1021);
    sim.skewClock(-10_000);
    expect((await account(`timestamp=${T0}`)).status).toBe(200);
  });

  it.each(['0', '-5', 'abc', '1.5'])('rejects recvWindow=%s with -1130', async (rw) => {
    const r = await account(`timestamp=${T0}&recvWindow=${rw}`);
    expect(r).toMatchObject({ status: 400, body: { code: -1130 } });
  });

  it('rejects a missing or unknown API key with distinct codes', async () => {
    expect(await account(`timestamp=${T0}`, { apiKey: null })).toMatchObject({ status: 401, body: { code: -1002, msg: 'API-key header is missing.' } });
    expect(await account(`timestamp=${T0}`, { apiKey: 'nope' })).toMatchObject({ status: 401, body: { code: -2015 } });
  });

  it('rejects missing signature, missing timestamp and a non-integer timestamp', async () => {
    expect((await account(`timestamp=${T0}`, { signatureIn: 'none' })).body).toEqual({ code: -1102, msg: "Mandatory parameter 'signature' was not sent." });
    expect((await account('recvWindow=10')).body).toEqual({ code: -1102, msg: "Mandatory parameter 'timestamp' was not sent." });
    expect((await account('timestamp=12x')).body.code).toBe(-1100);
  });

  it('rejects a wrong signature with -1022 and compares hex case-insensitively', async () => {
    const query = `timestamp=${T0}`;
    expect((await account(query, { signature: sign('other', query) })).body).toEqual({ code: -1022, msg: 'Signature for this request is not valid.' });
    expect((await account(query, { signature: sign(sim.secretKey, query).toUpperCase() })).status).toBe(200);
    expect((await account(query, { signature: 'zz' })).body.code).toBe(-1022);
  });

  it('signs totalParams = query immediately followed by body when parameters are split', async () => {
    const query = 'symbol=BTCUSDT&side=BUY&type=LIMIT';
    const body = `timeInForce=GTC&quantity=0.01&price=1000&timestamp=${T0}`;
    const ok = await call(sim, { method: 'POST', path: '/api/v1/spot/order', query, body, signatureIn: 'body' });
    expect(ok.status).toBe(200);
    const withAmp = await call(sim, { method: 'POST', path: '/api/v1/spot/order', query, body, signatureIn: 'body', signature: sign(sim.secretKey, `${query}&${body}`) });
    expect(withAmp.body.code).toBe(-1022);
  });

  it('accepts every parameter in the body, signature first or last', async () => {
    const body = `timestamp=${T0}`;
    expect((await call(sim, { path: '/api/v1/account', body, method: 'POST', signatureIn: 'body' })).status).toBe(405);
    const sig = sign(sim.secretKey, 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000&timestamp=' + T0);
    const r = await call(sim, {
      method: 'POST',
      path: '/openapi/v1/order',
      body: `signature=${sig}&symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000&timestamp=${T0}`,
      signatureIn: 'none',
    });
    expect(r.status).toBe(200);
  });

  it('rejects a duplicated signature parameter', async () => {
    const query = `timestamp=${T0}`;
    const s = sign(sim.secretKey, query);
    const r = await call(sim, { path: '/api/v1/account', query: `${query}&signature=${s}`, signature: s });
    expect(r.body.code).toBe(-1101);
  });

  it('answers unknown paths with 404 and wrong methods with 405', async () => {
    expect(await call(sim, { path: '/api/v1/nothing', signatureIn: 'none' })).toMatchObject({ status: 404, body: { code: -1020 } });
    expect(await call(sim, { method: 'PATCH', path: '/api/v1/time', signatureIn: 'none' })).toMatchObject({ status: 405, body: { code: -1014 } });
  });

  it('serves GET /api/v1/time without authentication', async () => {
    sim.skewClock(250);
    expect(await call(sim, { path: '/api/v1/time', signatureIn: 'none', apiKey: null })).toMatchObject({ status: 200, body: { serverTime: T0 + 250 } });
  });

  it('uses the configured API-key header', async () => {
    const other = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT'], apiKeyHeader: 'X-OTHER-KEY', apiKey: 'k', secretKey: 's' });
    try {
      const query = `timestamp=${T0}`;
      const r = await call(other, { path: '/api/v1/account', query, apiKey: null, headers: { 'X-OTHER-KEY': 'k' } });
      expect(r.status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
