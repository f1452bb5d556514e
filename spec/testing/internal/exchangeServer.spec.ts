import { strFromU8, unzipSync } from 'fflate';
import { TestScheduler } from 'rxjs/testing';
import type { SentFrame } from '../../../lib/testing/sentFrame';
import { testListenKeys, type TestListenKeys } from '../../../lib/testing/testListenKeys';
import { ExchangeServer, type ServerSettings } from '../../../lib/testing/internal/exchangeServer';
import { ExchangeSocket } from '../../../lib/testing/internal/exchangeSocket';
import { RunLimit } from '../../../lib/testing/internal/runLimit';

const PUBLIC = 'ws://test/quote/ws/v1';

/** A server on a virtual clock (flushed by hand) and sockets whose client side records what reaches it. */
function setup(settings: Partial<ServerSettings> = {}) {
  const scheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  const keys: TestListenKeys = testListenKeys({ scheduler });
  const server = new ExchangeServer(
    { scheduler, openDelayMs: 5, answerSubscriptions: true, answerPings: true, serverTimeOffsetMs: 0, matchSubscriptions: true, ...settings },
    () => keys,
    new RunLimit(scheduler, Number.POSITIVE_INFINITY, () => ''),
  );
  const socket = (url = PUBLIC) => {
    const s = new ExchangeSocket(url, scheduler, server);
    const received: unknown[] = [];
    const closes: Array<{ code: number; reason: string; wasClean: boolean }> = [];
    s.onmessage = (e) => received.push(e.data);
    s.onclose = (e) => closes.push({ code: e.code, reason: e.reason, wasClean: e.wasClean });
    return { s, received, closes, json: () => received.map((r) => (typeof r === 'string' ? (JSON.parse(r) as unknown) : r)) };
  };
  /** Runs every action due up to `ms` from now (and no later one). */
  const advance = (ms = 0) => {
    const target = scheduler.now() + ms;
    scheduler.schedule(() => undefined, ms);
    scheduler.maxFrames = target;
    scheduler.flush();
    expect(scheduler.now()).toBe(target);
  };
  return { scheduler, server, keys, socket, advance };
}

const sub = (symbol: string, topic: string, id: string, params: object = {}) => JSON.stringify({ symbol, topic, event: 'sub', params, id });
const unzip = (bytes: unknown): unknown => JSON.parse(strFromU8(Object.values(unzipSync(bytes as Uint8Array))[0] as Uint8Array));

