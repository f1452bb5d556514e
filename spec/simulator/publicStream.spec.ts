import { strFromU8, unzipSync } from 'fflate';
import { manualClock, startSimulator, type ManualClock, type Simulator } from '../../lib/simulator';
import { TestSocket } from './helpers';

const T0 = 1_700_000_000_000;

describe('startSimulator: public stream', () => {
  let sim: Simulator;
  let clock: ManualClock;
  let socket: TestSocket;
  const sub = (topic: string, id: number, extra: Record<string, unknown> = {}) =>
    socket.send({ symbol: 'BTCUSDT', topic, event: 'sub', params: { binary: false }, id, ...extra });

  beforeEach(async () => {
    clock = manualClock(T0);
    sim = await startSimulator({ clock, symbols: ['BTCUSDT', 'ETHBTC'], seed: 5 });
    socket = await TestSocket.open(sim.publicStreamUrl);
  });
  afterEach(async () => {
    await socket.close();
    await sim.close();
  });

  it('answers { ping } with { pong: serverTime }', async () => {
    sim.skewClock(7);
    socket.send({ ping: 123 });
    expect(await socket.waitJson(() => true)).toEqual({ pong: T0 + 7 });
    expect(sim.observed().pings).toEqual([{ stream: 'public', connection: 1, ts: 123, at: T0 + 7 }]);
  });

  it('sends the envelope of the specification, f true only on the first message', async () => {
    sub('realtimes', 17);
    const first = await socket.waitJson((m) => m.topic === 'realtimes');
    expect(first).toEqual({
      symbol: 'BTCUSDT',
      symbolName: 'BTCUSDT',
      topic: 'realtimes',
      params: { realtimeInterval: '24h', binary: 'false' },
      data: [expect.objectContaining({ t: T0, s: 'BTCUSDT', sn: 'BTCUSDT', e: 301 })],
      f: true,
      sendTime: T0,
      shared: false,
      id: '17',
    });
    for (const k of ['c', 'h', 'l', 'o', 'v', 'qv', 'm']) expect(typeof first.data[0][k]).toBe('string');
    clock.advance(499);
    clock.advance(1);
    await socket.waitFrames(2);
    expect(socket.json()[1]).toMatchObject({ f: false, sendTime: T0 + 500, id: '17' });
  });

  it.each(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '1w', '1M'])(
    'names kline_%s as topic kline with params.klineType',
    async (interval) => {
      sub(`kline_${interval}`, 1);
      const m = await socket.waitJson((x) => x.topic === 'kline');
      expect(m.params).toEqual({ realtimeInterval: '24h', binary: 'false', klineType: interval });
      expect(Object.keys(m.data[0]).sort()).toEqual(['c', 'h', 'l', 'o', 's', 'sn', 't', 'v']);
      expect(m.data[0].t).toBeLessThanOrEqual(T0);
    },
  );

  it('aligns candles: 1m to the minute, 1w to Monday, 1M to the first of the month (UTC)', async () => {
    sub('kline_1m', 1);
    sub('kline_1w', 2);
    sub('kline_1M', 3);
    await socket.waitFrames(3);
    const [m1, w1, mo] = socket.json();
    expect(m1.data[0].t).toBe(Math.floor(T0 / 60_000) * 60_000);
    expect(new Date(w1.data[0].t).getUTCDay()).toBe(1);
    expect(new Date(mo.data[0].t).toISOString()).toBe('2023-11-01T00:00:00.000Z');
  });

  it('sends the most recent 60 trades first (oldest first, increasing ids beyond 2^53), then only new trades', async () => {
    sub('trade', 2);
    const first = await socket.waitJson((m) => m.topic === 'trade');
    expect(first.data).toHaveLength(60);
    const ids = first.data.map((t: { v: string }) => BigInt(t.v));
    expect(ids.every((id: bigint, i: number) => i === 0 || id > ids[i - 1])).toBe(true);
    expect(ids[0] > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(first.data[0]).toEqual({ v: expect.any(String), t: expect.any(Number), p: expect.any(String), q: expect.any(String), m: expect.any(Boolean) });
    clock.advance(300);
    await socket.waitFrames(2);
    const next = socket.json()[1];
    expect(next.f).toBe(false);
    expect(next.data.length).toBeGreaterThanOrEqual(1);
    expect(next.data.length).toBeLessThanOrEqual(3);
    expect(BigInt(next.data[0].v)).toBeGreaterThan(ids[59]);
    expect(sim.sent().trades.BTCUSDT.count).toBe(60 + next.data.length);
  });

  it('sends a depth book of at most 200 levels per side, bids descending, asks ascending, not crossed', async () => {
    sub('depth', 3);
    const m = await socket.waitJson((x) => x.topic === 'depth');
    const { a, b, e, s, t } = m.data[0];
    expect({ e, s, t }).toEqual({ e: 301, s: 'BTCUSDT', t: T0 });
    expect(a).toHaveLength(200);
    expect(b).toHaveLength(200);
    const px = (levels: string[][]) => levels.map((l) => Number(l[0]));
    expect(px(a)).toEqual([...px(a)].sort((x, y) => x - y));
    expect(px(b)).toEqual([...px(b)].sort((x, y) => y - x));
    expect(px(b)[0]).toBeLessThan(px(a)[0]);
  });

  it('honours depthLevels and periodsMs', async () => {
    const small = await startSimulator({ clock, symbols: ['BTCUSDT'], depthLevels: 5, periodsMs: { depth: 50 } });
    const s = await TestSocket.open(small.publicStreamUrl);
    try {
      s.send({ symbol: 'BTCUSDT', topic: 'depth', event: 'sub', params: { binary: false }, id: 1 });
      await s.waitFrames(1);
      clock.advance(50);
      await s.waitFrames(2);
      const [m1, m2] = s.json();
      expect(m1.data[0].a).toHaveLength(5);
      expect(m2.sendTime - m1.sendTime).toBe(50);
    } finally {
      await s.close();
      await small.close();
    }
  });

  it('sends a zip file (one deflated entry holding the envelope) in a binary frame when params.binary is true', async () => {
    socket.send({ symbol: 'BTCUSDT', topic: 'depth', event: 'sub', params: { binary: true }, id: 4 });
    const [frame] = await socket.waitFrames(1);
    expect(frame).toBeInstanceOf(Uint8Array);
    const files = unzipSync(frame as Uint8Array);
    expect(Object.keys(files)).toEqual(['data.json']);
    const m = JSON.parse(strFromU8(files['data.json']));
    expect(m).toMatchObject({ topic: 'depth', params: { binary: 'true' }, id: '4', f: true });
  });

  it('answers unknown symbols and topics with error frames echoing the id', async () => {
    socket.send({ symbol: 'NOPE', topic: 'trade', event: 'sub', params: { binary: false }, id: 8 });
    socket.send({ symbol: 'BTCUSDT', topic: 'kline_7m', event: 'sub', params: { binary: false }, id: 9 });
    await socket.waitFrames(2);
    expect(socket.json()).toEqual([
      { id: '8', code: '-100010', desc: 'Invalid Symbols!', symbol: 'NOPE', topic: 'trade' },
      { id: '9', code: '-100010', desc: 'Invalid Topic!', symbol: 'BTCUSDT', topic: 'kline_7m' },
    ]);
  });

  it('serves a sub of several pairs (comma-joined) with one message per pair carrying the request id, and cancels them together', async () => {
    socket.send({ symbol: 'BTCUSDT,ETHBTC', topic: 'realtimes', event: 'sub', params: { binary: false }, id: 21 });
    await socket.waitFrames(2);
    expect(socket.json().map((m) => [m.symbol, m.topic, m.id, m.f])).toEqual([
      ['BTCUSDT', 'realtimes', '21', true],
      ['ETHBTC', 'realtimes', '21', true],
    ]);
    socket.send({ symbol: 'BTCUSDT,ETHBTC', topic: 'realtimes', event: 'cancel', params: { binary: false }, id: 22 });
    socket.send({ ping: 1 });
    await socket.waitJson((m) => m.pong !== undefined);
    clock.advance(1000);
    socket.send({ ping: 2 });
    await socket.waitJson((m) => m.pong !== undefined && socket.json().filter((x) => x.pong !== undefined).length === 2);
    expect(socket.json().filter((m) => m.topic === 'realtimes')).toHaveLength(2);
    const o = sim.observed();
    expect(o.subscriptions.map((x) => `${x.symbol} ${x.id}`)).toEqual(['BTCUSDT 21', 'ETHBTC 21']);
    expect(o.cancels.map((x) => `${x.symbol} ${x.id}`)).toEqual(['BTCUSDT 22', 'ETHBTC 22']);
  });

  it.each([
    ['an unknown pair', 'BTCUSDT,NOPE'],
    ['a space after the comma', 'BTCUSDT, ETHBTC'],
    ['an empty pair', 'BTCUSDT,,ETHBTC'],
  ])('refuses a sub of several pairs with %s whole, with the bare rejection (no id, no pair)', async (_, symbol) => {
    socket.send({ symbol, topic: 'trade', event: 'sub', params: { binary: false }, id: 31 });
    socket.send({ ping: 1 });
    await socket.waitJson((m) => m.pong !== undefined);
    clock.advance(1000);
    socket.send({ ping: 2 });
    await socket.waitJson((m) => m.pong !== undefined && socket.json().filter((x) => x.pong !== undefined).length === 2);
    expect(socket.json().filter((m) => m.pong === undefined)).toEqual([{ code: '-100010', desc: 'Invalid Symbols!' }]);
  });

  it('answers invalid JSON and wrong-shaped requests with -100001', async () => {
    socket.send('{nope');
    socket.send({ event: 'sub', id: 3 });
    await socket.waitFrames(2);
    expect(socket.json()).toEqual([
      { code: '-100001', desc: 'Invalid request' },
      { id: '3', code: '-100001', desc: 'Invalid request' },
    ]);
  });

  it('stops a topic on cancel and every topic on cancel_all, and records both', async () => {
    sub('realtimes', 1);
    sub('kline_1m', 2);
    await socket.waitFrames(2);
    socket.send({ symbol: 'BTCUSDT', topic: 'realtimes', event: 'cancel', params: { binary: false }, id: 3 });
    socket.send({ ping: 1 });
    await socket.waitJson((m) => m.pong !== undefined);
    clock.advance(500);
    socket.send({ ping: 2 });
    await socket.waitFrames(socket.frames.length + 1);
    await socket.waitJson((m) => m.pong !== undefined && socket.json().filter((x) => x.pong !== undefined).length === 2);
    expect(socket.json().filter((m) => m.topic === 'realtimes')).toHaveLength(1);
    expect(socket.json().filter((m) => m.topic === 'kline').length).toBeGreaterThan(1);
    socket.send({ symbol: 'BTCUSDT', topic: 'kline_1m', event: 'cancel_all', params: { binary: false }, id: 4 });
    socket.send({ ping: 3 });
    await socket.waitJson((m) => m.pong !== undefined && socket.json().filter((x) => x.pong !== undefined).length === 3);
    const count = socket.frames.length;
    clock.advance(1000);
    socket.send({ ping: 4 });
    await socket.waitFrames(count + 1);
    expect(socket.frames).toHaveLength(count + 1);
    const o = sim.observed();
    expect(o.subscriptions.map((s) => [s.topic, s.id, s.binary])).toEqual([['realtimes', '1', false], ['kline_1m', '2', false]]);
    expect(o.cancels.map((c) => [c.event, c.topic, c.id])).toEqual([['cancel', 'realtimes', '3'], ['cancel_all', 'kline_1m', '4']]);
  });

  it('is deterministic for a seed', async () => {
    const run = async () => {
      const c = manualClock(T0);
      const s = await startSimulator({ clock: c, symbols: ['ETHBTC'], seed: 42 });
      const ws = await TestSocket.open(s.publicStreamUrl);
      ws.send({ symbol: 'ETHBTC', topic: 'depth', event: 'sub', params: { binary: false }, id: 1 });
      ws.send({ symbol: 'ETHBTC', topic: 'trade', event: 'sub', params: { binary: false }, id: 2 });
      await ws.waitFrames(2);
      c.advance(3000);
      await ws.waitFrames(4);
      const frames = [...ws.frames];
      await ws.close();
      await s.close();
      return frames;
    };
    expect(await run()).toEqual(await run());
  });
});
