import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import { filter, firstValueFrom, of, Subject, type Subscription } from 'rxjs';
import { WebSocket, WebSocketServer } from 'ws';
import type { PrivateEvent } from '../../lib/codecs/privateEvents';
import type { TradeRecord } from '../../lib/codecs/trade';
import { ConnectionClosedError, DecodeError } from '../../lib/errors';
import { marketStreams } from '../../lib/market/marketStreams';
import type { WebSocketCtor } from '../../lib/socket/webSocketLike';
import { outboundAccountInfo, ticketInfo } from '../../lib/testing/privateMessages';
import { tradeEnvelope, tradeRecord } from '../../lib/testing/publicMessages';
import { userStream } from '../../lib/user/userStream';
import { zipBytes, zipText } from '../helpers/zipFrames';
import { leakedParts } from './leakedParts';

/**
 * The hostile-frame corpus, through the public API against a real `ws` server on 127.0.0.1: each hostile
 * frame is followed by a valid one. For every frame the process survives (no uncaught exception), the
 * error arrives on `errors$` as one typed `DecodeError` with bounded paths, the valid frame after it is
 * delivered, and the time it takes is bounded. Data is generated here, not stored.
 */

const LISTEN_KEY = 'Xc7Lq0Tz1pR9vMfW3kYb8nHd2sJg5aQe6uVt4oPi0lKr7yBm1wNx3zCf9hGj';
const Ctor = WebSocket as unknown as WebSocketCtor;
const ID_40 = '1234567890123456789012345678901234567890';

const nestedArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
/** 2 000 000 bad records (`1`): 4 000 000 characters, under the 4 MiB frame limit. */
const badRecords = (): string => Array(2_000_000).fill('1').join(',');

/** A websocket server on an ephemeral port of 127.0.0.1 that hands each connection to `onConnection`. */
async function startServer(onConnection: (socket: WebSocket, path: string) => void): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket, request) => onConnection(socket, request.url ?? ''));
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

/** Time of a `JSON.parse` of `text` (the yardstick of the work per frame). */
function parseMs(text: string): number {
  const started = performance.now();
  JSON.parse(text);
  return performance.now() - started;
}

const uncaught: unknown[] = [];
const onUncaught = (e: unknown): void => void uncaught.push(e);
beforeAll(() => process.on('uncaughtException', onUncaught));
afterAll(() => process.off('uncaughtException', onUncaught));

/** The invariants of one error of a hostile frame: typed, bounded, and never the listen key. */
function expectBounded(error: Error): void {
  expect(error).toBeInstanceOf(DecodeError);
  const e = error as DecodeError;
  expect(e.paths.join('\n').length).toBeLessThan(2048);
  expect((e.raw ?? '').length).toBeLessThanOrEqual(301);
  expect(e.message.length).toBeLessThan(300);
  for (const text of [...e.paths, e.message, e.raw ?? '']) expect(leakedParts(text, LISTEN_KEY)).toEqual([]);
}

interface Case {
  readonly name: string;
  readonly frame: () => string | Uint8Array;
  /** Send as a binary frame (a zip). */
  readonly binary?: boolean;
  /** Errors expected on `errors$` (default 1): `'drop'` for a frame the websocket layer itself refuses. */
  readonly errors?: number | 'drop';
  /** Bound on the time until the next valid frame is delivered. Default 1 s. */
  readonly maxMs?: number;
}