describe('ExchangeServer', () => {
  it('completes the handshake openDelayMs after creation, numbering connections per stream', () => {
    const { server, socket, advance } = setup();
    const a = socket();
    const p = socket('ws://test/api/v1/ws/k');
    advance(4);
    expect(a.s.readyState).toBe(0);
    advance(1);
    const b = socket();
    advance(5);
    expect([a.s.readyState, a.s.connection, b.s.connection, p.s.connection]).toEqual([1, 1, 2, 1]);
    expect(server.sides.public.sockets).toEqual([a.s, b.s]);
    expect(server.sides.public.logs).toEqual([a.s.log, b.s.log]);
    expect([server.sides.public.opened, server.sides.private.opened]).toEqual([2, 1]);
  });

  it('records every frame a client sends, with time, stream, connection and kind, and emits it on sent$', () => {
    const { server, socket, advance } = setup({ answerPings: false, answerSubscriptions: false });
    const emitted: SentFrame[] = [];
    server.sent$.subscribe((f) => emitted.push(f));
    const a = socket();
    advance(5);
    advance(3);
    a.s.send('{"ping":1}');
    a.s.send('not json');
    a.s.send(JSON.stringify({ event: 'cancel_all' }));
    expect(server.frames).toEqual([
      { time: 8, stream: 'public', connection: 1, kind: 'ping', frame: { ping: 1 }, text: '{"ping":1}' },
      { time: 8, stream: 'public', connection: 1, kind: 'other', frame: 'not json', text: 'not json' },
      { time: 8, stream: 'public', connection: 1, kind: 'cancel_all', frame: { event: 'cancel_all' }, text: '{"event":"cancel_all"}' },
    ]);
    expect(emitted).toEqual(server.frames);
  });

  it('answers a public sub after the current action, and keeps it live until cancel', () => {
    const { socket, advance } = setup();
    const a = socket();
    advance(5);
    a.s.send(sub('BTCUSDT', 'trade', '7', { binary: 'true' }));
    expect(a.received).toEqual([]);
    advance();
    expect(a.json()).toEqual([{ id: '7', code: '0', msg: 'Success', event: 'sub', symbol: 'BTCUSDT', topic: 'trade' }]);
    expect([...a.s.live]).toEqual([['BTCUSDT|trade', { id: '7', binary: true }]]);
    a.s.send(sub('ETHUSDT', 'depth', '8', { binary: false }));
    a.s.send(JSON.stringify({ symbol: 'BTCUSDT', topic: 'trade', event: 'cancel' }));
    expect([...a.s.live]).toEqual([['ETHUSDT|depth', { id: '8', binary: false }]]);
    a.s.send(JSON.stringify({ event: 'cancel_all' }));
    expect(a.s.live.size).toBe(0);
  });

  it('does not answer subscriptions when told not to, nor track private ones', () => {
    const quiet = setup({ answerSubscriptions: false });
    const a = quiet.socket();
    quiet.advance(5);
    a.s.send(sub('BTCUSDT', 'trade', '1'));
    quiet.advance(10);
    expect(a.received).toEqual([]);
    expect(a.s.live.size).toBe(1);
    const p = quiet.socket('ws://test/api/v1/ws/k');
    quiet.advance(5);
    p.s.send(sub('BTCUSDT', 'trade', '2'));
    expect(p.s.live.size).toBe(0);
  });

  it('answers pings: public with server time plus offset, private with the ping and a channel id; or not at all', () => {
    const { socket, advance } = setup({ serverTimeOffsetMs: 1000 });
    const pub = socket();
    const priv = socket('ws://test/api/v1/ws/k');
    advance(5);
    advance(2);
    pub.s.send('{"ping":123}');
    priv.s.send('{"ping":456}');
    advance();
    expect(pub.json()).toEqual([{ pong: 1007 }]);
    expect(priv.json()).toEqual([{ pong: 456, channelId: 'test-channel-1' }]);
    const mute = setup({ answerPings: false });
    const m = mute.socket();
    mute.advance(5);
    m.s.send('{"ping":1}');
    mute.advance(10);
    expect(m.received).toEqual([]);
  });

  it('delivers only to an open socket of a stream that is not stalled', () => {
    const { server, socket, advance } = setup();
    const a = socket();
    server.deliver(a.s, { early: true });
    advance(5);
    server.setStalled('public', true);
    server.deliver(a.s, { stalled: true });
    server.setStalled('public', false);
    server.deliver(a.s, { ok: true });
    server.close(a.s, {});
    server.deliver(a.s, { late: true });
    expect(a.json()).toEqual([{ ok: true }]);
  });

  it('gives an envelope the id of the live subscription it matches, zipped when it asked for binary', () => {
    const { server, socket, advance } = setup({ answerSubscriptions: false });
    const a = socket();
    advance(5);
    a.s.send(sub('BTCUSDT', 'trade', '11'));
    a.s.send(sub('BTCUSDT', 'kline_1m', '12', { binary: true }));
    server.deliver(a.s, { symbol: 'BTCUSDT', topic: 'trade', data: [] });
    server.deliver(a.s, { symbol: 'BTCUSDT', topic: 'trade', data: [], id: 'own' });
    server.deliver(a.s, { symbol: 'BTCUSDT', topic: 'kline', params: { klineType: '1m' }, data: [1] });
    server.deliver(a.s, { symbol: 'ETHUSDT', topic: 'trade', data: [] });
    server.deliver(a.s, 'raw text');
    const bytes = Uint8Array.of(1, 2);
    server.deliver(a.s, bytes);
    expect(a.received[0]).toBe('{"symbol":"BTCUSDT","topic":"trade","data":[],"id":"11"}');
    expect(a.received[1]).toBe('{"symbol":"BTCUSDT","topic":"trade","data":[],"id":"own"}');
    expect(unzip(a.received[2])).toEqual({ symbol: 'BTCUSDT', topic: 'kline', params: { klineType: '1m' }, data: [1], id: '12' });
    expect(a.received.slice(3)).toEqual(['{"symbol":"ETHUSDT","topic":"trade","data":[]}', 'raw text', bytes]);
  });

  it('sends envelopes as they are when matchSubscriptions is off', () => {
    const { server, socket, advance } = setup({ answerSubscriptions: false, matchSubscriptions: false });
    const a = socket();
    advance(5);
    a.s.send(sub('BTCUSDT', 'trade', '11', { binary: true }));
    server.deliver(a.s, { symbol: 'BTCUSDT', topic: 'trade', data: [] });
    expect(a.received).toEqual(['{"symbol":"BTCUSDT","topic":"trade","data":[]}']);
  });

  it('closes abruptly by default (1006, not clean), with a close frame for another code', () => {
    const { server, socket, advance } = setup();
    const a = socket();
    const b = socket();
    advance(5);
    server.close(a.s, {});
    server.close(b.s, { code: 4000, reason: 'bye' });
    expect(a.closes).toEqual([{ code: 1006, reason: '', wasClean: false }]);
    expect(b.closes).toEqual([{ code: 4000, reason: 'bye', wasClean: true }]);
  });

  it('plays a hot script on every socket open at each step, or on its target only', () => {
    const { server, socket, advance } = setup();
    const a = socket();
    advance(5);
    server.play('public', [
      { frame: 2, type: 'send', value: { n: 1 } },
      { frame: 6, type: 'send', value: { n: 2 } },
      { frame: 8, type: 'close', close: { code: 4000 } },
    ]);
    const b = socket(); // opens at 10, between the two sends
    advance(8);
    expect(a.json()).toEqual([{ n: 1 }, { n: 2 }]);
    expect(b.json()).toEqual([{ n: 2 }]);
    expect([a.closes.length, b.closes.length]).toEqual([1, 1]);
    const c = socket();
    const d = socket();
    advance(5);
    server.play('public', [{ frame: 1, type: 'send', value: 'only c' }], c.s);
    advance(1);
    expect([c.received, d.received]).toEqual([['only c'], []]);
  });

  it('plays a per-connection script from each matching open, on sockets open now and opened later', () => {
    const { server, socket, advance } = setup();
    const first = socket();
    advance(5);
    server.playPerConnection('public', 'each', [{ frame: 1, type: 'send', value: 'each' }]);
    server.playPerConnection('public', 2, [{ frame: 3, type: 'send', value: 'second' }]);
    const second = socket();
    advance(10);
    expect(first.received).toEqual(['each']);
    expect(second.received).toEqual(['each', 'second']);
    expect(server.sides.public.scripts).toHaveLength(2);
  });

  it('holds handshakes during a stall and completes them when it ends', () => {
    const { server, socket, advance } = setup();
    server.setStalled('public', true);
    const a = socket();
    advance(20);
    expect(a.s.readyState).toBe(0);
    expect(server.sides.public.pending).toEqual([a.s]);
    server.setStalled('public', false);
    expect([a.s.readyState, a.s.connection]).toEqual([1, 1]);
    expect(server.sides.public.pending).toEqual([]);
  });

  it('refuses handshakes while a refusal has sockets left and its time has not passed', () => {
    const { server, socket, advance } = setup();
    server.sides.public.refusal = { remaining: 1, until: 100, code: 1013 };
    const a = socket();
    advance(5);
    const b = socket();
    advance(5);
    server.sides.public.refusal = { remaining: 5, until: 12, code: 1006 };
    const c = socket();
    advance(5);
    expect(a.closes).toEqual([{ code: 1013, reason: '', wasClean: true }]);
    expect([b.s.readyState, b.s.connection, c.s.readyState]).toEqual([1, 1, 1]);
    expect(server.sides.public.opened).toBe(2);
  });

  it('closes with 4001 a private socket opened on an issued key that is no longer valid, not on an unknown key', () => {
    const { socket, keys, advance } = setup();
    let key = '';
    keys.createListenKey().subscribe((k) => (key = k));
    keys.closeListenKey(key).subscribe();
    const stale = socket(`ws://test/api/v1/ws/${key}`);
    const unknown = socket('ws://test/api/v1/ws/never-issued');
    advance(5);
    expect(stale.closes).toEqual([{ code: 4001, reason: 'invalid listen key', wasClean: true }]);
    expect([unknown.s.readyState, unknown.closes]).toEqual([1, []]);
  });

  it('closes the private sockets of an invalidated key with 4001 and its reason, after the current action', () => {
    const { server, socket, advance } = setup();
    const a = socket('ws://test/api/v1/ws/k1');
    const b = socket('ws://test/api/v1/ws/k2');
    advance(5);
    server.keyInvalidated('k1', 'listen key expired');
    expect(a.closes).toEqual([]);
    advance();
    expect(a.closes).toEqual([{ code: 4001, reason: 'listen key expired', wasClean: true }]);
    expect(b.closes).toEqual([]);
  });

  it('runs an action at a virtual time, or now after the current action', () => {
    const { server, scheduler, advance } = setup();
    const ran: Array<[string, number]> = [];
    server.at(30, () => ran.push(['at 30', scheduler.now()]));
    server.at(undefined, () => ran.push(['now', scheduler.now()]));
    advance(40);
    server.at(10, () => ran.push(['past', scheduler.now()]));
    advance();
    expect(ran).toEqual([
      ['now', 0],
      ['at 30', 30],
      ['past', 40],
    ]);
  });
});
