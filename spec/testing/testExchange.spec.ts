import { strFromU8, unzipSync } from 'fflate';
import { distinctUntilChanged, map } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { ConnectionClosedError } from '../../lib/errors';
import { marketStreams } from '../../lib/market/marketStreams';
import { testExchange, type TestExchangeConfig } from '../../lib/testing/testExchange';
import { depthEnvelope, depthRecord, klineEnvelope, klineRecord, tradeEnvelope, tradeRecord } from '../../lib/testing/publicMessages';
import { executionReport, privateFrame, serverPing } from '../../lib/testing/privateMessages';
import { userStream } from '../../lib/user/userStream';
import { errorAwareTestScheduler } from '../helpers/errorMarbles';

describe('testExchange', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  const setup = (config: Omit<TestExchangeConfig, 'scheduler'> = {}) => {
    const exchange = testExchange({ scheduler: testScheduler, ...config });
    return { exchange, market: marketStreams(exchange.marketConfig()) };
  };

  /** `kind@time#connection` of each recorded frame. */
  const summary = (frames: ReadonlyArray<{ kind: string; time: number; connection: number }>) =>
    frames.map((f) => `${f.kind}@${f.time}#${f.connection}`);

  describe('marble playback', () => {
    it('plays a hot script to the open sockets in virtual time; objects, raw text and groups', () => {
      testScheduler.run(({ expectObservable }) => {
        const { exchange, market } = setup();
        const t1 = tradeRecord({ v: '1' });
        const t2 = tradeRecord({ v: '2', p: '101' });
        exchange.server.public('-a--(bc) 10ms d|', {
          a: tradeEnvelope(t1, { first: true }),
          b: 'not json',
          c: JSON.stringify(tradeEnvelope(t2)),
          d: tradeEnvelope(tradeRecord({ v: '3' })),
        });
        expectObservable(market.trades('BTCUSDT'), '^ 9ms !').toBe('-a--b', { a: t1, b: t2 });
        expectObservable(market.errors$.pipe(map((e) => e.name)), '^ 9ms !').toBe('----e', { e: 'DecodeError' });
      });
    });

    it('plays per-connection scripts from the open of that connection; "each" on every connection', () => {
      testScheduler.run(({ expectObservable }) => {
        const { exchange, market } = setup();
        const snap = depthRecord({ t: 1 });
        const first = depthRecord({ t: 2 });
        const second = depthRecord({ t: 3 });
        exchange.server.public('-s', { s: depthEnvelope(snap) }, { connection: 'each' });
        exchange.server.public('--a', { a: depthEnvelope(first) }, { connection: 1 });
        exchange.server.public('--b', { b: depthEnvelope(second) }, { connection: 2 });
        exchange.drop({ stream: 'public', at: 5 });
        expectObservable(market.depth('BTCUSDT'), '^ 600ms !').toBe('-sa 502ms -sb', { s: snap, a: first, b: second });
      });
    });

    it('fills in the live subscription id and zips for binary subscriptions (matchSubscriptions)', () => {
      testScheduler.run(({ expectObservable }) => {
        const { exchange, market } = setup();
        const seen: unknown[] = [];
        const candle = klineRecord({ c: '104' });
        exchange.server.public('-a', { a: klineEnvelope(candle, { interval: '5m' }) });
        expectObservable(market.klines('BTCUSDT', '5m', { binary: true }), '^ 5ms !').toBe('-a', { a: candle });
        testScheduler.schedule(() => {
          const socket = exchange.sockets('public')[0];
          const onmessage = socket.onmessage;
          socket.onmessage = (event) => {
            seen.push(event.data);
            onmessage?.(event);
          };
        }, 0);
        testScheduler.schedule(() => {
          const zip = seen.find((d): d is Uint8Array => d instanceof Uint8Array);
          expect(zip && JSON.parse(strFromU8(unzipSync(zip)['data.json']))).toEqual({ ...klineEnvelope(candle, { interval: '5m' }), id: '1' });
        }, 2);
      });
    });

    it('a batched sub (comma-joined symbols): each symbol answered and matched alone; sent({ symbol }) finds the batch', () => {
      testScheduler.run(({ expectObservable, flush }) => {
        const { exchange, market } = setup();
        const btc = tradeRecord({ p: '30000' });
        const eth = tradeRecord({ p: '2000' });
        exchange.server.public('--ab', { a: tradeEnvelope([btc], { symbol: 'BTCUSDT' }), b: tradeEnvelope([eth], { symbol: 'ETHUSDT' }) });
        expectObservable(market.trades('BTCUSDT'), '^ 5ms !').toBe('--a', { a: btc });
        expectObservable(market.trades('ETHUSDT'), '^ 5ms !').toBe('---a', { a: eth });
        flush();
        const subs = exchange.sent({ kind: 'sub' });
        expect(subs.map((f) => (f.frame as { symbol: string }).symbol)).toEqual(['BTCUSDT,ETHUSDT']);
        expect(exchange.sent({ kind: 'sub', symbol: 'ETHUSDT' })).toEqual(subs);
      });
    });

    it('closes the socket on # with the closeWith code', () => {
      testScheduler.run(({ expectObservable }) => {
        const { exchange, market } = setup();
        exchange.server.public('--#', {}, { closeWith: { code: 4003, reason: 'go away' } });
        // the service's word never ends a stream: reported on errors$, retried (after 500 ms)
        expectObservable(market.depth('BTCUSDT'), '^ 9ms !').toBe('');
        expectObservable(market.errors$, '^ 9ms !').toBe('--a', { a: new ConnectionClosedError(4003, 'go away', true) });
      });
    });
  });

  describe('auto answers', () => {
    it('answers sub with a success response and pings with the virtual server time', () => {
      testScheduler.run(({ expectObservable, flush }) => {
        const { exchange, market } = setup({ serverTimeOffsetMs: 1500 });
        expectObservable(market.depth('BTCUSDT'), '^ 20s !').toBe('');
        expectObservable(market.errors$, '^ 20s !').toBe('');
        flush();
        expect(market.serverClock.offsetMs()).toBe(1500);
        expect(summary(exchange.sent({ stream: 'public' }))).toEqual(['sub@0#1', 'ping@0#1', 'ping@10000#1', 'ping@20000#1', 'cancel@20001#1']);
      });
    });

    it('answers private pings with the echoed time and a channelId; records pongs to server pings', () => {
      testScheduler.run(({ flush }) => {
        const exchange = testExchange({ scheduler: testScheduler });
        const user = userStream(exchange.userConfig());
        exchange.server.private('---p', { p: serverPing(3) });
        const sub = user.events$.subscribe();
        testScheduler.schedule(() => sub.unsubscribe(), 10);
        flush();
        expect(exchange.sent({ stream: 'private' }).map((f) => [f.kind, f.time, f.frame])).toEqual([
          ['ping', 0, { ping: 0 }],
          ['pong', 3, { pong: 3 }],
        ]);
      });
    });

    it('answers nothing when told so: the heartbeat watchdog drops the silent socket', () => {
      testScheduler.run(({ expectSubscriptions }) => {
        const { exchange, market } = setup({ answerPings: false });
        const sub = market.depth('BTCUSDT').subscribe();
        testScheduler.schedule(() => sub.unsubscribe(), 31_000);
        expectSubscriptions(exchange.logs('public')).toBe(['^ 29999ms !', '30500ms ^ 499ms !']);
      });
    });
  });

  describe('recorded frames', () => {
    it('records subscriptions, cancels and pings with their times; sent$ is hot for marble assertions', () => {
      testScheduler.run(({ expectObservable, flush }) => {
        const { exchange, market } = setup();
        expectObservable(market.depth('BTCUSDT'), '^ 4ms !').toBe('');
        expectObservable(market.trades('ETHUSDT'), '--^ 5ms !').toBe('');
        expectObservable(exchange.sent$({ kind: 'sub' }).pipe(map((f) => (f.frame as { topic: string }).topic)), '^ 9ms !').toBe(
          'a-b',
          { a: 'depth', b: 'trade' },
        );
        expectObservable(exchange.sent$({ kind: 'cancel', symbol: 'BTCUSDT' }).pipe(map((f) => f.time)), '^ 9ms !').toBe('-----t', {
          t: 5,
        });
        flush();
        expect(summary(exchange.sent())).toEqual(['sub@0#1', 'ping@0#1', 'sub@2#1', 'cancel@5#1', 'cancel@8#1']);
        expect(exchange.sent({ topic: 'trade' }).map((f) => f.frame)).toEqual([
          { symbol: 'ETHUSDT', topic: 'trade', event: 'sub', params: { binary: false }, id: 2 },
          { symbol: 'ETHUSDT', topic: 'trade', event: 'cancel', params: { binary: false }, id: 4 },
        ]);
        expect(exchange.sockets('public')[0].closedByClient).toEqual({ code: 1000, reason: undefined });
      });
    });

    it('recordSent: false keeps no frame (a run of days holds no record per ping); sent$ still shows each', () => {
      testScheduler.run(({ expectObservable, flush }) => {
        const { exchange, market } = setup({ recordSent: false });
        expectObservable(market.trades('BTCUSDT'), '^ 25s !').toBe('');
        expectObservable(exchange.sent$().pipe(map((f) => f.kind)), '^ 25s !').toBe('(sp) 9996ms p 9999ms p 5000ms c', { s: 'sub', p: 'ping', c: 'cancel' });
        flush();
        expect(exchange.sent()).toEqual([]);
        expect(exchange.sockets('public')[0].sent).toEqual([]);
      });
    });
  });

  describe('faults', () => {
    it('drop: the client reconnects after the backoff cap and resubscribes every live topic on the new connection', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions, flush }) => {
        const { exchange, market } = setup();
        exchange.drop({ stream: 'public', at: 5 });
        const status$ = market.status$.pipe(
          map((s) => `${s.connection.type}${s.connection.epoch}`),
          distinctUntilChanged(),
        );
        expectObservable(status$, '^ 1s !').toBe('(abo)r 499ms (cp)', {
          a: 'closed0',
          b: 'connecting0',
          o: 'open1',
          r: 'reconnecting1',
          c: 'connecting1',
          p: 'open2',
        });
        expectObservable(market.depth('BTCUSDT'), '^ 1s !').toBe('');
        expectObservable(market.trades('BTCUSDT'), '^ 1s !').toBe('');
        expectSubscriptions(exchange.logs('public')).toBe(['^----!', '505ms ^ 495ms !']);
        flush();
        expect(summary(exchange.sent({ kind: 'sub' }))).toEqual(['sub@0#1', 'sub@0#1', 'sub@505#2', 'sub@505#2']);
      });
    });

    it('drop with an application code (4000-4999) is reported on errors$ and retried, never ending the streams', () => {
      testScheduler.run(({ expectObservable }) => {
        const { exchange, market } = setup();
        exchange.drop({ stream: 'public', at: 3, code: 4001, reason: 'bye' });
        expectObservable(market.depth('BTCUSDT'), '^ 9ms !').toBe('');
        expectObservable(market.errors$, '^ 9ms !').toBe('---a', { a: new ConnectionClosedError(4001, 'bye', true) });
      });
    });

    it('refuse: the next attempts close before opening; the client backs off 500 ms, then 1 s', () => {
      testScheduler.run(({ expectSubscriptions, flush }) => {
        const { exchange, market } = setup();
        exchange.refuse({ stream: 'public', count: 2 });
        const sub = market.depth('BTCUSDT').subscribe();
        testScheduler.schedule(() => sub.unsubscribe(), 2000);
        expectSubscriptions(exchange.logs('public')).toBe(['(^!)', '500ms (^!)', '1500ms ^ 499ms !']);
        flush();
        expect(summary(exchange.sent({ kind: 'sub' }))).toEqual(['sub@1500#1']);
      });
    });

    it('refuse until a time', () => {
      testScheduler.run(({ expectSubscriptions }) => {
        const { exchange, market } = setup();
        exchange.refuse({ stream: 'all', until: 600 });
        const sub = market.depth('BTCUSDT').subscribe();
        testScheduler.schedule(() => sub.unsubscribe(), 2000);
        expectSubscriptions(exchange.logs('public')).toBe(['(^!)', '500ms (^!)', '1500ms ^ 499ms !']);
      });
    });

    it('stall: no frame and no handshake until the stall ends; the client notices after heartbeatTimeoutMs', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions }) => {
        const { exchange, market } = setup();
        exchange.server.public('- 40s a', { a: depthEnvelope() });
        exchange.stall({ stream: 'public', at: 1, until: 31_000 });
        expectObservable(market.depth('BTCUSDT'), '^ 45s !').toBe('- 40s a', { a: depthRecord() });
        // last frame: the pong at 0; watchdog at 30 s; reconnect at 30.5 s waits for the end of the stall
        expectSubscriptions(exchange.logs('public')).toBe(['^ 29999ms !', '30500ms ^ 14500ms !']);
        testScheduler.schedule(() => expect(exchange.sent({ kind: 'sub', connection: 2 }).map((f) => f.time)).toEqual([31_000]), 31_001);
      });
    });
  });

  describe('user stream', () => {
    it('plays private frames; a drop leads to a reconnect with the same key and a gap', () => {
      testScheduler.run(({ expectObservable, flush }) => {
        const exchange = testExchange({ scheduler: testScheduler });
        const user = userStream(exchange.userConfig({ reorder: { maxDelayMs: 0 } }));
        const before = executionReport({ E: 1 });
        const after = executionReport({ X: 'FILLED', z: '1', Z: '100', E: 600, U: 600 });
        exchange.server.private('-a', { a: privateFrame(before) }, { connection: 1 });
        exchange.server.private('-b', { b: privateFrame(after) }, { connection: 2 });
        exchange.drop({ stream: 'private', at: 5 });
        expectObservable(user.events$, '^ 1s !').toBe('-a 504ms b', { a: before, b: after });
        expectObservable(user.orders$.pipe(map((o) => o.get('1')?.status)), '^ 1s !').toBe('-a 504ms b', { a: 'NEW', b: 'FILLED' });
        expectObservable(user.gaps$, '^ 1s !').toBe('505ms g', { g: { epoch: 2, downSince: 1, reconnectedAt: 505, keyChanged: false } }); // the last frame came at 1
        flush();
        expect(exchange.sockets('private').map((s) => s.url)).toEqual([
          'ws://test.exchange/api/v1/ws/test-listen-key-1',
          'ws://test.exchange/api/v1/ws/test-listen-key-1',
        ]);
        expect(exchange.listenKeys.calls.map((c) => `${c.call} ${c.key} ${c.outcome}`)).toEqual([
          'create test-listen-key-1 ok',
          'close test-listen-key-1 ok',
        ]);
      });
    });

    it('an expired key closes the socket with 4001; the stream moves to a new key (gap, keyChanged)', () => {
      testScheduler.run(({ expectObservable, flush }) => {
        const exchange = testExchange({ scheduler: testScheduler });
        const user = userStream(exchange.userConfig());
        exchange.listenKeys.expire({ at: 10 });
        expectObservable(user.events$, '^ 1s !').toBe(''); // gaps$ only observes: events$ runs the stream
        expectObservable(user.gaps$, '^ 1s !').toBe('10ms g', { g: { epoch: 2, downSince: 0, reconnectedAt: 10, keyChanged: true } }); // no frame since the open at 0
        flush();
        expect(exchange.sockets('private').map((s) => s.url.slice(-17))).toEqual(['test-listen-key-1', 'test-listen-key-2']);
        expect(exchange.listenKeys.calls.map((c) => `${c.time} ${c.call} ${c.key}`)).toEqual([
          '0 create test-listen-key-1',
          '10 create test-listen-key-2',
          '1001 close test-listen-key-2',
        ]);
      });
    });
  });
});
