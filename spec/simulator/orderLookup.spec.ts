import { manualClock, startSimulator, type Simulator } from '../../lib/simulator';
import { ClientOrderIds } from '../../lib/simulator/orders/clientOrderIds';
import type { Order } from '../../lib/simulator/orders/order';
import { signedCall } from './helpers';

const T0 = 1_700_000_000_000;
const ORDER = '/api/v1/spot/order';

describe('startSimulator: orders by id and by client order id', () => {
  let sim: Simulator;

  const place = (params: string) => signedCall(sim, { method: 'POST', path: ORDER, body: params, signatureIn: 'body' });
  const get = (query: string) => signedCall(sim, { path: ORDER, query });
  const del = (query: string) => signedCall(sim, { method: 'DELETE', path: ORDER, query });

  beforeEach(async () => {
    sim = await startSimulator({ clock: manualClock(T0), marketStepMs: 0, symbols: ['BTCUSDT'] });
  });
  afterEach(() => sim.close());

  it('GET finds an order by orderId, origClientOrderId (HashKey) or clientOrderId (older clients); every answer carries clientOrderId', async () => {
    const placed = await place('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000&newClientOrderId=look-1');
    expect(placed.body).toMatchObject({ clientOrderId: 'look-1', status: 'NEW' });
    const answers = await Promise.all([`orderId=${placed.body.orderId}`, 'origClientOrderId=look-1', 'clientOrderId=look-1'].map(get));
    for (const a of answers) expect([a.status, a.body]).toEqual([200, placed.body]);
  });

  it('DELETE cancels by clientOrderId or origClientOrderId', async () => {
    await place('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000&newClientOrderId=del-1');
    await place('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1001&newClientOrderId=del-2');
    expect((await del('clientOrderId=del-1')).body).toMatchObject({ clientOrderId: 'del-1', status: 'CANCELED' });
    expect((await del('origClientOrderId=del-2')).body).toMatchObject({ clientOrderId: 'del-2', status: 'CANCELED' });
    expect((await get('clientOrderId=del-2')).body.status).toBe('CANCELED');
  });

  it('an order the simulator does not know answers 400 -2013 "Order does not exist." on GET and on DELETE', async () => {
    const unknown = { status: 400, body: { code: -2013, msg: 'Order does not exist.' } };
    for (const query of ['orderId=1900000000000000999', 'origClientOrderId=nope', 'clientOrderId=nope']) {
      expect(await get(query)).toMatchObject(unknown);
      expect(await del(query)).toMatchObject(unknown);
    }
    expect(await get('')).toMatchObject({ status: 400, body: { code: -1102, msg: "Mandatory parameter 'orderId' was not sent." } });
  });

  it('orderId wins over a client order id', async () => {
    const a = await place('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000&newClientOrderId=a');
    await place('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000&newClientOrderId=b');
    expect((await get(`orderId=${a.body.orderId}&origClientOrderId=b`)).body.clientOrderId).toBe('a');
  });

  it('a closed order cannot be cancelled: -1139 when it was filled, -1142 when it was cancelled', async () => {
    const filled = await place('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=40000&newClientOrderId=f');
    expect(filled.body.status).toBe('FILLED');
    expect(await del('clientOrderId=f')).toMatchObject({ status: 400, body: { code: -1139, msg: 'Order has been filled.' } });
    await place('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=1000&newClientOrderId=c');
    await del('clientOrderId=c');
    expect(await del('clientOrderId=c')).toMatchObject({ status: 400, body: { code: -1142, msg: 'Order has been canceled' } });
  });
});

describe('ClientOrderIds', () => {
  const order = (clientOrderId: string): Order => ({ clientOrderId }) as Order;

  it('remembers the last `capacity` client ids and forgets the oldest first', () => {
    const ids = new ClientOrderIds(2);
    const [a, b, c] = [order('a'), order('b'), order('c')];
    ids.add(a);
    ids.add(b);
    expect([ids.get('a'), ids.get('b')]).toEqual([a, b]);
    ids.add(c);
    expect([ids.get('a'), ids.get('b'), ids.get('c')]).toEqual([undefined, b, c]);
  });
});
