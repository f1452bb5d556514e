import type { AddressInfo } from 'node:net';
import { asyncScheduler, Subject } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { WebSocket, WebSocketServer } from 'ws';
import { ConfigError, ConnectionClosedError, DecodeError, HeartbeatTimeoutError } from '../../lib/errors';
import { serverClockSampler } from '../../lib/socket/serverClock';
import { handlerFailure } from '../../lib/frame/frameHandler';
import type { FrameSink } from '../../lib/frame/frameSink';
import { closeReason, MAX_CLOSE_REASON_LENGTH, type SessionSettings, socketSession, urlSecrets } from '../../lib/socket/socketSession';
import type { WebSocketCtor, WebSocketLike } from '../../lib/socket/webSocketLike';
import { fakeWebSocket } from '../../lib/testing/fakeWebSocket';
import { errorAwareTestScheduler } from '../helpers/errorMarbles';
import { stallClock } from '../helpers/stallClock';
import { zipText } from '../helpers/zipFrames';

/** A listen key as the service hands them out: 60 letters and digits. */
const KEY = 'Lk7Qz0aB9cD8eF7gH6iJ5kL4mN3oP2qR1sT0uV9wX8yZ7aB6cD5eF4gH3iJ2';
const PUBLIC_URL = 'ws://127.0.0.1/quote/ws/v1';
const PRIVATE_URL = `ws://127.0.0.1/api/v1/ws/${KEY}`;

/** A 64-bit id above 2^53: `JSON.parse` rounds it to 1291488620385157000. */
const LONG_ID = '1291488620385157122';

/** What a sink saw of one frame: the message, the time handed with it, and what `exact()` gave during the call. */
interface Seen {
  readonly message: unknown;
  readonly now: number;
  /** Whether the sink was handed an `exact`. */
  readonly hasExact: boolean;
  /** `exact()` called during the sink's call. */
  readonly exact: unknown;
}

/** Every part of a key of 12 characters or more, absent from `text`. */
function expectNoKey(text: string): void {
  for (let i = 0; i + 12 <= KEY.length; i += 6) expect(text).not.toContain(KEY.slice(i, i + 12));
}

