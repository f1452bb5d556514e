import { manualClock, startSimulator, type ManualClock, type Simulator } from '../../lib/simulator';
import { TestSocket, call, createListenKey, settle, signedCall } from './helpers';

const T0 = 1_700_000_000_000;
const ORDER = '/api/v1/spot/order';
/** What `fetch` rejects with when the connection fails (a TypeError of another realm than jest's). */
const NETWORK_ERROR = { name: 'TypeError', message: 'fetch failed' };

describe('startSimulator: loseNextAnswers (processed, but the answer is lost)', () => {
  let sim: Simulator;
  let clock: ManualClock;

  const place = (clientId: string, signal?: AbortSignal) =>
    signedCall(sim, {
      method: 'POST',
      path: ORDER,
      body: `symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000&newClientOrderId=${clientId}`,
      signatureIn: 'body',
      ...(signal === undefined ? {} : { signal }),
    });
  const lookup = (clientId: string) => signedCall(sim, { path: ORDER, query: `origClientOrderId=${clientId}` });
  /** Polls until the order exists (the lost request has been processed). */
  const placedOrder = async (clientId: string): Promise<any> => {
    for (let i = 0; i < 100; i++) {
      const r = await lookup(clientId);
      if (r.status === 200) return r.body;
      await settle(10);
    }
    throw new Error(`order ${clientId} never appeared`);
  };

  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT'] });
  });
  afterEach(() => sim.close());

  it("reset: the order is placed, the client's connection is reset (a network error, no answer)", async () => {
    sim.loseNextAnswers(1, { mode: 'reset' });
    const seen = await place('lost-reset').catch((e: unknown) => e);
    expect(seen).toMatchObject({ ...NETWORK_ERROR, cause: { code: 'ECONNRESET' } }); // the socket was reset
    expect(await placedOrder('lost-reset')).toMatchObject({ status: 'NEW', clientOrderId: 'lost-reset', orderId: '1900000000000000001' });
    expect(sim.sent().faults.lostAnswers).toBe(1);
    expect(sim.sent().privateEvents.map((e) => e.status ?? e.kind)).toEqual(['PENDING_NEW', 'NEW', 'outboundAccountInfo']);
  });

  it('the default mode is reset, and the next requests are answered again', async () => {
    sim.loseNextAnswers(1);
    await expect(place('lost-default')).rejects.toMatchObject(NETWORK_ERROR);
    expect((await place('answered')).status).toBe(200);
    expect((await placedOrder('lost-default')).status).toBe('NEW');
  });

  it('hang: the order is placed and never answered; the client gives up on its own', async () => {
    sim.loseNextAnswers(1, { mode: 'hang' });
    const seen = await place('lost-hang', AbortSignal.timeout(300)).catch((e: unknown) => e);
    expect(seen).toMatchObject({ name: 'TimeoutError' });
    expect((await placedOrder('lost-hang')).status).toBe('NEW');
    expect(sim.sent().faults.lostAnswers).toBe(1);
  });

  it("delay: the order is placed at once, the answer goes out delayMs later on the simulator's clock", async () => {
    sim.loseNextAnswers(1, { mode: 'delay', delayMs: 5000, method: 'POST', path: ORDER });
    let answered = false;
    const pending = place('late').then((r) => {
      answered = true;
      return r;
    });
    const order = await placedOrder('late');
    clock.advance(4999);
    await settle(50);
    expect(answered).toBe(false);
    clock.advance(1);
    const r = await pending;
    expect([r.status, r.body]).toEqual([200, order]);
  });

  it('gateway: the order is placed, the client gets 502 with an HTML body', async () => {
    sim.loseNextAnswers(1, { mode: 'gateway' });
    const r = await place('lost-gateway');
    expect(r.status).toBe(502);
    expect(r.body).toBeUndefined();
    expect(r.text).toContain('<title>502 Bad Gateway</title>');
    expect((await placedOrder('lost-gateway')).status).toBe('NEW');
  });

  it('a cancel whose answer is lost still cancels', async () => {
    const placed = await place('to-cancel');
    sim.loseNextAnswers(1, { mode: 'reset', method: 'DELETE', path: ORDER });
    await expect(signedCall(sim, { method: 'DELETE', path: ORDER, query: `orderId=${placed.body.orderId}` })).rejects.toMatchObject(NETWORK_ERROR);
    expect((await lookup('to-cancel')).body.status).toBe('CANCELED');
  });

  it('only requests of the given method and path lose their answer; n of them, then none', async () => {
    sim.loseNextAnswers(2, { mode: 'gateway', method: 'post', path: ORDER });
    expect((await call(sim, { path: '/api/v1/time', signatureIn: 'none' })).status).toBe(200);
    expect((await lookup('none')).status).toBe(400); // GET on the path: not lost
    expect((await signedCall(sim, { method: 'POST', path: '/api/v1/spot/orderTest', query: 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=1' })).status).toBe(200);
    expect((await place('first')).status).toBe(502);
    expect((await place('second')).status).toBe(502);
    expect((await place('third')).status).toBe(200);
    expect(sim.sent().faults.lostAnswers).toBe(2);
  });

  it('a new call replaces what is queued; n = 0 clears it', async () => {
    sim.loseNextAnswers(3, { mode: 'gateway' });
    sim.loseNextAnswers(0);
    expect((await place('kept')).status).toBe(200);
    expect(sim.sent().faults.lostAnswers).toBe(0);
  });

  it('is served over HTTP: POST /__control/loseNextAnswers', async () => {
    const control = await fetch(`${sim.baseUrl}/__control/loseNextAnswers`, {
      method: 'POST',
      body: JSON.stringify({ n: 1, mode: 'gateway', path: '/api/v1/time' }),
    });
    expect([control.status, await control.json()]).toEqual([200, {}]);
    expect((await call(sim, { path: '/api/v1/time', signatureIn: 'none' })).status).toBe(502);
    expect((await call(sim, { path: '/api/v1/time', signatureIn: 'none' })).status).toBe(200);
  });

  describe('with the private stream down while the order is placed', () => {
    let priv: TestSocket;

    beforeEach(async () => {
      priv = await TestSocket.open(`${sim.privateStreamUrl}/${await createListenKey(sim)}`);
    });
    afterEach(() => priv.close());

    it('stalled: the socket stays open, the events are lost, the answer too; the order exists', async () => {
      sim.stall({ stream: 'private' });
      sim.loseNextAnswers(1, { mode: 'reset', method: 'POST', path: ORDER });
      await expect(place('unseen')).rejects.toMatchObject(NETWORK_ERROR);
      expect((await placedOrder('unseen')).status).toBe('NEW');
      await settle(50);
      expect(priv.frames).toEqual([]);
      expect(sim.sent().privateLog.map((r) => r.sessions)).toEqual([0, 0, 0]); // PENDING_NEW, NEW, the lock: to no session
      sim.resume();
    });

    it('dropped: the socket is gone (1006) before the order is placed, so its events reach nobody', async () => {
      sim.drop({ stream: 'private' });
      expect((await priv.closed).code).toBe(1006);
      sim.loseNextAnswers(1, { mode: 'hang', method: 'POST', path: ORDER });
      await expect(place('unseen', AbortSignal.timeout(200))).rejects.toMatchObject({ name: 'TimeoutError' });
      expect((await placedOrder('unseen')).status).toBe('NEW');
      expect(sim.sent().privateLog.map((r) => r.sessions)).toEqual([0, 0, 0]); // PENDING_NEW, NEW, the lock: to no session
    });
  });
});
