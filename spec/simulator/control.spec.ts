import { Account } from '../../lib/simulator/orders/account';
import { manualClock } from '../../lib/simulator/core/clock';
import type { SimContext } from '../../lib/simulator/core/context';
import { createControl } from '../../lib/simulator/control/control';
import { parseDecimal } from '../../lib/decimal/fixed';
import { Faults } from '../../lib/simulator/chaos/faults';
import { ListenKeys } from '../../lib/simulator/streams/listenKeys';
import { idSource, SymbolMarket } from '../../lib/simulator/market/market';
import { Matching } from '../../lib/simulator/orders/matching';
import { Peers } from '../../lib/simulator/streams/peers';
import type { PrivateEventOut } from '../../lib/simulator/streams/privateStream';
import { mulberry32 } from '../../lib/simulator/core/random';
import { Recorder } from '../../lib/simulator/chaos/recorder';
import { symbolInfo, type SymbolInfo } from '../../lib/simulator/market/symbols';
import { Timers } from '../../lib/simulator/core/timers';
import { TwoFactor } from '../../lib/simulator/http/twoFactor';
import { startWsPairs, type WsPairs } from '../helpers/wsPairs';

const T0 = 1_700_000_000_000;
const d = (text: string): bigint => parseDecimal(text) ?? -1n;

function setup() {
  const clock = manualClock(T0);
  const faults = new Faults();
  const timers = new Timers(clock);
  const serverTime = (): number => clock.now() + faults.skewMs;
  const markets = new Map([['BTCUSDT', new SymbolMarket(symbolInfo('BTCUSDT') as SymbolInfo, 1, idSource(1n), T0)]]);
  const ctx: SimContext = {
    clock,
    timers,
    serverTime,
    markets,
    faults,
    peers: new Peers(faults),
    recorder: new Recorder(),
    periods: { kline: 300, realtimes: 500, trade: 300, depth: 300 },
    depthLevels: 200,
    binaryContainer: 'zip',
  };
  const ended: string[] = [];
  const listenKeys = new ListenKeys(timers, serverTime, mulberry32(1), 3_600_000, (key, why) => ended.push(`${why} ${key}`));
  const twoFactor = new TwoFactor(false, serverTime, mulberry32(2), 30_000);
  const published: PrivateEventOut[] = [];
  const matching = new Matching({
    markets,
    account: new Account({ USDT: '100000', BTC: '10' }),
    now: serverTime,
    publish: (events) => published.push(...events),
    orderIds: idSource(100n),
    ticketIds: idSource(200n),
    matchIds: idSource(300n),
    accountId: 'acc',
  });
  let steps = 0;
  const control = createControl({ ctx, listenKeys, twoFactor, matching, step: () => void (steps += 1), chaosSeed: 9 });
  return { control, ctx, clock, listenKeys, twoFactor, matching, published, ended, steps: () => steps };
}