describe('socketSession', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = errorAwareTestScheduler();
  });

  /**
   * One session over fake sockets that open `autoOpenMs` after construction (never when null). The sink's
   * view of each frame goes to `seen`, decode errors to `decodeErrors` (both hot, for marbles); `onOpen` and
   * `onEnd` calls are logged in `events` with the scheduler time.
   */
  function setup(settings: Partial<SessionSettings> = {}, autoOpenMs: number | null = 1) {
    const fake = fakeWebSocket({ scheduler: testScheduler, ...(autoOpenMs === null ? {} : { autoOpenMs }) });
    const seen = new Subject<Seen>();
    const decodeErrors = new Subject<DecodeError>();
    const events: string[] = [];
    const opened: WebSocketLike[] = [];
    const clock = serverClockSampler();
    const sink: FrameSink = (message, now, exact) => seen.next({ message, now, hasExact: exact !== undefined, exact: exact?.() });
    const session$ = socketSession({
      url: PUBLIC_URL,
      Ctor: fake.WebSocketCtor,
      scheduler: testScheduler,
      pingIntervalMs: 1000,
      heartbeatTimeoutMs: 100,
      limits: {},
      clock,
      onOpen: (socket) => {
        opened.push(socket);
        events.push(`open@${testScheduler.now()}`);
      },
      onEnd: (wasOpen, lastSeenAt) => events.push(`end(${wasOpen ? 'open' : 'never opened'}, last seen ${lastSeenAt})@${testScheduler.now()}`),
      onMessage: sink,
      onDecodeError: (error) => decodeErrors.next(error),
      ...settings,
    });
    return { fake, session$, seen, decodeErrors, events, opened, clock };
  }

  describe('open and heartbeats', () => {
    it('announces the open with its socket, pings at once and every pingIntervalMs, and emits nothing', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$, events, opened } = setup({ pingIntervalMs: 10 }, 3);
        expectObservable(session$, '35ms !').toBe('');
        testScheduler.flush();
        expect(events).toEqual(['open@3', 'end(open, last seen 3)@35']);
        expect(opened).toEqual([fake.latest()]);
        expect(fake.latest().sent).toEqual(['{"ping":3}', '{"ping":13}', '{"ping":23}', '{"ping":33}']);
        expect(fake.latest().binaryType).toBe('arraybuffer');
      });
    });

    it('answers a server ping, samples the clock from pongs, and still hands every heartbeat to the sink', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$, seen, clock } = setup();
        fake.at(3, (s) => s.receive({ pong: 10_004 })); // ping at 1, round trip 2: offset 10 004 - (1 + 1)
        fake.at(5, (s) => s.receive({ ping: 1234, channelId: 'c-1' }));
        fake.at(7, (s) => s.receive({ pong: 4, channelId: 'c-1' })); // a private pong: round trip 7 - 4
        expectObservable(session$, '9ms !').toBe('');
        expectObservable(seen, '9ms !').toBe('3ms a 1ms b 1ms c', {
          a: { message: { pong: 10_004 }, now: 3, hasExact: false, exact: undefined },
          b: { message: { ping: 1234, channelId: 'c-1' }, now: 5, hasExact: false, exact: undefined },
          c: { message: { pong: 4, channelId: 'c-1' }, now: 7, hasExact: false, exact: undefined },
        });
        testScheduler.flush();
        expect(fake.latest().sent).toEqual(['{"ping":1}', '{"pong":1234}']);
        expect(clock.offsetMs()).toBe(10_002);
        expect(clock.rttMs()).toBe(3);
      });
    });
  });

  describe('the FrameSink contract', () => {
    const longFrame = `{"i":${LONG_ID},"p":"0.1"}`;

    it.each([['eager' as const], [undefined]])("'eager' (%s; the default) quotes long integer literals before parsing and hands no exact()", (exactIntegers) => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$, seen } = setup({ exactIntegers });
        fake.at(3, (s) => s.receive(longFrame));
        expectObservable(session$, '5ms !').toBe('');
        expectObservable(seen, '5ms !').toBe('3ms a', { a: { message: { i: LONG_ID, p: '0.1' }, now: 3, hasExact: false, exact: undefined } });
      });
    });

    it("'on-demand' parses as is and hands exact(): the frame re-parsed with long integers quoted, undefined when it has none", () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$, seen } = setup({ exactIntegers: 'on-demand' });
        fake.at(3, (s) => s.receive(longFrame));
        fake.at(4, (s) => s.receive('{"i":"12","p":"0.1","t":1700000000123}'));
        fake.at(5, (s) => s.receive(`[{"i":${LONG_ID}},{"i":7}]`));
        expectObservable(session$, '7ms !').toBe('');
        expectObservable(seen, '7ms !').toBe('3ms a b c', {
          a: { message: { i: Number(LONG_ID), p: '0.1' }, now: 3, hasExact: true, exact: { i: LONG_ID, p: '0.1' } },
          b: { message: { i: '12', p: '0.1', t: 1_700_000_000_123 }, now: 4, hasExact: true, exact: undefined },
          c: { message: [{ i: Number(LONG_ID) }, { i: 7 }], now: 5, hasExact: true, exact: [{ i: LONG_ID }, { i: 7 }] },
        });
      });
      expect(String(Number(LONG_ID))).not.toBe(LONG_ID); // the plain parse is indeed rounded
    });

    it("'on-demand' exact() is only valid during the sink's call: the frame is not kept after it", () => {
      testScheduler.run(({ expectObservable }) => {
        let kept: (() => unknown) | undefined;
        const during: unknown[] = [];
        const { fake, session$ } = setup({
          exactIntegers: 'on-demand',
          onMessage: (_message, _now, exact) => {
            kept = exact;
            during.push(exact?.());
          },
        });
        fake.at(3, (s) => s.receive(`{"i":${LONG_ID}}`));
        expectObservable(session$, '5ms !').toBe('');
        testScheduler.flush();
        expect(during).toEqual([{ i: LONG_ID }]);
        expect(kept?.()).toBeUndefined();
      });
    });

    it('inflates zip frames and reports bad frames (not JSON, too large, a zip bomb) as DecodeErrors, going on', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$, seen, decodeErrors, events } = setup({ limits: { maxFrameBytes: 300, maxInflatedBytes: 1000 } });
        fake.at(3, (s) => s.receive('not json'));
        fake.at(4, (s) => s.receive(`"${'x'.repeat(300)}"`));
        fake.at(5, (s) => s.receive(zipText(`"${'x'.repeat(5000)}"`))); // 139 bytes that inflate to 5002
        fake.at(6, (s) => s.receive(zipText('{"a":1}')));
        fake.at(7, (s) => s.receive({ b: 2 }));
        fake.at(9, (s) => s.receive(new Uint8Array([1, 2, 3])));
        expectObservable(session$, '20ms !').toBe('');
        expectObservable(seen, '20ms !').toBe('6ms a b', {
          a: { message: { a: 1 }, now: 6, hasExact: false, exact: undefined },
          b: { message: { b: 2 }, now: 7, hasExact: false, exact: undefined },
        });
        const kinds = new Subject<string>();
        decodeErrors.subscribe((e) => kinds.next(e.kind));
        expectObservable(kinds, '20ms !').toBe('3ms a b c 3ms d', { a: 'json', b: 'frame-too-large', c: 'inflated-too-large', d: 'zip' });
        testScheduler.flush();
        // a bad frame is a frame: the peer is alive, and it dates the end
        expect(events).toEqual(['open@1', 'end(open, last seen 9)@20']);
      });
    });

    it('turns whatever a sink throws into a DecodeError "frame handling failed" (redacted) and keeps the socket going', () => {
      testScheduler.run(({ expectObservable }) => {
        const handled: unknown[] = [];
        const { fake, session$, decodeErrors } = setup({
          url: PRIVATE_URL,
          exactIntegers: 'on-demand',
          onMessage: (message, _now, exact) => {
            if ((message as { boom?: unknown }).boom !== undefined) throw new RangeError(`Maximum call stack size exceeded near ${KEY}`);
            if ((message as { odd?: unknown }).odd !== undefined) throw 'a string';
            handled.push(exact?.() ?? message);
          },
        });
        fake.at(3, (s) => s.receive({ boom: 1 }));
        fake.at(4, (s) => s.receive(`{"a":${LONG_ID}}`));
        fake.at(5, (s) => s.receive({ odd: 1 }));
        fake.at(6, (s) => s.receive({ b: 2 }));
        const states: number[] = [];
        testScheduler.schedule(() => states.push(fake.latest().readyState), 7);
        expectObservable(session$, '8ms !').toBe('');
        expectObservable(decodeErrors, '8ms !').toBe('3ms a 1ms b', {
          a: new DecodeError('codec', 'frame handling failed: RangeError: Maximum call stack size exceeded near ***'),
          b: new DecodeError('codec', 'frame handling failed: string'),
        });
        testScheduler.flush();
        expect(handled).toEqual([{ a: LONG_ID }, { b: 2 }]);
        expect(states).toEqual([1]); // still open after the failures, closed only by the unsubscribe
        expect(fake.latest().closedByClient).toEqual({ code: 1000, reason: undefined });
      });
    });
  });

  describe('ends', () => {
    it('errors with HeartbeatTimeoutError after heartbeatTimeoutMs of silence, aborting the socket (close 4000 without terminate)', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$, events } = setup({ heartbeatTimeoutMs: 25 }, 2);
        fake.at(10, (s) => s.receive({ pong: 1 }));
        fake.at(20, (s) => s.receive({ pong: 2 }));
        expectObservable(session$).toBe('45ms #', undefined, new HeartbeatTimeoutError(25));
        testScheduler.flush();
        expect(fake.latest().closedByClient).toEqual({ code: 4000, reason: 'heartbeat timeout' });
        expect(events).toEqual(['open@2', 'end(open, last seen 20)@45']);
        expect(testScheduler.actions).toHaveLength(0); // the ping timer went with it
      });
    });

    it('after a stall of the process, waits one ping interval for the peer before a silence counts (the late pings tell the stall)', () => {
      testScheduler.run(({ expectObservable }) => {
        // ping 10 (tolerance 1), timeout 25; pongs at 3 and 13. The process stalls from 26 to 39: the ping due at 32
        // runs 7 late (a stall); the check due at 38 runs 1 late (on time) and finds 26 of silence, but the stall
        // ended at 39: deferred by one ping interval. The pong to the ping sent at the stall's end comes at 40.
        const { fake, session$, events } = setup({ pingIntervalMs: 10, heartbeatTimeoutMs: 25, scheduler: stallClock(testScheduler, 26, 13) }, 2);
        for (const at of [3, 13, 40]) fake.at(at, (s) => s.receive({ pong: at }));
        // then silent: found on time, 25 after the pong at 40
        expectObservable(session$).toBe('65ms #', undefined, new HeartbeatTimeoutError(25));
        testScheduler.flush();
        expect(events).toEqual(['open@2', 'end(open, last seen 40)@65']);
      });
    });

    it('counts a socket that never opens as silent, from its construction', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$, events } = setup({ heartbeatTimeoutMs: 25 }, null);
        expectObservable(session$).toBe('25ms #', undefined, new HeartbeatTimeoutError(25));
        testScheduler.flush();
        expect(events).toEqual(['end(never opened, last seen 0)@25']);
        expect(fake.latest().readyState).toBe(3);
      });
    });

    it('errors with the plain ConnectionClosedError when an open socket is closed by the peer', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$, events } = setup();
        fake.at(4, (s) => s.receive({ pong: 1 }));
        fake.at(8, (s) => s.closeFromServer({ code: 4001, reason: 'invalid listen key' }));
        expectObservable(session$).toBe('8ms #', undefined, new ConnectionClosedError(4001, 'invalid listen key', true));
        testScheduler.flush();
        expect(events).toEqual(['open@1', 'end(open, last seen 4)@8']);
        expect(fake.latest().closedByClient).toBeUndefined();
      });
    });

    it('tells what failed and where (the address redacted) when the socket closes before opening', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$, events } = setup({ url: PRIVATE_URL }, null);
        fake.at(2, (s) => s.closeFromServer({ code: 1006 }));
        expectObservable(session$).toBe('2ms #', undefined, new ConnectionClosedError(1006, '', false, { failure: 'closed', address: 'ws://127.0.0.1/api/v1/ws/***' }));
        testScheduler.flush();
        expect(events).toEqual(['end(never opened, last seen 0)@2']);
      });
    });

    it('tells the transport error reported before the close, even on an open socket', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$ } = setup({ url: PRIVATE_URL });
        fake.at(3, (s) => s.onerror?.({ type: 'error', error: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }));
        fake.at(3, (s) => s.closeFromServer({ code: 1006 }));
        expectObservable(session$).toBe(
          '3ms #',
          undefined,
          new ConnectionClosedError(1006, '', false, { failure: 'reset', errorCode: 'ECONNRESET', detail: 'read ECONNRESET', address: 'ws://127.0.0.1/api/v1/ws/***' }),
        );
      });
    });

    it('redacts the listen key from the close reason and cuts it to MAX_CLOSE_REASON_LENGTH', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$ } = setup({ url: PRIVATE_URL });
        const long = `key ${KEY} expired ${'and so on '.repeat(20)}`;
        fake.at(3, (s) => s.closeFromServer({ code: 4002, reason: long }));
        const reason = `key *** expired ${'and so on '.repeat(20)}`.slice(0, MAX_CLOSE_REASON_LENGTH) + '…';
        expectObservable(session$).toBe('3ms #', undefined, new ConnectionClosedError(4002, reason, true));
      });
    });

    it('closes with 1000 on unsubscribe, detaches its handlers and leaves no timer', () => {
      testScheduler.run(({ expectObservable, expectSubscriptions }) => {
        const { fake, session$, events, seen } = setup({ pingIntervalMs: 10 });
        fake.at(3, (s) => s.receive({ a: 1 }));
        expectObservable(session$, '6ms !').toBe('');
        expectObservable(seen).toBe('3ms a', { a: { message: { a: 1 }, now: 3, hasExact: false, exact: undefined } });
        expectSubscriptions(fake.logs).toBe('^ 5ms !');
        testScheduler.flush();
        const socket = fake.latest();
        expect(socket.closedByClient).toEqual({ code: 1000, reason: undefined });
        expect([socket.onopen, socket.onmessage, socket.onclose]).toEqual([null, null, null]);
        expect(() => socket.onerror?.({ type: 'error' })).not.toThrow(); // a late error event is swallowed
        expect(events).toEqual(['open@1', 'end(open, last seen 3)@6']);
        expect(testScheduler.actions).toHaveLength(0);
      });
    });

    it('while connecting, closes the socket on unsubscribe and reports it never opened', () => {
      testScheduler.run(({ expectObservable }) => {
        const { fake, session$, events } = setup({}, null);
        expectObservable(session$, '4ms !').toBe('');
        testScheduler.flush();
        expect(fake.latest().closedByClient).toEqual({ code: 1000, reason: undefined });
        expect(events).toEqual(['end(never opened, last seen 0)@4']);
      });
    });

    it('turns a constructor that throws into a ConfigError on url, redacted, without ending a socket it never had', () => {
      testScheduler.run(({ expectObservable }) => {
        const Ctor = class {
          constructor(url: string) {
            throw new SyntaxError(`The URL '${url}#x' contains a fragment identifier`);
          }
        } as unknown as WebSocketCtor;
        const { session$, events } = setup({ url: PRIVATE_URL, Ctor });
        const errors: unknown[] = [];
        expectObservable(session$).toBe(
          '#',
          undefined,
          new ConfigError('url', "ws://127.0.0.1/api/v1/ws/*** cannot be opened as a websocket (SyntaxError: The URL 'ws://127.0.0.1/api/v1/ws/***#x' contains a fragment identifier)"),
        );
        session$.subscribe({ error: (e: unknown) => errors.push(e) });
        testScheduler.flush();
        expect(events).toEqual([]);
        expect(errors[0]).toBeInstanceOf(ConfigError);
        expectNoKey(String(errors[0]));
      });
    });
  });

  describe('with ws on 127.0.0.1', () => {
    let server: WebSocketServer;
    let url: string;
    beforeEach(async () => {
      server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/quote/ws/v1`;
    });
    afterEach(async () => {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    /** A real session: resolves `frames` once `count` messages reached the sink; `ended` with its error. */
    function realSession(count: number, exactIntegers?: 'eager' | 'on-demand', heartbeatTimeoutMs = 60_000) {
      const seen: Seen[] = [];
      const decodeErrors: DecodeError[] = [];
      const ends: boolean[] = [];
      let socket: WebSocketLike | undefined;
      let resolveFrames: () => void = () => undefined;
      const frames = new Promise<void>((resolve) => (resolveFrames = resolve));
      let resolveEnded: (e: unknown) => void = () => undefined;
      const ended = new Promise<unknown>((resolve) => (resolveEnded = resolve));
      const subscription = socketSession({
        url,
        Ctor: WebSocket as unknown as WebSocketCtor,
        scheduler: asyncScheduler,
        pingIntervalMs: 60_000,
        heartbeatTimeoutMs,
        limits: {},
        clock: serverClockSampler(),
        onOpen: (s) => (socket = s),
        onEnd: (wasOpen) => ends.push(wasOpen),
        onMessage: (message, now, exact) => {
          seen.push({ message, now, hasExact: exact !== undefined, exact: exact?.() });
          if (seen.length === count) resolveFrames();
        },
        onDecodeError: (e) => decodeErrors.push(e),
        exactIntegers,
      }).subscribe({ error: (e: unknown) => resolveEnded(e) });
      return { seen, decodeErrors, ends, frames, ended, subscription, socket: () => socket };
    }

    /** The next connection's socket, once the client's first ping arrived (the client saw its open). */
    const nextClient = (): Promise<{ socket: import('ws').WebSocket; firstFrame: string }> =>
      new Promise((resolve) =>
        server.once('connection', (socket) => socket.once('message', (data) => resolve({ socket, firstFrame: String(data) }))),
      );

    it("reads ws's own 'message' event: text frames arrive as Buffers, zip frames as binary, long ids made exact on demand", async () => {
      const client = nextClient();
      const session = realSession(3, 'on-demand');
      const { socket, firstFrame } = await client;
      expect(firstFrame).toMatch(/^\{"ping":\d+\}$/);
      const pong = new Promise<string>((resolve) => socket.once('message', (data) => resolve(String(data))));
      socket.send('{"a":1}');
      socket.send(Buffer.from(zipText(`{"i":${LONG_ID}}`)), { binary: true });
      socket.send('{"ping":1234,"channelId":"c"}');
      await session.frames;
      expect(session.seen.map(({ message, exact }) => ({ message, exact }))).toEqual([
        { message: { a: 1 }, exact: undefined },
        { message: { i: Number(LONG_ID) }, exact: { i: LONG_ID } },
        { message: { ping: 1234, channelId: 'c' }, exact: undefined },
      ]);
      expect(session.decodeErrors).toEqual([]);
      // the `ws` path: no MessageEvent handler set, binary frames as Buffers
      expect(session.socket()?.onmessage).toBeNull();
      expect(session.socket()?.binaryType).toBe('nodebuffer');
      expect(await pong).toBe('{"pong":1234}');
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      session.subscription.unsubscribe();
      expect(await closed).toBe(1000);
      expect(session.ends).toEqual([true]);
    });

    it('ends with ConnectionClosedError when the server closes, and reports bad frames without closing', async () => {
      const client = nextClient();
      const session = realSession(1);
      const { socket } = await client;
      socket.send('{"broken":');
      socket.send(`{"i":${LONG_ID}}`);
      await session.frames;
      socket.close(4001, 'invalid listen key');
      const error = await session.ended;
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect(error).toMatchObject({ code: 4001, reason: 'invalid listen key', wasClean: true });
      expect(session.seen.map((s) => s.message)).toEqual([{ i: LONG_ID }]); // eager: exact from the start
      expect(session.decodeErrors.map((e) => e.kind)).toEqual(['json']);
      expect(session.ends).toEqual([true]);
    });

    it('terminates a silent ws socket at the heartbeat timeout (no closing handshake: the server sees 1006)', async () => {
      const client = nextClient();
      const session = realSession(1, 'eager', 150);
      const { socket } = await client;
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      const error = await session.ended;
      expect(error).toBeInstanceOf(HeartbeatTimeoutError);
      expect((error as HeartbeatTimeoutError).silentForMs).toBeGreaterThanOrEqual(150);
      expect(await closed).toBe(1006);
      expect(session.ends).toEqual([true]);
    });
  });
});

describe('urlSecrets', () => {
  it('is the segment after /ws/, as written and percent-decoded', () => {
    expect(urlSecrets(PRIVATE_URL)).toEqual([KEY]);
    expect(urlSecrets(`wss://h/api/v1/ws/${KEY}?x=1#y`)).toEqual([KEY]);
    expect(urlSecrets('wss://h/api/v1/ws/ab%2Bcd/more')).toEqual(['ab%2Bcd', 'ab+cd']);
  });

  it('keeps a malformed escape as written, and finds nothing without a /ws/ segment', () => {
    expect(urlSecrets('wss://h/api/v1/ws/ab%E0%A4cd')).toEqual(['ab%E0%A4cd']);
    expect(urlSecrets('wss://h/quote/v1')).toEqual([]);
    expect(urlSecrets('wss://h/ws/')).toEqual([]);
  });
});