describe('hostile frames (public API, real sockets)', () => {
  const subs: Subscription[] = [];
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  afterEach(async () => {
    subs.splice(0).forEach((s) => s.unsubscribe());
    await server?.close();
    expect(uncaught).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  describe('marketStreams', () => {
    let seq = 0;
    const trade = (v: string | number): string => JSON.stringify(tradeEnvelope(tradeRecord({ v: String(v), t: 1_700_000_000_000 + seq, p: '1', q: '1', m: true })));
    const envelope = (data: string): string => `{"symbol":"BTCUSDT","topic":"trade","data":[${data}]}`;
    const big = envelope(badRecords());
    const cases: Case[] = [
      { name: 'arrays nested 100 000 deep', frame: () => nestedArrays(100_000) },
      { name: 'objects nested 100 000 deep', frame: () => nestedObjects(100_000) },
      { name: 'a record field holding a 3 000-deep object', frame: () => envelope(`{"v":${nestedObjects(3000)},"t":1,"p":"1","q":"1","m":true}`) },
      { name: 'a record that is an array nested 100 000 deep', frame: () => envelope(nestedArrays(100_000)) },
      { name: 'data nested 100 000 deep', frame: () => `{"symbol":"BTCUSDT","topic":"trade","data":${nestedArrays(100_000)}}` },
      { name: 'a 4 MB frame of 2 000 000 bad records', frame: () => big, maxMs: 3 * parseMs(big) + 1000 },
      { name: 'a batch of 2 000 000 bad messages', frame: () => `[${badRecords()}]`, maxMs: 3 * parseMs(big) + 1000 },
      { name: 'invalid UTF-8 inside a zip', frame: () => zipBytes(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), binary: true },
      {
        name: 'a zip with 10 000 entries',
        frame: () => zipSync(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`e${i}.json`, [strToU8('{"x":1}'), { level: 0 }]]))),
        binary: true,
      },
      { name: '`__proto__` and `constructor` keys', frame: () => '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}' },
      { name: 'a huge number (1e400) and a 30-digit time', frame: () => envelope('{"v":"1","t":1e400,"p":"1","q":"1","m":true},{"v":"2","t":123456789012345678901234567890,"p":"1","q":"1","m":true}') },
      { name: 'an empty text frame', frame: () => '' },
      { name: 'an empty binary frame', frame: () => new Uint8Array(0), binary: true },
      { name: 'a zip of an empty entry', frame: () => zipText(''), binary: true },
      { name: 'invalid UTF-8 text', frame: () => Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), errors: 'drop', maxMs: 5000 },
    ];

    it('survives every hostile frame: one typed, bounded DecodeError each, the next valid frame delivered, bounded time', async () => {
      let socket: WebSocket | undefined;
      server = await startServer((s) => {
        s.on('message', (data) => {
          const m = JSON.parse(String(data)) as { event?: string };
          if (m.event !== 'sub') return;
          socket = s;
          s.send(trade(`sub${++seq}`));
        });
      });
      const market = marketStreams({ url: `ws://127.0.0.1:${server.port}/quote/ws/v1`, WebSocketCtor: Ctor, connection: { reconnect: { minDelayMs: 10, maxDelayMs: 50 } } });
      const delivered = new Subject<TradeRecord>();
      const errors: Error[] = [];
      const ready = firstValueFrom(delivered);
      subs.push(market.tradeMessages('BTCUSDT').subscribe((m) => m.data.forEach((r) => delivered.next(r))));
      subs.push(market.errors$.subscribe((e) => errors.push(e)));
      await ready; // the answer to the first `sub`

      const outcomes: string[] = [];
      for (const c of cases) {
        errors.length = 0;
        const frame = c.frame();
        const marker = `after-${++seq}`;
        // The next valid frame: the one sent right after, or (when the websocket layer drops the socket) the
        // answer to the `sub` sent again on the new socket.
        const next = firstValueFrom(delivered.pipe(filter((r) => r.v === marker || r.v.startsWith('sub'))));
        const started = performance.now();
        socket!.send(frame, { binary: c.binary === true });
        socket!.send(trade(marker));
        await next;
        const elapsedMs = performance.now() - started;
        expect({ name: c.name, fast: elapsedMs < (c.maxMs ?? 1000) }).toEqual({ name: c.name, fast: true });
        if (c.errors === 'drop') {
          expect(errors.length).toBeGreaterThanOrEqual(1);
          for (const e of errors) expect(e instanceof DecodeError || e instanceof ConnectionClosedError).toBe(true);
        } else {
          expect({ name: c.name, errors: errors.length }).toEqual({ name: c.name, errors: c.errors ?? 1 });
          errors.forEach(expectBounded);
        }
        outcomes.push(`${c.name}: ${errors.map((e) => (e instanceof DecodeError ? `${e.kind}: ${e.message}` : e.name)).join('; ')} (${Math.round(elapsedMs)} ms)`);
      }
      if (process.env.HOSTILE_VERBOSE) console.log(outcomes.join("\n"));
      expect(outcomes).toHaveLength(cases.length);
    }, 60_000);

    it('keeps 40-digit ids exact as text and delivers records with `__proto__` keys without polluting any prototype', async () => {
      let socket: WebSocket | undefined;
      const subscribed = new Subject<void>();
      server = await startServer((s) =>
        s.on('message', (data) => {
          if ((JSON.parse(String(data)) as { event?: string }).event !== 'sub') return;
          socket = s;
          subscribed.next();
        }),
      );
      const market = marketStreams({ url: `ws://127.0.0.1:${server.port}/quote/ws/v1`, WebSocketCtor: Ctor });
      const errors: Error[] = [];
      const ready = firstValueFrom(subscribed);
      const records = new Subject<TradeRecord>();
      const two = firstValueFrom(records.pipe(filter((r) => r.v === '2')));
      const first = firstValueFrom(records);
      subs.push(market.tradeMessages('BTCUSDT').subscribe((m) => m.data.forEach((r) => records.next(r))));
      subs.push(market.errors$.subscribe((e) => errors.push(e)));
      await ready;
      socket!.send(`{"symbol":"BTCUSDT","topic":"trade","__proto__":{"polluted":1},"data":[{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"v":${ID_40},"t":1,"p":"1","q":"1","m":true}]}`);
      socket!.send(`{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"2","t":2,"p":"1","q":"1","m":true}]}`);
      expect((await first).v).toBe(ID_40);
      await two;
      expect(errors).toEqual([]);
    });
  });

  describe('userStream', () => {
    let E = Date.now();
    const account = () => outboundAccountInfo({ E: ++E, B: [{ a: 'BTC', f: '1', l: '0' }] });
    const ticket = (T: string | number) => ({ ...ticketInfo({ E: ++E, q: '1', t: E, p: '1', o: '8' }), T });
    const big = `[${badRecords()}]`;
    const cases: Case[] = [
      { name: 'arrays nested 100 000 deep', frame: () => nestedArrays(100_000) },
      { name: 'objects nested 100 000 deep', frame: () => nestedObjects(100_000) },
      { name: 'an event field holding a 3 000-deep object', frame: () => JSON.stringify([account()]).replace('"BTC"', nestedObjects(3000)) },
      { name: 'a 4 MB frame of 2 000 000 bad events', frame: () => big, maxMs: 3 * parseMs(big) + 1000 },
      { name: 'a failing field holding the listen key', frame: () => JSON.stringify([{ ...ticket('1'), q: LISTEN_KEY, p: `${LISTEN_KEY} and ${LISTEN_KEY.slice(0, 40)}` }]) },
      { name: '`__proto__` and `constructor` keys', frame: () => '[{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"e":7}]' },
      // An event of a type the library does not model arrives as an `other` event (no error), its keys as own data.
      { name: '`__proto__` keys in an event of another type', frame: () => '[{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"e":"x"}]', errors: 0 },
      { name: 'an empty text frame', frame: () => '' },
    ];

    it('survives every hostile private frame: one typed, bounded DecodeError each, the next valid event delivered, bounded time', async () => {
      let socket: WebSocket | undefined;
      const connected = new Subject<string>();
      server = await startServer((s, path) => {
        socket = s;
        connected.next(path);
      });
      const user = userStream({ url: `ws://127.0.0.1:${server.port}/api/v1/ws`, listenKey$: of(LISTEN_KEY), WebSocketCtor: Ctor, reorder: { maxDelayMs: 1 } });
      const delivered = new Subject<PrivateEvent>();
      const errors: Error[] = [];
      const path = firstValueFrom(connected);
      subs.push(user.events$.subscribe((e) => delivered.next(e)));
      subs.push(user.errors$.subscribe((e) => errors.push(e)));
      expect(await path).toBe(`/api/v1/ws/${LISTEN_KEY}`);
      for (const c of cases) {
        errors.length = 0;
        const frame = c.frame();
        const after = account();
        const next = firstValueFrom(delivered.pipe(filter((e) => e.E === after.E)));
        const started = performance.now();
        socket!.send(frame);
        socket!.send(JSON.stringify([after]));
        await next;
        const elapsedMs = performance.now() - started;
        expect({ name: c.name, fast: elapsedMs < (c.maxMs ?? 1000) }).toEqual({ name: c.name, fast: true });
        expect({ name: c.name, errors: errors.length }).toEqual({ name: c.name, errors: c.errors ?? 1 });
        errors.forEach(expectBounded);
      }
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    }, 60_000);

    it('keeps a 40-digit ticket id exact as text', async () => {
      let socket: WebSocket | undefined;
      const connected = new Subject<void>();
      server = await startServer((s) => {
        socket = s;
        connected.next();
      });
      const user = userStream({ url: `ws://127.0.0.1:${server.port}/api/v1/ws`, listenKey$: of(LISTEN_KEY), WebSocketCtor: Ctor, reorder: { maxDelayMs: 1 } });
      const ready = firstValueFrom(connected);
      const tickets = firstValueFrom(user.tickets$);
      subs.push(user.events$.subscribe());
      await ready;
      socket!.send(JSON.stringify([ticket('X')]).replace('"X"', ID_40));
      expect((await tickets).T).toBe(ID_40);
    });
  });
});
