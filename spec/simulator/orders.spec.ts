import { manualClock, startSimulator, type ManualClock, type Simulator } from '../../lib/simulator';
import { TestSocket, createListenKey, signedCall } from './helpers';

const T0 = 1_700_000_000_000;

describe('startSimulator: orders and balances', () => {
  let sim: Simulator;
  let clock: ManualClock;
  let priv: TestSocket;
  let pub: TestSocket;

  const order = (params: string) => signedCall(sim, { method: 'POST', path: '/api/v1/spot/order', body: params, signatureIn: 'body' });
  const cancel = (orderId: string) => signedCall(sim, { method: 'DELETE', path: '/api/v1/spot/order', query: `orderId=${orderId}` });
  const events = (): any[] => priv.json().flat().filter((e: any) => e.e !== undefined);
  const waitEvents = async (n: number): Promise<any[]> => {
    for (let i = 0; i < 200 && events().length < n; i++) await priv.waitFrames(priv.frames.length + 1, 100).catch(() => undefined);
    return events();
  };
  const bestAsk = async (): Promise<string> => {
    pub.send({ symbol: 'BTCUSDT', topic: 'depth', event: 'sub', params: { binary: false }, id: 1 });
    const m = await pub.waitJson((x) => x.topic === 'depth');
    return m.data[0].a[0] as string;
  };
  const balances = async (): Promise<Record<string, { free: string; locked: string }>> => {
    const r = await signedCall(sim, { path: '/api/v1/account' });
    return Object.fromEntries(r.body.balances.map((b: any) => [b.asset, { free: b.free, locked: b.locked }]));
  };

  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT', 'ETHBTC'], seed: 9 });
    priv = await TestSocket.open(`${sim.privateStreamUrl}/${await createListenKey(sim)}`);
    pub = await TestSocket.open(sim.publicStreamUrl);
  });
  afterEach(async () => {
    await priv.close();
    await pub.close();
    await sim.close();
  });

  it('fills a BUY at or above the best ask: PENDING_NEW, NEW, lock, FILLED, ticket, settle (as the venue); response with text ids', async () => {
    const [askPrice] = await bestAsk();
    const r = await order(`symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=31000&newClientOrderId=abc`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      accountId: '1500000000000000001',
      exchangeId: '301',
      symbol: 'BTCUSDT',
      symbolName: 'BTCUSDT',
      clientOrderId: 'abc',
      orderId: '1900000000000000001',
      price: '31000',
      origQty: '0.01',
      executedQty: '0.01',
      cumulativeQuoteQty: expect.stringMatching(/^\d+(\.\d+)?$/),
      avgPrice: expect.stringMatching(/^\d+(\.\d+)?$/),
      status: 'FILLED',
      timeInForce: 'GTC',
      type: 'LIMIT',
      side: 'BUY',
      stopPrice: '0',
      icebergQty: '0',
      time: String(T0),
      updateTime: String(T0),
      isWorking: false,
      reqAmount: '0',
    });
    const ev = await waitEvents(6);
    expect(ev.map((e) => [e.e, e.X])).toEqual([
      ['executionReport', 'PENDING_NEW'],
      ['executionReport', 'NEW'],
      ['outboundAccountInfo', undefined],
      ['executionReport', 'FILLED'],
      ['ticketInfo', undefined],
      ['outboundAccountInfo', undefined],
    ]);
    expect(ev[0]).toMatchObject({ c: 'abc', q: '0.01', z: '0', w: false, E: T0 });
    expect(ev[1]).toMatchObject({ c: 'abc', z: '0', w: true, E: T0 });
    expect(ev[2].B).toEqual([{ a: 'USDT', f: '99690', l: '310' }]);
    expect(ev[3]).toMatchObject({ l: '0.01', z: '0.01', r: '0', L: String(Number(askPrice)), c: 'abc', w: false, E: T0 });
    expect(ev[4]).toMatchObject({ e: 'ticketInfo', o: '1900000000000000001', T: '1950000000000000001', m: false, S: 'BUY', E: String(T0), p: String(Number(askPrice)) });
    const cost = (BigInt(Math.round(Number(askPrice) * 100)) * 1n) / 1n; // cents per BTC
    const spent = Number(cost) / 100 / 100; // 0.01 BTC
    expect(ev[5].B).toEqual([{ a: 'BTC', f: '10.01', l: '0' }, { a: 'USDT', f: String(100000 - spent), l: '0' }]);
    expect(await balances()).toMatchObject({ BTC: { free: '10.01', locked: '0' }, USDT: { free: String(100000 - spent), locked: '0' } });
  });

  it('writes order ids beyond 2^53 as raw JSON number literals in executionReport', async () => {
    await order('symbol=BTCUSDT&side=SELL&type=LIMIT&quantity=0.5&price=50000');
    await waitEvents(1);
    const raw = priv.frames[0] as string;
    expect(raw).toContain('"i":1900000000000000001,');
    expect(raw).toMatch(/"c":\d{16,},/);
  });

  it('partially fills, rests, then cancels as PARTIALLY_CANCELED and unlocks the rest', async () => {
    const [askPrice, askQty] = await bestAsk();
    const r = await order(`symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=3&price=${askPrice}`);
    expect(r.body).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: String(Number(askQty)) });
    const ev = await waitEvents(6);
    expect(ev.slice(0, 4).map((e) => e.X)).toEqual(['PENDING_NEW', 'NEW', undefined, 'PARTIALLY_FILLED']);
    expect(ev[3]).toMatchObject({ X: 'PARTIALLY_FILLED', w: true });
    const c = await cancel(r.body.orderId);
    expect(c.body).toMatchObject({ status: 'PARTIALLY_CANCELED' });
    const after = await waitEvents(9);
    expect(after[6]).toMatchObject({ e: 'executionReport', X: 'PENDING_CANCEL', x: 'NONE', w: true, z: String(Number(askQty)) });
    expect(after[7]).toMatchObject({ e: 'executionReport', X: 'PARTIALLY_CANCELED', x: 'USER_CANCEL', w: false });
    expect(after[8].B[0]).toMatchObject({ a: 'USDT', l: '0' });
    expect((await balances()).USDT.locked).toBe('0');
  });

  it('rests an order away from the market and fills it (maker) when the market trades through its price', async () => {
    const r = await order('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.1&price=20000');
    expect(r.body.status).toBe('NEW');
    expect(await balances()).toMatchObject({ USDT: { free: '98000', locked: '2000' } });
    clock.advance(1000);
    sim.injectTrade({ symbol: 'BTCUSDT', price: '19999', quantity: '0.04' });
    sim.injectTrade({ symbol: 'BTCUSDT', price: '19990', quantity: '5' });
    const ev = await waitEvents(9);
    expect(ev.filter((e) => e.e === 'executionReport').map((e) => [e.X, e.l, e.L])).toEqual([
      ['PENDING_NEW', '0', '0'],
      ['NEW', '0', '0'],
      ['PARTIALLY_FILLED', '0.04', '20000'],
      ['FILLED', '0.06', '20000'],
    ]);
    expect(ev.filter((e) => e.e === 'ticketInfo').map((e) => e.m)).toEqual([true, true]);
    expect(await balances()).toMatchObject({ USDT: { free: '98000', locked: '0' }, BTC: { free: '10.1' } });
  });

  it('cancels a NEW order: PENDING_CANCEL then CANCELED (as the venue); unknown and closed orders are rejected', async () => {
    const r = await order('symbol=ETHBTC&side=SELL&type=LIMIT&quantity=2&price=1');
    expect((await balances()).ETH).toEqual({ free: '98', locked: '2' });
    expect((await cancel(r.body.orderId)).body.status).toBe('CANCELED');
    expect((await balances()).ETH).toEqual({ free: '100', locked: '0' });
    expect(await cancel(r.body.orderId)).toMatchObject({ status: 400, body: { code: -1142, msg: 'Order has been canceled' } });
    expect(await cancel('1')).toMatchObject({ status: 400, body: { code: -2013, msg: 'Order does not exist.' } });
    const ev = await waitEvents(6);
    expect(ev.map((e) => e.X)).toEqual(['PENDING_NEW', 'NEW', undefined, 'PENDING_CANCEL', 'CANCELED', undefined]);
    expect(ev[4]).toMatchObject({ X: 'CANCELED', x: 'USER_CANCEL' });
  });

  it('rejects an order the account cannot fund: HTTP -2010 and an executionReport REJECTED', async () => {
    const r = await order('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=100&price=30000');
    expect(r).toMatchObject({ status: 400, body: { code: -2010 } });
    const [ev] = await waitEvents(1);
    expect(ev).toMatchObject({ e: 'executionReport', X: 'REJECTED', q: '100' });
    expect((await balances()).USDT).toEqual({ free: '100000', locked: '0' });
  });

  it('validates order parameters', async () => {
    expect((await order('side=BUY&type=LIMIT&quantity=1&price=1')).body.code).toBe(-1102);
    expect((await order('symbol=XXXUSDT&side=BUY&type=LIMIT&quantity=1&price=1')).body.code).toBe(-1121);
    expect((await order('symbol=BTCUSDT&side=UP&type=LIMIT&quantity=1&price=1')).body.code).toBe(-1117);
    expect((await order('symbol=BTCUSDT&side=BUY&type=STOP_LIMIT&quantity=1&price=1')).body).toEqual({ code: -1116, msg: 'Invalid orderType.' });
    expect((await order('symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTD&quantity=1&price=1')).body).toEqual({ code: -1115, msg: 'Invalid timeInForce.' });
    expect((await order('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1e3&price=1')).body).toEqual({ code: -1130, msg: "Invalid data sent for parameter 'quantity'." });
    expect((await order('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=-1')).body.code).toBe(-1130);
    expect((await order('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=0.0000000001')).body.code).toBe(-1134);
  });

  it('puts the events of one operation in one frame with batchPrivateEvents', async () => {
    const batched = await startSimulator({ clock, marketStepMs: 0, symbols: ['BTCUSDT'], batchPrivateEvents: true });
    const s = await TestSocket.open(`${batched.privateStreamUrl}/${await createListenKey(batched)}`);
    try {
      await signedCall(batched, { method: 'POST', path: '/api/v1/spot/order', query: 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=40000' });
      const [frame] = await s.waitFrames(1);
      expect(JSON.parse(frame as string).map((e: any) => e.e)).toEqual([
        'executionReport',
        'executionReport',
        'outboundAccountInfo',
        'executionReport',
        'ticketInfo',
        'outboundAccountInfo',
      ]);
    } finally {
      await s.close();
      await batched.close();
    }
  });

  it('reports sent private events by kind with E and ids', async () => {
    await order('symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=40000');
    await waitEvents(6);
    const sent = sim.sent();
    expect(sent.privateByKind).toEqual({ executionReport: 3, ticketInfo: 1, outboundAccountInfo: 2, other: 0 });
    expect(sent.privateEvents[0]).toEqual({ kind: 'executionReport', E: T0, id: '1900000000000000001', status: 'PENDING_NEW', sessions: 1 });
    expect(sent.privateEvents[1]).toEqual({ kind: 'executionReport', E: T0, id: '1900000000000000001', status: 'NEW', sessions: 1 });
  });
});