describe('closeReason', () => {
  it('redacts the secrets and cuts the reason to MAX_CLOSE_REASON_LENGTH characters plus an ellipsis', () => {
    expect(closeReason('bye', [])).toBe('bye');
    expect(closeReason(`key ${KEY} expired`, [KEY])).toBe('key *** expired');
    const words = 'going away '.repeat(50);
    expect(closeReason(words, [])).toBe(`${words.slice(0, MAX_CLOSE_REASON_LENGTH)}…`);
    const fits = words.slice(0, MAX_CLOSE_REASON_LENGTH);
    expect(closeReason(fits, [])).toBe(fits);
  });

  it('reads anything that is not text as an empty reason', () => {
    expect(closeReason(undefined, [])).toBe('');
    expect(closeReason(42 as unknown as string, [])).toBe('');
  });
});

describe('handlerFailure', () => {
  it('describes an Error by name and message, anything else by its type, as a codec DecodeError', () => {
    const fromError = handlerFailure(new TypeError('x is not a function'), []);
    expect(fromError).toBeInstanceOf(DecodeError);
    expect(fromError).toMatchObject({ kind: 'codec', message: 'frame handling failed: TypeError: x is not a function', paths: [] });
    expect(fromError.raw).toBeUndefined();
    expect(handlerFailure({ secret: KEY }, []).message).toBe('frame handling failed: object');
    expect(handlerFailure(undefined, []).message).toBe('frame handling failed: undefined');
  });

  it('redacts the secrets, cuts the description to 120 characters and survives a hostile error', () => {
    expect(handlerFailure(new Error(`bad ${KEY}`), [KEY]).message).toBe('frame handling failed: Error: bad ***');
    const words = 'cannot read this '.repeat(30);
    expect(handlerFailure(new Error(words), []).message).toBe(`frame handling failed: ${`Error: ${words}`.slice(0, 120)}…`);
    const hostile = new Error('boom');
    Object.defineProperty(hostile, 'message', { get: () => { throw new Error('no'); } });
    expect(handlerFailure(hostile, []).message).toBe('frame handling failed: unknown');
  });
});
