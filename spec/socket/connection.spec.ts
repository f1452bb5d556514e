import { filter, map } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { ConfigError, ConnectionClosedError, DecodeError, HeartbeatTimeoutError, SendQueueFullError } from '../../lib/errors';
import { connection, connectionCore, type ConnectionConfig } from '../../lib/socket/connection';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';
import { fakeWebSocket } from '../../lib/testing/fakeWebSocket';
import { errorAwareTestScheduler, normalizeErrors } from '../helpers/errorMarbles';
import { zipBomb, zipText } from '../helpers/zipFrames';

describe('connection', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  /** A connection over fake sockets that open `autoOpenMs` after construction (never when null). */
  function setup(config: Partial<ConnectionConfig> = {}, autoOpenMs: number | null = 1) {
    const fake = fakeWebSocket({ scheduler: testScheduler, ...(autoOpenMs === null ? {} : { autoOpenMs }) });
    const conn = connection({
      url: 'ws://127.0.0.1/quote/ws/v1',
      WebSocketCtor: fake.WebSocketCtor,
      scheduler: testScheduler,
      pingIntervalMs: 10,
      heartbeatTimeoutMs: 1000,
      reconnect: { minDelayMs: 10, random: () => 0.5 },
      ...config,
    });
    return { fake, conn };
  }

  describe('heartbeats', () => {
    it('sends { ping: now } on open and every pingIntervalMs', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup();
        expectObservable(conn.messages$, '35ms !').toBe('');
        testScheduler.flush();
        expect(fake.latest().sent).toEqual(['{"ping":1}', '{"ping":11}', '{"ping":21}', '{"ping":31}']);
        expect(fake.latest().binaryType).toBe('arraybuffer');
      });
    });

    it('answers a server ping with a pong of the same timestamp and no channelId', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup();
        fake.at(5, (s) => s.receive({ ping: 1234, channelId: 'c-1' }));
        fake.at(6, (s) => s.receive({ ping: '1235', channelId: 'c-1' }));
        expectObservable(conn.messages$, '8ms !').toBe('5ms ab', {
          a: { ping: 1234, channelId: 'c-1' },
          b: { ping: '1235', channelId: 'c-1' },
        });
        testScheduler.flush();
        expect(fake.latest().sent).toEqual(['{"ping":1}', '{"pong":1234}', '{"pong":1235}']);
      });
    });

    it('fails with HeartbeatTimeoutError when no frame arrives within heartbeatTimeoutMs', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup({ heartbeatTimeoutMs: 25, reconnect: false }, 5);
        fake.at(10, (s) => s.receive({ pong: 1 }));
        fake.at(20, (s) => s.receive({ pong: 2 }));
        // last frame at 20 → silent until 45
        expectObservable(conn.status$, '50ms !').toBe('(ab) 1ms c 39ms d', {
          a: { type: 'closed', epoch: 0 },
          b: { type: 'connecting', epoch: 0, attempt: 0 },
          c: { type: 'open', epoch: 1, since: 5 },
          d: { type: 'closed', epoch: 1, cause: new HeartbeatTimeoutError(25) },
        });
        expectObservable(conn.messages$).toBe('10ms a 9ms b 24ms #', { a: { pong: 1 }, b: { pong: 2 } }, new HeartbeatTimeoutError(25));
        testScheduler.flush();
        expect(fake.latest().closedByClient).toEqual({ code: 4000, reason: 'heartbeat timeout' });
      });
    });

    it('counts a socket that never opens as silent', () => {
      testScheduler.run(({ expectObservable }) => {
        const { conn } = setup({ heartbeatTimeoutMs: 25, reconnect: false }, null);
        expectObservable(conn.messages$).toBe('25ms #', undefined, new HeartbeatTimeoutError(25));
      });
    });

    it('hands a heartbeat timeout to reconnection', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup({ heartbeatTimeoutMs: 25 });
        expectObservable(conn.messages$, '40ms !').toBe('');
        expectObservable(conn.errors$, '40ms !').toBe('26ms a', { a: new HeartbeatTimeoutError(25) });
        testScheduler.flush();
        expect(fake.logs).toEqual([
          { subscribedFrame: 0, unsubscribedFrame: 26 },
          { subscribedFrame: 31, unsubscribedFrame: 40 },
        ]);
      });
    });

    it('estimates the server clock from public pongs and the round trip from private ones', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup();
        fake.at(3, (s) => s.receive({ pong: 10_004 })); // ping at 1, rtt 2: offset 10004 - (1 + 1)
        fake.at(15, (s) => s.receive({ pong: 20_000 })); // ping at 11, rtt 4: a worse sample, ignored
        fake.at(24, (s) => s.receive({ pong: 21, channelId: 'c' })); // private echo of the ping at 21
        expectObservable(conn.messages$, '30ms !').toBe('3ms a 11ms b 8ms c', {
          a: { pong: 10_004 },
          b: { pong: 20_000 },
          c: { pong: 21, channelId: 'c' },
        });
        expectObservable(conn.serverClock.offset$, '30ms !').toBe('3ms a', { a: 10_002 });
        testScheduler.schedule(() => {
          expect(conn.serverClock.offsetMs()).toBe(10_002);
          expect(conn.serverClock.rttMs()).toBe(3);
        }, 29);
      });
    });
  });

  describe('reconnection and status', () => {
    it('reconnects after a loss: epochs, opened$, status sequence with downSince', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions }) => {
        const { fake, conn } = setup({}, 5);
        fake.at(8, (s) => s.closeFromServer({ code: 1006 }));
        const lost = new ConnectionClosedError(1006, '', false);
        expectObservable(conn.status$, '31ms !').toBe('(ab) 1ms c 2ms d 4ms e 4ms f 11ms g', {
          a: { type: 'closed', epoch: 0 },
          b: { type: 'connecting', epoch: 0, attempt: 0 },
          c: { type: 'open', epoch: 1, since: 5 },
          d: { type: 'reconnecting', epoch: 1, attempt: 1, delayMs: 5, cause: lost },
          e: { type: 'connecting', epoch: 1, attempt: 1 },
          f: { type: 'open', epoch: 2, since: 18, downSince: 5 }, // no frame came: the open time
          g: { type: 'closed', epoch: 2 },
        } satisfies Record<string, ConnectionStatus>);
        expectObservable(conn.opened$, '30ms !').toBe('5ms a 12ms b', { a: 1, b: 2 });
        expectObservable(conn.errors$, '30ms !').toBe('8ms a', { a: lost });
        expectObservable(conn.messages$, '30ms !').toBe('');
        expectSubscriptions(fake.logs).toBe(['^ 7ms !', '13ms ^ 16ms !']);
        testScheduler.flush();
        expect(fake.sockets[1]!.closedByClient).toEqual({ code: 1000, reason: undefined });
      });
    });

    it('retries a close code in 4000-4999 with growing backoff, carrying code and reason to errors$ and status$', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions }) => {
        const { fake, conn } = setup({ reconnect: { minDelayMs: 10, maxDelayMs: 40, random: () => 0.5 } }, 1);
        // every socket is closed by the service 2 ms after it opens
        const closeAll = (at: number): void => fake.at(at, (s) => s.closeFromServer({ code: 4002, reason: '"no"' }));
        [3, 10, 22, 44, 66].forEach(closeAll);
        const closed = new ConnectionClosedError(4002, '"no"', true);
        const statuses: ConnectionStatus[] = [];
        const watch = conn.status$.subscribe((st) => statuses.push(st));
        testScheduler.schedule(() => watch.unsubscribe(), 75); // closed only when the last subscriber left at 70
        expectObservable(conn.messages$, '70ms !').toBe('');
        expectObservable(conn.errors$, '70ms !').toBe('3ms a 6ms b 11ms c 21ms d 21ms e', { a: closed, b: closed, c: closed, d: closed, e: closed });
        expectSubscriptions(fake.logs).toBe(['^ 2ms !', '8ms ^ 1ms !', '20ms ^ 1ms !', '42ms ^ 1ms !', '64ms ^ 1ms !']);
        testScheduler.flush();
        const reconnecting = statuses.filter((st) => st.type === 'reconnecting');
        expect(reconnecting.map((st) => st.type === 'reconnecting' && [st.attempt, st.delayMs])).toEqual([[1, 5], [2, 10], [3, 20], [4, 20], [5, 20]]);
        expect(normalizeErrors(reconnecting.map((st) => st.type === 'reconnecting' && st.cause))).toEqual(normalizeErrors(Array(5).fill(closed)));
        expect(statuses.filter((st) => st.type === 'closed')).toEqual([{ type: 'closed', epoch: 0 }, { type: 'closed', epoch: 5 }]);
      });
    });

    it('stops only on a ConfigError, and a shouldReconnect of the config can stop on a close code', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup({
          reconnect: { minDelayMs: 10, random: () => 0.5, shouldReconnect: (e) => !(e instanceof ConnectionClosedError && e.code === 4001) },
        });
        fake.at(8, (s) => s.closeFromServer({ code: 4001, reason: 'invalid listen key' }));
        expectObservable(conn.messages$).toBe('8ms #', undefined, new ConnectionClosedError(4001, 'invalid listen key', true));
      });
    });

    it('dates downSince at the last frame received (or when the last pong was written), whatever ended the socket', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup({ heartbeatTimeoutMs: 25, pingIntervalMs: 100 }, 1);
        fake.at(4, (s) => s.receive({ pong: 1 }));
        fake.at(6, (s) => s.receive('not json')); // a bad frame is a frame: the socket still delivered
        // heartbeat timeout at 31; retry after 5 ms; open at 37; pong at 40; close at 50
        fake.at(39, (s) => s.receive({ pong: 2 }));
        fake.at(50, (s) => s.closeFromServer({ code: 1006 }));
        const open$ = conn.status$.pipe(filter((s) => s.type === 'open'));
        // These pongs say the service wrote them at its time 1 and 2: on the clock they give (offset -1.5 ± 1.5),
        // local 1 and 2 at the earliest. The frame at 6 came after the first pong (TCP keeps the order), so it was
        // written at 1 or later: the gap of epoch 1 starts at 1. Epoch 2's pong at 39 says local 2, before that
        // socket opened: its gap starts at the open, 37.
        expectObservable(open$, '70ms !').toBe('1ms a 35ms b 23ms c', {
          a: { type: 'open', epoch: 1, since: 1 },
          b: { type: 'open', epoch: 2, since: 37, downSince: 1 },
          c: { type: 'open', epoch: 3, since: 61, downSince: 37 },
        });
        expectObservable(conn.messages$, '70ms !').toBe('4ms a 34ms b', { a: { pong: 1 }, b: { pong: 2 } });
      });
    });

    it('lets a shouldReconnect in the config decide instead', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions }) => {
        const { fake, conn } = setup({
          reconnect: { minDelayMs: 10, random: () => 0.5, shouldReconnect: (e) => e instanceof ConnectionClosedError && e.code !== 1011 },
        });
        fake.at(8, (s) => s.closeFromServer({ code: 4001 }));
        fake.at(20, (s) => s.closeFromServer({ code: 1011 }));
        expectObservable(conn.messages$).toBe('20ms #', undefined, new ConnectionClosedError(1011, '', true));
        expectSubscriptions(fake.logs).toBe(['^ 7ms !', '13ms ^ 6ms !']);
      });
    });

    it('evaluates a url function at every connect attempt', () => {
      testScheduler.run(({ expectObservable }) => {
        let n = 0;
        const { fake, conn } = setup({ url: () => `ws://127.0.0.1/api/v1/ws/key-${++n}` });
        fake.at(4, (s) => s.closeFromServer());
        expectObservable(conn.messages$, '20ms !').toBe('');
        testScheduler.flush();
        expect(fake.sockets.map((s) => s.url)).toEqual(['ws://127.0.0.1/api/v1/ws/key-1', 'ws://127.0.0.1/api/v1/ws/key-2']);
      });
    });
  });

  describe('sending', () => {
    it('queues frames until open and sends them first, in order', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup({}, 5);
        conn.send({ a: 1 });
        conn.opened$.subscribe((epoch) => conn.send({ sub: epoch }));
        testScheduler.schedule(() => conn.send({ a: 2 }), 2);
        testScheduler.schedule(() => conn.send({ a: 3 }), 7);
        expectObservable(conn.messages$, '9ms !').toBe('');
        testScheduler.flush();
        expect(fake.latest().sentJson()).toEqual([{ a: 1 }, { a: 2 }, { sub: 1 }, { ping: 5 }, { a: 3 }]);
      });
    });

    it('throws SendQueueFullError when maxQueuedFrames frames already wait', () => {
      testScheduler.run(() => {
        const { conn } = setup({ maxQueuedFrames: 2 });
        conn.send(1);
        conn.send(2);
        expect(() => conn.send(3)).toThrow(SendQueueFullError);
        expect(() => conn.send(3)).toThrow('send queue full (2 frames waiting for an open socket)');
      });
    });

    it('sendIfOpen sends only on an open socket', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup({}, 5);
        const results: boolean[] = [];
        testScheduler.schedule(() => results.push(conn.sendIfOpen({ cancel: 1 })), 2);
        testScheduler.schedule(() => results.push(conn.sendIfOpen({ cancel: 2 })), 6);
        expectObservable(conn.messages$, '9ms !').toBe('');
        testScheduler.flush();
        expect(results).toEqual([false, true]);
        expect(fake.latest().sentJson()).toEqual([{ ping: 5 }, { cancel: 2 }]);
      });
    });
  });

  describe('teardown', () => {
    it('closes the socket with 1000 when the last subscriber leaves and leaves no timer', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions }) => {
        const { fake, conn } = setup();
        expectObservable(conn.messages$, '10ms !').toBe('');
        expectObservable(conn.messages$, '20ms !').toBe('');
        expectSubscriptions(fake.logs).toBe('^ 19ms !');
        let pending = -1;
        testScheduler.schedule(() => (pending = testScheduler.actions.length), 40);
        testScheduler.flush();
        expect(fake.latest().closedByClient).toEqual({ code: 1000, reason: undefined });
        expect(pending).toBe(0);
      });
    });

    it('leaves no timer when unsubscribed during a reconnect wait, drops the queue, and starts a new epoch later', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions }) => {
        const { fake, conn } = setup();
        fake.at(3, (s) => s.closeFromServer());
        testScheduler.schedule(() => conn.send({ stale: true }), 4);
        expectObservable(conn.messages$, '6ms !').toBe(''); // waiting until 8 for the retry
        testScheduler.schedule(() => {
          const again = conn.messages$.subscribe();
          testScheduler.schedule(() => again.unsubscribe(), 10);
        }, 40);
        expectObservable(conn.opened$, '50ms !').toBe('1ms a 39ms b', { a: 1, b: 2 });
        // no socket between the unsubscribe at 6 and the new subscriber at 40: the retry timer was cancelled
        expectSubscriptions(fake.logs).toBe(['^ 2ms !', '40ms ^ 9ms !']);
        testScheduler.flush();
        expect(fake.sockets[1]!.sentJson()).toEqual([{ ping: 41 }]);
      });
    });
  });

  describe('frames', () => {
    it('reports bad frames on errors$ and keeps the connection going', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, conn } = setup();
        fake.at(5, (s) => s.receive('not json'));
        fake.at(6, (s) => s.receive(zipBomb(17)));
        fake.at(7, (s) => s.receive(zipText('{"a":1}')));
        fake.at(8, (s) => s.receive({ b: 2 }));
        expectObservable(conn.messages$, '10ms !').toBe('7ms ab', { a: { a: 1 }, b: { b: 2 } });
        const kinds$ = conn.errors$.pipe(map((e) => (e instanceof DecodeError ? e.kind : e.name)));
        expectObservable(kinds$, '10ms !').toBe('5ms ab', { a: 'json', b: 'inflated-too-large' });
      });
    });
  });

  describe('the frame seam', () => {
    it('reports whatever a frame sink throws as a DecodeError on errors$ and keeps the socket and other sinks going', () => {
      testScheduler.run(({ expectObservable }) => {
        const fake = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
        const core = connectionCore({ url: 'ws://127.0.0.1/api/v1/ws/k3y-0123456789abcdef', WebSocketCtor: fake.WebSocketCtor, scheduler: testScheduler, pingIntervalMs: 100 });
        const changes$ = core.connection.status$.pipe(filter((st) => st.type === 'open' || st.type === 'reconnecting'));
        expectObservable(changes$, '10ms !').toBe('1ms c', { c: { type: 'open', epoch: 1, since: 1 } });
        const seen: unknown[] = [];
        const throwing = core.frames((m) => {
          if ((m as { boom?: unknown }).boom !== undefined) throw new RangeError('Maximum call stack size exceeded at k3y-0123456789abcdef');
        });
        const counting = core.frames((m) => seen.push(m));
        fake.at(3, (s) => s.receive({ boom: 1 }));
        fake.at(4, (s) => s.receive({ a: 1 }));
        fake.at(5, (s) => s.receive({ boom: 2 }));
        const failure = new DecodeError('codec', 'frame handling failed: RangeError: Maximum call stack size exceeded at ***');
        expectObservable(core.connection.errors$, '10ms !').toBe('3ms a 1ms b', { a: failure, b: failure });
        expectObservable(throwing, '10ms !').toBe('');
        expectObservable(counting, '10ms !').toBe('');
        testScheduler.flush();
        // the sink subscribed first threw before the second one was called: the frames that threw stop there
        expect(seen).toEqual([{ a: 1 }]);
      });
    });

    it('redacts the listen key of the address from a close reason (also percent-decoded) and cuts the reason to 123 characters', () => {
      testScheduler.run(({ expectObservable }) => {
        const key = 'Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34Yz56Ab12Cd34Ef56';
        const { fake, conn } = setup({ url: `ws://127.0.0.1/api/v1/ws/${key}%2B`, reconnect: false });
        fake.at(3, (s) => s.closeFromServer({ code: 4002, reason: `listen key "${key}+" expired ${'and so on '.repeat(20)}` }));
        const errors: Error[] = [];
        conn.errors$.subscribe((e) => errors.push(e));
        expectObservable(conn.messages$).toBe('3ms #', undefined, new ConnectionClosedError(4002, `listen key "***" expired ${'and so on '.repeat(20)}`.slice(0, 123) + '…', true));
        testScheduler.flush();
        const error = errors[0] as ConnectionClosedError;
        expect(error.reason.length).toBeLessThanOrEqual(124);
        for (const text of [error.reason, error.message, String(error), JSON.stringify(error)]) {
          for (let i = 0; i + 8 <= key.length; i++) expect(text).not.toContain(key.slice(i, i + 8));
        }
      });
    });
  });

  it('rejects impossible settings with a ConfigError', () => {
    const url = 'ws://127.0.0.1/quote/ws/v1';
    expect(() => connection({ url, pingIntervalMs: 0 })).toThrow(ConfigError);
    expect(() => connection({ url, heartbeatTimeoutMs: -5 })).toThrow('heartbeatTimeoutMs must be a positive number');
    expect(() => connection({ url, maxQueuedFrames: 1.5 })).toThrow(ConfigError);
  });
});
