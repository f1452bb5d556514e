import * as fc from 'fast-check';
import { defer, EMPTY, map, of, skip, take, throwError, type SchedulerAction } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { ConfigError, EventTimeOutOfRangeError, RateLimitedError, RequestRejectedError } from '../../lib/errors';
import { fakeWebSocket } from '../../lib/testing/fakeWebSocket';
import type { ListenKeyApi } from '../../lib/user/listenKey';
import { userStream, type UserStreamConfig } from '../../lib/user/userStream';
import { account, connectionOf, fakeUserStream, report, ticket } from './fixtures';

const URL = 'ws://127.0.0.1:1/api/v1/ws';

describe('userStream', () => {
  let testScheduler: TestScheduler;
  beforeEach(() => {
    testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
  });

  const setup = (over: Partial<UserStreamConfig> = {}) => fakeUserStream(testScheduler, over);

  /** A fake listen-key API handing out key-1, key-2, … and recording the calls. */
  const fakeRest = () => {
    const calls: string[] = [];
    let n = 0;
    const api: ListenKeyApi = {
      createListenKey: () => defer(() => of(`key-${++n}`)),
      extendListenKey: (key) => defer(() => (calls.push(`PUT ${key}`), EMPTY)),
      closeListenKey: (key) => defer(() => (calls.push(`DELETE ${key}`), EMPTY)),
    };
    return { api, calls };
  };

  it('connects to url/{key} and decodes every element of a frame; a bad element goes to errors$', () => {
    testScheduler.run(({ expectObservable }) => {
      const { ws, user } = setup();
      ws.at(3, (s) =>
        s.receive([report({ i: '7', E: 10 }), { e: 'executionReport', E: 11, i: 'x' }, ticket('55', { E: 12 })]),
      );
      expectObservable(user.events$.pipe(map((e) => `${e.e}@${e.E}`)), '^ 20ms !').toBe('--------(ab)', {
        a: 'executionReport@10',
        b: 'ticketInfo@12',
      });
      expectObservable(user.errors$.pipe(map((e) => e.name)), '^ 20ms !').toBe('---e', { e: 'DecodeError' });
      testScheduler.schedule(() => expect(ws.sockets.map((s) => s.url)).toEqual([`${URL}/key-1`]), 2);
    });
  });

  it('orders events by E and drops duplicates (events$, per-kind streams, folds)', () => {
    testScheduler.run(({ expectObservable }) => {
      const { ws, user } = setup();
      const late = report({ i: '1', X: 'FILLED', z: '1', Z: '100', E: 30, U: 30 });
      const first = report({ i: '1', X: 'NEW', E: 20, U: 20 });
      ws.at(3, (s) => s.receive([late]));
      ws.at(4, (s) => s.receive([first, account(25, [['BTC', '1', '0']])]));
      ws.at(5, (s) => s.receive([late, first]));
      expectObservable(user.events$.pipe(map((e) => e.E)), '^ 20ms !').toBe('--------(abc)', { a: 20, b: 25, c: 30 });
      expectObservable(user.executionReports$.pipe(map((e) => e.X)), '^ 20ms !').toBe('--------(ab)', {
        a: 'NEW',
        b: 'FILLED',
      });
      // The states fold on arrival (no hold): the late FILLED at 3 is the order's state at once, and the NEW that
      // arrives after it changes nothing (an order never moves backwards).
      expectObservable(user.orders$.pipe(map((o) => o.get('1')?.status)), '^ 20ms !').toBe('---a', { a: 'FILLED' });
      expectObservable(user.balances$.pipe(map((b) => b.get('BTC')?.free)), '^ 20ms !').toBe('----a', { a: '1' });
      // a late subscriber gets the current state at once
      expectObservable(user.orders$.pipe(map((o) => o.get('1')?.status)), '----------^ 5ms !').toBe('----------a', {
        a: 'FILLED',
      });
    });
  });

  it('drops a report only when i, X, z and U all repeat; a dedupeKey in `reorder` replaces the default', () => {
    testScheduler.run(({ expectObservable }) => {
      const a = report({ i: '1', X: 'NEW', z: '0', E: 20, U: 20 });
      const frames = [
        a,
        { ...a, E: 21 }, // same U: a duplicate
        { ...a, E: 21, U: 21 },
        { ...a, E: 22, i: '2' },
        { ...a, E: 23, X: 'PARTIALLY_FILLED' },
        { ...a, E: 24, z: '0.5' },
        report({ i: '3', E: 25 }), // the same report twice
        report({ i: '3', E: 25 }),
      ];
      const byDefault = setup();
      byDefault.ws.at(3, (s) => s.receive(frames));
      expectObservable(byDefault.user.events$.pipe(map((e) => e.E)), '^ 20ms !').toBe('--------(abcdef)', {
        a: 20, b: 21, c: 22, d: 23, e: 24, f: 25,
      });
      const none = setup({ reorder: { maxDelayMs: 5, dedupeKey: undefined } });
      none.ws.at(3, (s) => s.receive(frames));
      expectObservable(none.user.events$.pipe(map((e) => e.E)), '^ 20ms !').toBe('--------(abcdefgh)', {
        a: 20, b: 21, c: 21, d: 22, e: 23, f: 24, g: 25, h: 25,
      });
      const byOrder = setup({ reorder: { maxDelayMs: 5, dedupeKey: (e) => (e.e === 'executionReport' ? e.i : e.e) } });
      byOrder.ws.at(3, (s) => s.receive(frames));
      expectObservable(byOrder.user.events$.pipe(map((e) => e.E)), '^ 20ms !').toBe('--------(abc)', { a: 20, b: 22, c: 25 });
    });
  });

  it('keeps one socket for every subscriber and closes it after the last unsubscribe; status$ and errors$ only observe', () => {
    testScheduler.run(({ expectObservable, expectSubscriptions, flush }) => {
      const { ws, user } = setup();
      expectObservable(connectionOf(user).pipe(map((s) => `${s.type}${s.epoch}`)), '^ 20ms !').toBe('x-ab-----c', {
        x: 'closed0',
        a: 'connecting0',
        b: 'open1',
        c: 'closed1',
      });
      expectObservable(user.events$, '--^---!').toBe('');
      expectObservable(user.orders$, '---^-----!').toBe('');
      expectObservable(connectionOf(user).pipe(map((s) => s.type)), '----^--------!').toBe('----a----b', { a: 'open', b: 'closed' });
      expectObservable(user.errors$, '^ 20ms !').toBe('');
      flush();
      // status$ and errors$ subscribed alone at 0 start nothing; events$ opens at 2, orders$ keeps it until 9
      expectSubscriptions(ws.logs).toBe(['--^------!']);
    });
  });

  it('moves the socket to the new path when the key changes, with a gap', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions, flush }) => {
      const keys = cold('k-----l', { k: 'key-1', l: 'key-2' });
      const { ws, user } = setup({ listenKey$: keys });
      expectObservable(user.events$, '^ 30ms !').toBe('');
      ws.at(4, (s) => s.receive({ pong: 4 })); // the last frame of key-1's socket: the gap starts there
      expectObservable(connectionOf(user).pipe(map((s) => `${s.type}${s.epoch}`)), '^ 20ms !').toBe('ab----cd', {
        a: 'connecting0',
        b: 'open1',
        c: 'connecting1',
        d: 'open2',
      });
      expectObservable(user.gaps$, '^ 20ms !').toBe('-------g', {
        g: { epoch: 2, downSince: 4, reconnectedAt: 7, keyChanged: true },
      });
      flush();
      expectSubscriptions(ws.logs).toBe(['^-----!', '------^------------------------!']);
      expect(ws.sockets.map((s) => s.url)).toEqual([`${URL}/key-1`, `${URL}/key-2`]);
    });
  });

  it('recreates the key when the socket is closed with 4001, and never shows the key', () => {
    const { api, calls } = fakeRest();
    const seen: string[] = [];
    testScheduler.run(({ expectObservable, flush }) => {
      const { ws, user } = setup({ listenKey$: undefined, rest: api });
      ws.at(3, (s) => s.closeFromServer({ code: 4001, reason: `listen key key-1 expired (${URL}/key-1)` }));
      // key-1's socket opened at 1 and delivered nothing: the gap starts at its open
      expectObservable(user.gaps$, '^ 20ms !').toBe('----g', {
        g: { epoch: 2, downSince: 1, reconnectedAt: 4, keyChanged: true },
      });
      const subs = [
        user.events$.subscribe(),
        user.errors$.subscribe((e) => seen.push(`${e.name}: ${e.message} ${JSON.stringify(e)}`)),
        connectionOf(user).subscribe((s) => seen.push(JSON.stringify(s) + ('cause' in s && s.cause ? s.cause.message : ''))),
      ];
      testScheduler.schedule(() => subs.forEach((sub) => sub.unsubscribe()), 20);
      flush();
      expect(ws.sockets.map((s) => s.url)).toEqual([`${URL}/key-1`, `${URL}/key-2`]);
    });
    expect(calls).toEqual(['DELETE key-2']);
    expect(seen.some((line) => line.includes('4001'))).toBe(true);
    expect(seen.join('\n')).not.toMatch(/key-\d/);
  });

  it('reconnects with a growing delay when a dead key is recreated as the same key', () => {
    const closes: number[] = [];
    testScheduler.run(({ expectObservable, flush }) => {
      const api: ListenKeyApi = {
        createListenKey: () => of('key-1'),
        extendListenKey: () => EMPTY,
        closeListenKey: () => EMPTY,
      };
      // (forced recreations without a wait of their own here: only the same-key reconnection delay is measured)
      // random: () => 1: the backoff's full cap, so the delays are exact
      const { ws, user } = setup({
        listenKey$: undefined,
        rest: api,
        listenKeyOptions: { random: () => 0 },
        connection: { reconnect: { minDelayMs: 4, random: () => 1 } },
      });
      // the service closes every socket with 4001 right after it opens, and keeps answering with key-1
      testScheduler.schedule(function (this: SchedulerAction<unknown>) {
        const s = ws.sockets[ws.sockets.length - 1];
        if (s !== undefined && s.readyState === 1) {
          closes.push(testScheduler.now());
          s.closeFromServer({ code: 4001 });
        }
        if (testScheduler.now() < 40) this.schedule(undefined, 1);
      }, 0);
      expectObservable(user.gaps$.pipe(map((g) => g.keyChanged)), '^ 40ms !').toBe('------a--------b----------------c', {
        a: false,
        b: false,
        c: false,
      });
      const sub = user.events$.subscribe();
      testScheduler.schedule(() => sub.unsubscribe(), 40);
      flush();
      expect(ws.sockets.map((s) => s.url)).toEqual(Array(ws.sockets.length).fill(`${URL}/key-1`));
    });
    // each new socket opens 1 ms after it is made; it is made after 4 ms (minDelayMs), then 8, then 16: never a tight loop
    expect(closes.slice(0, 4)).toEqual([1, 1 + 1 + 4, 6 + 1 + 8, 15 + 1 + 16]);
  });

  it('jitters the same-key reconnection delay with the reconnect policy (random, factor, cap)', () => {
    const closes: number[] = [];
    testScheduler.run(({ flush }) => {
      const api: ListenKeyApi = { createListenKey: () => of('key-1'), extendListenKey: () => EMPTY, closeListenKey: () => EMPTY };
      const { ws, user } = setup({
        listenKey$: undefined,
        rest: api,
        listenKeyOptions: { random: () => 0 },
        connection: { reconnect: { minDelayMs: 8, maxDelayMs: 20, factor: 3, random: () => 0.5 } },
      });
      testScheduler.schedule(function (this: SchedulerAction<unknown>) {
        const s = ws.sockets[ws.sockets.length - 1];
        if (s !== undefined && s.readyState === 1) {
          closes.push(testScheduler.now());
          s.closeFromServer({ code: 4001 });
        }
        if (testScheduler.now() < 60) this.schedule(undefined, 1);
      }, 0);
      const sub = user.events$.subscribe();
      testScheduler.schedule(() => sub.unsubscribe(), 60);
      flush();
    });
    // waits 0.5 × min(20, 8 × 3^(n-1)): 4, then 10 (the cap 20 halved), then 10
    expect(closes.slice(0, 4)).toEqual([1, 1 + 1 + 4, 6 + 1 + 10, 17 + 1 + 10]);
  });

  it('recreates the key after repeated failures before open', () => {
    const { api } = fakeRest();
    testScheduler.run(({ flush }) => {
      const ws = fakeWebSocket({ scheduler: testScheduler });
      const user = userStream({
        url: URL,
        rest: api,
        WebSocketCtor: ws.WebSocketCtor,
        scheduler: testScheduler,
        suspectKeyAfterFailures: 2,
        connection: { reconnect: { minDelayMs: 4, factor: 1, random: () => 0.5 } },
      });
      const sub = user.events$.subscribe();
      // every socket of key-1 is refused before it opens
      for (const t of [1, 4, 7]) ws.at(t, (s) => (s.url.endsWith('key-1') ? s.closeFromServer({ code: 1006 }) : s.open()));
      testScheduler.schedule(() => sub.unsubscribe(), 20);
      flush();
      expect(ws.sockets.map((s) => s.url.slice(-5))).toEqual(['key-1', 'key-1', 'key-2']);
    });
  });

  it('signals a gap after a reconnect on the same key', () => {
    testScheduler.run(({ expectObservable }) => {
      const { ws, user } = setup();
      expectObservable(user.events$.pipe(map((e) => e.E)), '^ 30ms !').toBe('--------a', { a: 3 });
      ws.at(3, (s) => s.receive([report({ i: '7', E: 3 })])); // the last frame before the loss
      ws.at(5, (s) => s.closeFromServer({ code: 1006 }));
      expectObservable(user.gaps$, '^ 20ms !').toBe('--------g', {
        g: { epoch: 2, downSince: 3, reconnectedAt: 8, keyChanged: false },
      });
      expectObservable(connectionOf(user).pipe(map((s) => `${s.type}${s.epoch}`)), '^ 20ms !').toBe('ab---c-de', {
        a: 'connecting0',
        b: 'open1',
        c: 'reconnecting1',
        d: 'connecting1',
        e: 'open2',
      });
    });
  });

  it.each([
    ['E minus the offset when the api gives no error', undefined, 10 * 60_000 + 30, 30],
    ['the earliest local time E can stand for when it does (minus the offset and its error)', 25, 10 * 60_000 + 30, 5],
  ])('dates the gap from a frame read late by its E, on the local clock: %s', (_, error, E, downSince) => {
    const api: ListenKeyApi = {
      createListenKey: () => of('key-1'),
      extendListenKey: () => EMPTY,
      closeListenKey: () => EMPTY,
      serverTimeOffsetMs: () => 10 * 60_000, // the server's clock is 10 minutes ahead of ours, ± 25 ms
      ...(error !== undefined && { serverTimeOffsetErrorMs: () => error }),
    };
    testScheduler.run(({ expectObservable }) => {
      const { ws, user } = setup({ listenKey$: undefined, rest: api });
      // written at local 30 (E: server time), read at 40; the socket is lost at 45
      ws.at(40, (s) => s.receive([report({ i: '7', E })]));
      ws.at(45, (s) => s.closeFromServer({ code: 1006 }));
      expectObservable(user.events$.pipe(map((e) => e.e)), '^ 100ms !').toBe('45ms a', { a: 'executionReport' }); // after the reorder hold
      expectObservable(user.gaps$.pipe(map((g) => [g.downSince, g.reconnectedAt])), '^ 100ms !').toBe('48ms g', { g: [downSince, 48] });
    });
  });

  it('ignores heartbeats and reports non-event messages', () => {
    testScheduler.run(({ expectObservable }) => {
      const { ws, user } = setup();
      ws.at(2, (s) => s.receive({ ping: 5, channelId: 'c' }));
      ws.at(3, (s) => s.receive({ pong: 1, channelId: 'c' }));
      ws.at(4, (s) => s.receive('"hello"'));
      expectObservable(user.errors$.pipe(map((e) => e.name)), '^ 20ms !').toBe('----e', { e: 'DecodeError' });
      expectObservable(user.events$, '^ 20ms !').toBe('');
    });
  });

  it('never ends on a rejected key creation: errors$ and status$ tell, the creation is retried until a key comes', () => {
    const rejected = new RequestRejectedError(401, -1002, 'You are not authorized to execute this request.');
    const noKey = new RequestRejectedError(200, undefined, 'response has no listenKey');
    const answers = [rejected, noKey, new RateLimitedError(418, 20), 'key-1'];
    let n = 0;
    const api: ListenKeyApi = {
      createListenKey: () =>
        defer(() => {
          const answer = answers[Math.min(n++, answers.length - 1)]!;
          return typeof answer === 'string' ? of(answer) : throwError(() => answer);
        }),
      extendListenKey: () => EMPTY,
      closeListenKey: () => EMPTY,
    };
    testScheduler.run(({ expectObservable }) => {
      const { user } = setup({ listenKey$: undefined, rest: api, listenKeyOptions: { retryDelayMs: 2, random: () => 1 } });
      expectObservable(user.errors$.pipe(map((e) => e.name)), '^ 40ms !').toBe('a-b---c', {
        a: 'RequestRejectedError',
        b: 'RequestRejectedError',
        c: 'RateLimitedError',
      });
      // waits 2, 4, then 20 (Retry-After beats the 8 of the backoff); the key comes at 26, the socket opens at 27
      const shown$ = connectionOf(user).pipe(map((s) => `${s.type}:${'cause' in s && s.cause ? s.cause.name : ''}`));
      // at once: the replayed `closed`, then the start (`connecting` while the key is created)
      expectObservable(shown$.pipe(take(2)), '^ 40ms !').toBe('(xy|)', { x: 'closed:', y: 'connecting:' });
      expectObservable(shown$.pipe(skip(2)), '^ 40ms !').toBe(
        'a-b---c 19ms de',
        { a: 'reconnecting:RequestRejectedError', b: 'reconnecting:RequestRejectedError', c: 'reconnecting:RateLimitedError', d: 'connecting:', e: 'open:' },
      );
      expectObservable(user.events$, '^ 40ms !').toBe('');
    });
  });

  it('reconnects a socket closed with any 4000-4999 code but 4001, on the same key; the reason shows no key', () => {
    testScheduler.run(({ expectObservable }) => {
      const { ws, user } = setup();
      ws.at(3, (s) => s.closeFromServer({ code: 4002, reason: `listenKey=key-1 too slow, path ${URL}/key-1, key key-1` }));
      expectObservable(user.events$, '^ 30ms !').toBe('');
      expectObservable(connectionOf(user).pipe(map((s) => `${s.type}${s.epoch}`)), '^ 20ms !').toBe('ab-c-de', {
        a: 'connecting0',
        b: 'open1',
        c: 'reconnecting1',
        d: 'connecting1',
        e: 'open2',
      });
      const seen: string[] = [];
      const sub = user.errors$.subscribe((e) => seen.push(`${e.message} ${JSON.stringify(e)} ${e.stack ?? ''}`));
      testScheduler.schedule(() => sub.unsubscribe(), 20);
      testScheduler.schedule(() => {
        expect(ws.sockets.map((s) => s.url)).toEqual([`${URL}/key-1`, `${URL}/key-1`]);
        expect(seen.join()).toContain('4002');
        expect(seen.join()).not.toContain('key-1');
      }, 10);
    });
  });

  it('redacts the listen key, whole or cut, from decode errors (paths, raw, message) and from a fatal error', () => {
    const key = 'Kx9fQ2mZ7pL4vB8nR1tY6wE3uI5oA0sD2fG4hJ6kL8zX1cV3bN5mQ7wE9rT2yU4i';
    const seen: Error[] = [];
    let fatal: unknown;
    testScheduler.run(({ flush }) => {
      const { ws, user } = setup({
        listenKey$: of(key),
        connection: { reconnect: { minDelayMs: 4, random: () => 0.5, maxRetries: 0 } },
      });
      ws.at(2, (s) => s.receive([{ e: 'executionReport', E: 2, i: key, X: key.slice(0, 40), s: { listenKey: key } }]));
      ws.at(3, (s) => s.closeFromServer({ code: 4003, reason: `bye ${key.slice(10, 50)}` }));
      user.errors$.subscribe({ next: (e) => seen.push(e), error: () => undefined }); // maxRetries 0: the caller's own end
      user.events$.subscribe({ error: (e: unknown) => (fatal = e) });
      flush();
    });
    const text = (e: unknown) => {
      const error = e as Error & { paths?: string[]; raw?: string };
      return [error.message, error.stack, JSON.stringify(error), ...(error.paths ?? []), error.raw ?? ''].join('\n');
    };
    // the decode error, the lost socket, then the fatal error again (the caller's maxRetries: 0 ended the stream)
    expect(seen.map((e) => e.name)).toEqual(['DecodeError', 'ConnectionClosedError', 'ConnectionClosedError']);
    expect(fatal).toBeInstanceOf(Error);
    for (const e of [...seen, fatal]) {
      for (let i = 0; i + 8 <= key.length; i++) expect(text(e)).not.toContain(key.slice(i, i + 8));
    }
  });

  it('drops an event whose E is further than maxEventTimeSkewMs from the server-corrected clock, and reports it', () => {
    const DAY = 86_400_000;
    const api: ListenKeyApi = {
      createListenKey: () => of('key-1'),
      extendListenKey: () => EMPTY,
      closeListenKey: () => EMPTY,
      serverTimeOffsetMs: () => 10 * 60_000, // the server's clock is 10 minutes ahead of ours
    };
    testScheduler.run(({ expectObservable }) => {
      const { ws, user } = setup({ listenKey$: undefined, rest: api, maxEventTimeSkewMs: 60_000 });
      const ahead = 10 * 60_000; // E of an event sent now by that server
      ws.at(2, (s) => s.receive([account(ahead + DAY, [['BTC', '999', '0']])]));
      ws.at(3, (s) => s.receive([account(ahead + 3, [['BTC', '1', '0']]), report({ i: '1', E: ahead - 2 * 60_000, U: 1 })]));
      ws.at(7, (s) => s.receive([account(ahead + 4, [['BTC', '2', '0']]), report({ i: '2', E: ahead + 1 })]));
      expectObservable(user.balances$.pipe(map((b) => b.get('BTC')?.free)), '^ 20ms !').toBe('---a---b', { a: '1', b: '2' });
      expectObservable(user.events$.pipe(map((e) => e.E! - ahead)), '^ 20ms !').toBe('--------(ab)c', { a: 1, b: 3, c: 4 });
      expectObservable(
        user.errors$.pipe(map((e) => (e instanceof EventTimeOutOfRangeError ? `${e.eventType} ${e.eventTime - e.clockTime}` : e.name))),
        '^ 20ms !',
      ).toBe('--ab', { a: `outboundAccountInfo ${DAY - 2}`, b: `executionReport ${-2 * 60_000 - 3}` });
    });
  });

  it('folds any mix of sane and absurd events into the state of the sane events alone (property)', () => {
    const DAY = 86_400_000;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: 2, max: 30 }),
            absurd: fc.boolean(),
            shift: fc.integer({ min: -50, max: 50 }),
            far: fc.constantFrom(-DAY, DAY, 3 * DAY, -40 * DAY),
            free: fc.integer({ min: 0, max: 99 }),
            order: fc.boolean(),
          }),
          { maxLength: 25 },
        ),
        (plan) => {
          const numbered = plan.map((p, n) => ({ ...p, n }));
          const run = (events: typeof numbered) => {
            const scheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
            let balances: unknown;
            let orders: unknown;
            scheduler.run(() => {
              const ws = fakeWebSocket({ scheduler, autoOpenMs: 1 });
              const user = userStream({
                url: URL,
                listenKey$: of('key-1'),
                WebSocketCtor: ws.WebSocketCtor,
                scheduler,
                reorder: { maxDelayMs: 5 },
                maxEventTimeSkewMs: 1000,
              });
              events.forEach((p) => {
                const E = 100 + p.at + p.shift + (p.absurd ? p.far : 0);
                const event = p.order
                  ? report({ i: String(p.n % 3), X: 'NEW', E, U: E, p: `${p.free}` })
                  : account(E, [['BTC', String(p.free), '0']]);
                ws.at(p.at, (s) => s.receive([event]));
              });
              const subs = [
                user.balances$.subscribe((b) => (balances = b)),
                user.orders$.subscribe((o) => (orders = o)),
              ];
              scheduler.schedule(() => subs.forEach((sub) => sub.unsubscribe()), 100);
            });
            return { balances: balances === undefined ? undefined : [...(balances as Map<string, unknown>)], orders: orders === undefined ? undefined : [...(orders as Map<string, unknown>)] };
          };
          expect(run(numbered)).toEqual(run(numbered.filter((p) => !p.absurd)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('requires rest or listenKey$', () => {
    expect(() => userStream({ url: URL })).toThrow('rest or listenKey$ is required');
  });

  it('refuses a url that holds a key placeholder or ends in a key, saying what to pass, without repeating the key', () => {
    const listenKey$ = of('key-1');
    const key = 'xY7kP2mQ9vL4nR8sT1wZ3bC6dF5gH0jK2mN4pQ6rS8tV0wX2yZ4aB6cD8eF0gHi';
    const refused = (url: string): ConfigError => {
      try {
        userStream({ url, listenKey$ });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error(`${url} accepted`);
    };
    for (const url of [
      'ws://127.0.0.1:9000/api/v1/ws/{listenKey}',
      'ws://127.0.0.1:9000/api/v1/ws/<listenKey>',
      'ws://127.0.0.1:9000/api/v1/ws/:listenKey',
      'wss://stream.example.com/api/v1/ws/%7BlistenKey%7D',
    ]) {
      expect(refused(url)).toMatchObject({ name: 'ConfigError', option: 'url' });
      expect(refused(url).message).toMatch(/^url holds a listen-key placeholder: pass the base address without the key \(e\.g\. wss:\/\/host\/api\/v1\/ws\)/);
    }
    const keyed = refused(`wss://stream.example.com/api/v1/ws/${key}`);
    expect(keyed).toMatchObject({ name: 'ConfigError', option: 'url' });
    expect(keyed.message).toMatch(/^url seems to end in a listen key: pass the base address/);
    expect(keyed.message).not.toContain(key.slice(0, 8));
    // base addresses (a port, a trailing slash, a short last segment) are accepted
    for (const url of ['ws://127.0.0.1:9000/api/v1/ws', 'wss://stream.example.com/api/v1/ws/', 'wss://h/ws', 'wss://h:443/private/ws']) {
      expect(() => userStream({ url, listenKey$ })).not.toThrow();
    }
  });
});