describe('createControl', () => {
  let pairs: WsPairs;
  beforeEach(async () => {
    pairs = await startWsPairs();
  });
  afterEach(() => pairs.close());

  /** Adds a real socket pair to the simulator's peers. */
  const connect = async (ctx: SimContext, stream: 'public' | 'private') => {
    const { server, client } = await pairs.connect();
    return { peer: ctx.peers.add(stream, server), client };
  };

  it('drop: without a code terminates the stream\'s sockets, with one closes them with it; counted apart', async () => {
    const { control, ctx } = setup();
    const pub = await connect(ctx, 'public');
    const priv = await connect(ctx, 'private');
    control.drop({ stream: 'public' });
    expect((await pub.client.closed).code).toBe(1006);
    expect(priv.peer.open).toBe(true);
    control.drop({ stream: 'private', code: 4000 });
    expect(await priv.client.closed).toEqual({ code: 4000, reason: 'dropped by simulator' });
    expect([ctx.faults.counts.drop, ctx.faults.counts.close]).toEqual([1, 1]);
  });

  it('drop leaves half-open sockets alone (nothing reaches through them)', async () => {
    const { control, ctx } = setup();
    const cut = await connect(ctx, 'public');
    cut.peer.blackHole();
    control.drop({ stream: 'all', code: 1012, reason: 'restart' });
    expect(cut.peer.open).toBe(true);
  });

  it('halfOpen cuts the open sockets of the stream, then drops them after durationMs on the clock', async () => {
    const { control, ctx, clock } = setup();
    const a = await connect(ctx, 'public');
    const b = await connect(ctx, 'public');
    const other = await connect(ctx, 'private');
    b.peer.blackHole();
    expect(control.halfOpen({ stream: 'public', durationMs: 1000 })).toBe(1);
    expect([a.peer.blackHoled, other.peer.blackHoled]).toEqual([true, false]);
    clock.advance(999);
    expect(a.peer.open).toBe(true);
    clock.advance(1);
    expect((await a.client.closed).code).toBe(1006);
    expect(other.peer.open).toBe(true);
    expect(ctx.faults.counts.halfOpen).toBe(1);
  });

  it('stall and resume: the stream stops, and frames held meanwhile are handled at resume', async () => {
    const { control, ctx } = setup();
    const { peer } = await connect(ctx, 'private');
    const handled: string[] = [];
    control.stall({ stream: 'private', inbound: 'hold' });
    expect(peer.stalled).toBe(true);
    peer.receive(() => handled.push('held'));
    expect(handled).toEqual([]);
    control.resume();
    expect(handled).toEqual(['held']);
    expect(peer.stalled).toBe(false);
    expect(ctx.faults.counts.stall).toBe(1);
  });

  it('sendRaw writes text and binary frames to the open sockets of the stream, not half-open ones', async () => {
    const { control, ctx } = setup();
    const pub = await connect(ctx, 'public');
    const cut = await connect(ctx, 'public');
    cut.peer.blackHole();
    control.sendRaw({ stream: 'public', data: 'raw text' });
    control.sendRaw({ stream: 'all', data: Uint8Array.of(0xff) });
    expect(await pub.client.nextFrames(2)).toEqual(['raw text', Uint8Array.of(0xff)]);
    cut.peer.ws.terminate();
    await cut.client.closed;
    expect(cut.client.frames).toEqual([]);
    expect(ctx.faults.counts.rawFrame).toBe(2);
  });

  it('expireListenKey ends the active key (counted), false when there is none', () => {
    const { control, listenKeys, ended, ctx } = setup();
    expect(control.expireListenKey()).toBe(false);
    const key = listenKeys.create();
    expect(control.expireListenKey()).toBe(true);
    expect(ended).toEqual([`expired ${key}`]);
    expect(ctx.faults.counts.listenKeyExpiry).toBe(1);
  });

  it('skewClock moves server time; privateChaos and rejectNextRequests set the faults', () => {
    const { control, ctx } = setup();
    control.skewClock(-2500);
    expect(ctx.serverTime()).toBe(T0 - 2500);
    expect(ctx.faults.counts.clockSkew).toBe(1);
    control.privateChaos({ duplicateProbability: 2, reorderWindowMs: 50 });
    expect([ctx.faults.duplicateProbability, ctx.faults.reorderWindowMs, ctx.faults.counts.privateChaos]).toEqual([1, 50, 1]);
    control.rejectNextRequests(1, { status: 503 });
    expect(ctx.faults.takeRejection()).toEqual({ status: 503, code: -1003, msg: 'Request rejected by fault injection.' });
    expect(ctx.faults.takeRejection()).toBeUndefined();
  });

  it('setTwoFactor and issueTwoFactorToken drive the account\'s 2FA', () => {
    const { control, twoFactor } = setup();
    control.setTwoFactor(true);
    expect(twoFactor.enabled).toBe(true);
    const token = control.issueTwoFactorToken();
    expect(twoFactor.consume(token)).toBe(true);
    expect(twoFactor.consume(token)).toBe(false);
  });

  it('injectTrade records a trade at server time, moves the market there, and fills resting orders it reaches', () => {
    const { control, ctx, matching, published } = setup();
    matching.place(new Map(Object.entries({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '25000' })));
    published.splice(0);
    control.skewClock(500);
    control.injectTrade({ symbol: 'BTCUSDT', price: '24999.5', quantity: '3' });
    const market = ctx.markets.get('BTCUSDT') as SymbolMarket;
    expect(market.trades[market.trades.length - 1]).toMatchObject({ price: d('24999.5'), qty: d('3'), t: T0 + 500, m: false });
    expect(market.best().bid).toBe(d('24999.49'));
    expect(published.filter((e) => e.kind === 'executionReport').map((e) => e.status)).toEqual(['FILLED']);
  });

  it.each([
    [{ symbol: 'NOPEUSDT', price: '1' }],
    [{ symbol: 'BTCUSDT', price: '0' }],
    [{ symbol: 'BTCUSDT', price: 'abc' }],
    [{ symbol: 'BTCUSDT', price: '1', quantity: '-1' }],
  ])('injectTrade refuses %j', (options) => {
    const { control, ctx } = setup();
    const before = (ctx.markets.get('BTCUSDT') as SymbolMarket).trades.length;
    expect(() => control.injectTrade(options)).toThrow('injectTrade needs a known symbol and positive decimal price and quantity');
    expect((ctx.markets.get('BTCUSDT') as SymbolMarket).trades.length).toBe(before);
  });

  it('step runs the market step n times (default once)', () => {
    const { control, steps } = setup();
    control.step();
    control.step(4);
    control.step(0);
    expect(steps()).toBe(5);
  });

  it('observed reports what the recorder saw and the peers open and accepted, as a copy', async () => {
    const { control, ctx } = setup();
    await connect(ctx, 'public');
    const gone = await connect(ctx, 'private');
    ctx.recorder.pings.push({ stream: 'public', connection: 1, ts: 5, at: 6 });
    gone.client.ws.close();
    await new Promise<void>((resolve) => gone.peer.ws.once('close', () => resolve()));
    const seen = control.observed();
    ctx.recorder.pings.push({ stream: 'public', connection: 1, ts: 7, at: 8 });
    expect(seen).toEqual({
      subscriptions: [],
      cancels: [],
      pings: [{ stream: 'public', connection: 1, ts: 5, at: 6 }],
      pongs: [],
      connections: { public: 1, private: 0 },
      accepted: { public: 1, private: 1 },
    });
  });

  it('sent reports the recorder with the fault counts; traffic the recorded traffic', () => {
    const { control, ctx } = setup();
    control.skewClock(1);
    ctx.recorder.publicMessage();
    ctx.recorder.traffic.upgrades.push('/quote/ws/v1');
    expect(control.sent()).toMatchObject({ publicMessages: 1, faults: { clockSkew: 1 } });
    expect(control.traffic().upgrades).toEqual(['/quote/ws/v1']);
  });

  it('startChaos runs a schedule of faults on the simulator clock through this control, until stopped', () => {
    const { control, clock, ctx } = setup();
    const chaos = control.startChaos({ kinds: ['clockSkew'], meanIntervalMs: 100 });
    clock.advance(2000);
    chaos.stop();
    const injected = chaos.injected().length;
    expect(injected).toBeGreaterThan(0);
    expect(ctx.faults.counts.clockSkew).toBe(injected);
    clock.advance(2000);
    expect(chaos.injected()).toHaveLength(injected);
  });
});
