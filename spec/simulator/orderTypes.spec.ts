import { manualClock, startSimulator, type Simulator } from '../../lib/simulator';
import { formatDecimal, formatFixed, mul, parseDecimal, unit } from '../../lib/decimal/fixed';
import { call, signedCall } from './helpers';

const T0 = 1_700_000_000_000;
const ORDER = '/api/v1/spot/order';
/** Placements go to v1.1, where `quantity` is base and `amount` quote (v1 reads a MARKET BUY's quantity as quote). */
const PLACE = '/api/v1.1/spot/order';
const STEP = unit(4);
const d = (text: string): bigint => parseDecimal(text) ?? -1n;
const f = formatDecimal;

describe('startSimulator: MARKET, IOC, FOK and LIMIT_MAKER orders', () => {
  let sim: Simulator;

  const start = async (balances: Record<string, string> = { USDT: '1000000', BTC: '100' }): Promise<void> => {
    sim = await startSimulator({ clock: manualClock(T0), marketStepMs: 0, symbols: ['BTCUSDT'], balances });
  };
  const place = (params: string) => signedCall(sim, { method: 'POST', path: PLACE, body: `symbol=BTCUSDT&${params}`, signatureIn: 'body' });
  /** The book now: asks and bids as [price, qty] scaled. */
  const book = async (): Promise<{ asks: Array<[bigint, bigint]>; bids: Array<[bigint, bigint]> }> => {
    const r = await call(sim, { path: '/quote/v1/depth', query: 'symbol=BTCUSDT&limit=200', signatureIn: 'none', apiKey: null });
    const levels = (side: Array<[string, string]>): Array<[bigint, bigint]> => side.map(([p, q]) => [d(p), d(q)]);
    return { asks: levels(r.body.a), bids: levels(r.body.b) };
  };
  const level = (levels: Array<[bigint, bigint]>, i: number): [bigint, bigint] => {
    const l = levels[i];
    if (l === undefined) throw new Error(`no level ${i}`);
    return l;
  };
  /** Every private event pushed so far (first copies), as JSON. */
  const events = (): any[] => sim.sent().privateLog.filter((r) => r.copy === 0).map((r) => JSON.parse(r.text));
  const reports = (): any[] => events().filter((e) => e.e === 'executionReport');
  const balances = async (): Promise<Record<string, { free: string; locked: string }>> => {
    const r = await signedCall(sim, { path: '/api/v1/account' });
    return Object.fromEntries(r.body.balances.map((b: any) => [b.asset, { free: b.free, locked: b.locked }]));
  };
  const publicTrades = async (): Promise<number> =>
    (await call(sim, { path: '/quote/v1/trades', query: 'symbol=BTCUSDT&limit=100', signatureIn: 'none', apiKey: null })).body.slice(-1)[0].v;

  afterEach(() => sim.close());

  describe('MARKET', () => {
    beforeEach(() => start());

    it('a BUY by quantity takes the best asks at once (FILLED), o MARKET, f IOC, no price', async () => {
      const { asks } = await book();
      const [p0, q0] = level(asks, 0);
      const [p1] = level(asks, 1);
      const qty = q0 + STEP;
      const r = await place(`side=BUY&type=MARKET&quantity=${f(qty)}`);
      const cost = mul(p0, q0) + mul(p1, STEP);
      expect(r.body).toMatchObject({
        type: 'MARKET',
        timeInForce: 'IOC',
        price: '0',
        origQty: f(qty),
        executedQty: f(qty),
        cumulativeQuoteQty: f(cost),
        status: 'FILLED',
        reqAmount: '0',
        isWorking: false,
      });
      expect(reports().map((e) => [e.X, e.o, e.f, e.l, e.L])).toEqual([
        ['PENDING_NEW', 'MARKET', 'IOC', '0', '0'],
        ['NEW', 'MARKET', 'IOC', '0', '0'],
        ['PARTIALLY_FILLED', 'MARKET', 'IOC', f(q0), f(p0)],
        ['FILLED', 'MARKET', 'IOC', '0.0001', f(p1)],
      ]);
      expect(events()[2]).toMatchObject({ e: 'outboundAccountInfo', B: [{ a: 'USDT', f: f(d('1000000') - cost), l: f(cost) }] });
      expect(await balances()).toMatchObject({ USDT: { free: f(d('1000000') - cost), locked: '0' }, BTC: { free: f(d('100') + qty), locked: '0' } });
    });

    it('a BUY by amount spends it on whole steps best ask first; the dust left is unlocked (FILLED, reqAmount, origQty 0)', async () => {
      const { asks } = await book();
      const [p0, q0] = level(asks, 0);
      const qty = q0 < d('0.0123') ? q0 : d('0.0123');
      const cost = mul(p0, qty);
      const amount = d(formatFixed(cost, 2)) + unit(2); // a cent more than the cost: less than one more step
      const r = await place(`side=BUY&type=MARKET&amount=${f(amount)}`);
      expect(r.body).toMatchObject({ type: 'MARKET', status: 'FILLED', origQty: '0', executedQty: f(qty), cumulativeQuoteQty: f(cost), reqAmount: f(amount) });
      const [pending, created, filled] = reports();
      expect(pending).toMatchObject({ X: 'PENDING_NEW', q: '0', p: '0', reqAmt: f(amount), z: '0', w: false });
      expect(created).toMatchObject({ X: 'NEW', q: '0', p: '0', reqAmt: f(amount), r: '0' });
      expect(filled).toMatchObject({ X: 'FILLED', z: f(qty), Z: f(cost), L: f(p0), r: '0' });
      expect(events()[2].B).toEqual([{ a: 'USDT', f: f(d('1000000') - amount), l: f(amount) }]);
      expect(events().slice(-1)[0].B).toEqual([
        { a: 'BTC', f: f(d('100') + qty), l: '0' },
        { a: 'USDT', f: f(d('1000000') - cost), l: '0' },
      ]);
    });

    it('a SELL by quantity takes the best bids at once', async () => {
      const { bids } = await book();
      const [p0, q0] = level(bids, 0);
      const r = await place(`side=SELL&type=MARKET&quantity=${f(q0)}`);
      expect(r.body).toMatchObject({ type: 'MARKET', side: 'SELL', status: 'FILLED', executedQty: f(q0), avgPrice: f(p0) });
      expect(await balances()).toMatchObject({ BTC: { free: f(d('100') - q0), locked: '0' }, USDT: { free: f(d('1000000') + mul(p0, q0)), locked: '0' } });
    });

    it('a BUY larger than the book fills what there is; the rest is cancelled (PARTIALLY_CANCELED) and unlocked', async () => {
      await sim.close();
      await start({ USDT: '100000000' });
      const { asks } = await book();
      const all = asks.reduce((sum, [, q]) => sum + q, 0n);
      const cost = asks.reduce((sum, [p, q]) => sum + mul(p, q), 0n);
      const r = await place('side=BUY&type=MARKET&amount=99999999');
      expect(r.body).toMatchObject({ status: 'PARTIALLY_CANCELED', executedQty: f(all), cumulativeQuoteQty: f(cost) });
      expect(reports().slice(-1)[0]).toMatchObject({ X: 'PARTIALLY_CANCELED', x: 'NONE', w: false });
      expect(await balances()).toMatchObject({ USDT: { free: f(d('100000000') - cost), locked: '0' }, BTC: { free: f(all), locked: '0' } });
    });

    it('FOK: a MARKET order the book cannot fill whole takes nothing (CANCELED)', async () => {
      const before = await publicTrades();
      const r = await place('side=BUY&type=MARKET&timeInForce=FOK&quantity=1000');
      expect(r.body).toMatchObject({ type: 'MARKET', timeInForce: 'FOK', status: 'CANCELED', executedQty: '0' });
      expect(await publicTrades()).toBe(before);
      expect(await balances()).toMatchObject({ BTC: { free: '100', locked: '0' }, USDT: { free: '1000000', locked: '0' } });
    });

    it('a MARKET SELL needs a quantity; a BUY a quantity or an amount', async () => {
      expect((await place('side=SELL&type=MARKET&amount=100')).body.code).toBe(-1102);
      expect((await place('side=BUY&type=MARKET')).body).toEqual({ code: -1102, msg: "Mandatory parameter 'quantity' was not sent." });
      expect((await place('side=BUY&type=MARKET&amount=0')).body.code).toBe(-1130);
    });

    it('a MARKET order the account cannot fund is REJECTED (-2010) and moves nothing', async () => {
      expect((await place('side=BUY&type=MARKET&amount=2000000')).body.code).toBe(-2010);
      expect((await place('side=SELL&type=MARKET&quantity=101')).body.code).toBe(-2010);
      expect(reports().map((e) => [e.X, e.x])).toEqual([
        ['REJECTED', 'INSUFFICIENT_BALANCE'],
        ['REJECTED', 'INSUFFICIENT_BALANCE'],
      ]);
      expect(await balances()).toMatchObject({ USDT: { free: '1000000', locked: '0' }, BTC: { free: '100', locked: '0' } });
    });
  });

  describe('IOC and FOK limit orders', () => {
    beforeEach(() => start());

    it('IOC fills what crosses now and cancels the rest (PARTIALLY_CANCELED); nothing stays locked', async () => {
      const { asks } = await book();
      const [p0, q0] = level(asks, 0);
      const [p1, q1] = level(asks, 1);
      const qty = q0 + q1 + STEP;
      const r = await place(`side=BUY&type=LIMIT&timeInForce=IOC&price=${f(p1)}&quantity=${f(qty)}`);
      const cost = mul(p0, q0) + mul(p1, q1);
      expect(r.body).toMatchObject({ type: 'LIMIT', timeInForce: 'IOC', status: 'PARTIALLY_CANCELED', executedQty: f(q0 + q1), cumulativeQuoteQty: f(cost) });
      expect(reports().map((e) => [e.X, e.f, e.r])).toEqual([
        ['PENDING_NEW', 'IOC', f(qty)],
        ['NEW', 'IOC', f(qty)],
        ['PARTIALLY_FILLED', 'IOC', f(q1 + STEP)],
        ['PARTIALLY_FILLED', 'IOC', '0.0001'],
        ['PARTIALLY_CANCELED', 'IOC', '0.0001'],
      ]);
      expect(events().slice(-1)[0]).toMatchObject({ e: 'outboundAccountInfo', B: [{ a: 'USDT', f: f(d('1000000') - cost), l: '0' }] });
      expect((await signedCall(sim, { path: '/api/v1/spot/openOrders' })).body).toEqual([]);
    });

    it('IOC that crosses nothing is CANCELED with nothing filled', async () => {
      const r = await place('side=BUY&type=LIMIT&timeInForce=IOC&price=1000&quantity=1');
      expect(r.body).toMatchObject({ status: 'CANCELED', executedQty: '0' });
      expect(await balances()).toMatchObject({ USDT: { free: '1000000', locked: '0' } });
    });

    it('FOK fills all now or nothing: one step short of the book within its price, CANCELED; exactly the book, FILLED', async () => {
      const { asks } = await book();
      const [, q0] = level(asks, 0);
      const [p1, q1] = level(asks, 1);
      const before = await publicTrades();
      const refused = await place(`side=BUY&type=LIMIT&timeInForce=FOK&price=${f(p1)}&quantity=${f(q0 + q1 + STEP)}`);
      expect(refused.body).toMatchObject({ timeInForce: 'FOK', status: 'CANCELED', executedQty: '0' });
      expect(reports().map((e) => [e.X, e.f, e.z])).toEqual([
        ['PENDING_NEW', 'FOK', '0'],
        ['NEW', 'FOK', '0'],
        ['CANCELED', 'FOK', '0'],
      ]);
      expect(await publicTrades()).toBe(before);
      expect(await book()).toEqual({ asks, bids: expect.any(Array) });
      const filled = await place(`side=BUY&type=LIMIT&timeInForce=FOK&price=${f(p1)}&quantity=${f(q0 + q1)}`);
      expect(filled.body).toMatchObject({ timeInForce: 'FOK', status: 'FILLED', executedQty: f(q0 + q1) });
    });
  });

  describe('LIMIT_MAKER', () => {
    beforeEach(() => start());

    it('rests when it would not take, and is refused (-2010, an executionReport REJECTED) when it would', async () => {
      const { asks } = await book();
      const [p0] = level(asks, 0);
      const refused = await place(`side=BUY&type=LIMIT_MAKER&price=${f(p0)}&quantity=0.01`);
      expect([refused.status, refused.body]).toEqual([400, { code: -2010, msg: 'Order would immediately match and take.' }]);
      expect(reports()).toEqual([expect.objectContaining({ X: 'REJECTED', o: 'LIMIT_MAKER', f: 'GTC' })]);
      const rests = await place(`side=BUY&type=LIMIT_MAKER&price=${f(p0 - unit(2))}&quantity=0.01`);
      expect(rests.body).toMatchObject({ type: 'LIMIT_MAKER', timeInForce: 'GTC', status: 'NEW', isWorking: true });
      sim.injectTrade({ symbol: 'BTCUSDT', price: f(p0 - unit(2)), quantity: '1' });
      expect(reports().slice(-1)[0]).toMatchObject({ X: 'FILLED', o: 'LIMIT_MAKER', L: f(p0 - unit(2)) });
    });
  });

  it('executionReport o / f and the REST type / timeInForce show each order as placed', async () => {
    await start();
    const kinds = [
      'side=BUY&type=LIMIT&price=1000&quantity=0.01',
      'side=BUY&type=LIMIT&timeInForce=IOC&price=1000&quantity=0.01',
      'side=BUY&type=LIMIT&timeInForce=FOK&price=1000&quantity=0.01',
      'side=BUY&type=LIMIT_MAKER&price=1000&quantity=0.01',
      'side=BUY&type=MARKET&quantity=0.01',
      'side=BUY&type=MARKET&timeInForce=FOK&amount=100',
    ];
    const answers = [];
    for (const k of kinds) answers.push((await place(k)).body);
    const expected = [
      ['LIMIT', 'GTC'],
      ['LIMIT', 'IOC'],
      ['LIMIT', 'FOK'],
      ['LIMIT_MAKER', 'GTC'],
      ['MARKET', 'IOC'],
      ['MARKET', 'FOK'],
    ];
    expect(answers.map((a) => [a.type, a.timeInForce])).toEqual(expected);
    expect(reports().filter((e) => e.X === 'NEW').map((e) => [e.o, e.f])).toEqual(expected);
    const queried = await signedCall(sim, { path: ORDER, query: `orderId=${answers[4].orderId}` });
    expect(queried.body).toMatchObject({ type: 'MARKET', timeInForce: 'IOC' });
  });
});
