import { filter, firstValueFrom, type Observable, Subscription, take, timeout, toArray } from 'rxjs';
import { WebSocket } from 'ws';
import { ConnectionClosedError, DecodeError, HeartbeatTimeoutError } from '../../lib/errors';
import { startSimulator } from '../../lib/simulator';
import type { Simulator } from '../../lib/simulator';
import { type Connection, connection, type ConnectionConfig } from '../../lib/socket/connection';
import type { ConnectionStatus } from '../../lib/socket/connectionStatus';
import { zipBomb, zipText } from '../helpers/zipFrames';

/** Integration: a real simulator on 127.0.0.1 (ephemeral port), real `ws` sockets, the real clock. */
describe('connection (against the simulator)', () => {
  let sim: Simulator;
  let subs: Subscription;

  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT'], marketStepMs: 0 });
    subs = new Subscription();
  });
  afterEach(async () => {
    subs.unsubscribe();
    await sim.close();
  });

  const within = <T>(source: Observable<T>, ms = 5000): Promise<T> => firstValueFrom(source.pipe(timeout(ms)));

  function open(config: Partial<ConnectionConfig> = {}): Connection {
    const conn = connection({
      url: sim.publicStreamUrl,
      WebSocketCtor: WebSocket,
      pingIntervalMs: 100,
      reconnect: { minDelayMs: 20, maxDelayMs: 50 },
      ...config,
    });
    subs.add(conn.messages$.subscribe({ error: () => undefined }));
    return conn;
  }

  const openEpoch = (conn: Connection, epoch: number): Promise<ConnectionStatus> =>
    within(conn.status$.pipe(filter((s) => s.type === 'open' && s.epoch === epoch)));

  it('connects with the default constructor (ws, loaded at connect time) and learns the server clock', async () => {
    sim.skewClock(60_000);
    const conn = connection({ url: sim.publicStreamUrl, pingIntervalMs: 50 });
    subs.add(conn.messages$.subscribe());
    await within(conn.messages$.pipe(filter((m) => typeof (m as { pong?: unknown }).pong === 'number')));
    const offset = await within(conn.serverClock.offset$);
    expect(Math.abs(offset - 60_000)).toBeLessThan(200);
  });

  it('reconnects after an abrupt drop and opens a new epoch with downSince', async () => {
    const conn = open();
    await openEpoch(conn, 1);
    const droppedAt = Date.now();
    sim.drop({ stream: 'public' });
    const reconnecting = await within(conn.status$.pipe(filter((s) => s.type === 'reconnecting')));
    expect(reconnecting).toMatchObject({ type: 'reconnecting', epoch: 1, attempt: 1 });
    expect((reconnecting as { cause: Error }).cause).toBeInstanceOf(ConnectionClosedError);
    const reopened = await openEpoch(conn, 2);
    expect(reopened).toMatchObject({ type: 'open', epoch: 2 });
    const { downSince, since } = reopened as { downSince: number; since: number };
    // the last frame received: the open or a pong, at most one ping interval (100 ms) before the drop
    expect(downSince).toBeLessThanOrEqual(droppedAt);
    expect(downSince).toBeGreaterThanOrEqual(droppedAt - 100 - 20);
    expect(since).toBeGreaterThanOrEqual(downSince);
  });

  it('detects a stalled peer within heartbeatTimeoutMs and reconnects', async () => {
    const conn = open({ heartbeatTimeoutMs: 300 });
    await openEpoch(conn, 1);
    const stalledAt = Date.now();
    sim.stall({ stream: 'public' });
    const error = await within(conn.errors$.pipe(filter((e) => e instanceof HeartbeatTimeoutError)));
    const detectedAfter = Date.now() - stalledAt;
    expect(error).toBeInstanceOf(HeartbeatTimeoutError);
    // the last frame came at most one ping interval before the stall; timers may run a little late
    expect(detectedAfter).toBeGreaterThanOrEqual(300 - 100 - 5);
    expect(detectedAfter).toBeLessThan(300 + 150);
    sim.resume();
    await openEpoch(conn, 2);
    await within(conn.messages$.pipe(filter((m) => (m as { pong?: unknown }).pong !== undefined)));
  });

  it('decodes binary (zip) frames of a binary subscription', async () => {
    sim.step(3);
    const conn = open();
    subs.add(conn.opened$.subscribe(() =>
      conn.send({ symbol: 'BTCUSDT', topic: 'trade', event: 'sub', params: { binary: true }, id: 7 })));
    const trade = (await within(conn.messages$.pipe(filter((m) => (m as { topic?: unknown }).topic === 'trade')))) as {
      symbol: string;
      data: unknown[];
    };
    expect(trade.symbol).toBe('BTCUSDT');
    expect(Array.isArray(trade.data)).toBe(true);
    expect(sim.observed().subscriptions).toEqual([expect.objectContaining({ topic: 'trade', binary: true })]);
  });

  it('rejects a zip bomb as a DecodeError and keeps the connection going', async () => {
    const conn = open();
    await openEpoch(conn, 1);
    const error = within(conn.errors$);
    const after = within(conn.messages$.pipe(filter((m) => (m as { after?: unknown }).after === 'bomb')));
    sim.sendRaw({ stream: 'public', data: zipBomb(17) });
    sim.sendRaw({ stream: 'public', data: '{"after":"bomb"}' });
    expect(await error).toEqual(expect.objectContaining({ name: 'DecodeError', kind: 'inflated-too-large' }));
    expect(await error).toBeInstanceOf(DecodeError);
    await after;
    const statuses = await firstValueFrom(conn.status$.pipe(take(1), toArray()));
    expect(statuses).toEqual([expect.objectContaining({ type: 'open', epoch: 1 })]);
  });

  it('refuses a zip whose entry lacks its CRC-32 (its text parses) as a DecodeError; the frames after it flow', async () => {
    const conn = open();
    await openEpoch(conn, 1);
    const error = within(conn.errors$);
    const received = within(conn.messages$.pipe(filter((m) => (m as { n?: unknown }).n !== undefined), take(2), toArray()));
    const damaged = zipText('{"n":1,"p":"1.5"}', 0); // stored: the text is in the frame as is
    damaged.set(Buffer.from('1.6'), Buffer.from(damaged).indexOf('1.5'));
    sim.sendRaw({ stream: 'public', data: damaged });
    sim.sendRaw({ stream: 'public', data: zipText('{"n":2,"p":"1.5"}') });
    sim.sendRaw({ stream: 'public', data: '{"n":3}' });
    expect(await error).toEqual(expect.objectContaining({ name: 'DecodeError', kind: 'zip', message: expect.stringMatching(/CRC-32 mismatch/) }));
    expect(await received).toEqual([{ n: 2, p: '1.5' }, { n: 3 }]);
    const statuses = await firstValueFrom(conn.status$.pipe(take(1), toArray()));
    expect(statuses).toEqual([expect.objectContaining({ type: 'open', epoch: 1 })]);
  });

  it('keeps bare 64-bit ids of text frames exact (checked on the bytes ws receives) and limits text frames', async () => {
    const conn = open({ maxFrameBytes: 200 });
    await openEpoch(conn, 1);
    const received = within(conn.messages$.pipe(filter((m) => (m as { n?: unknown }).n !== undefined), take(3), toArray()));
    const error = within(conn.errors$);
    sim.sendRaw({ stream: 'public', data: '{"n":1,"i":1291488620385157122,"t":1625562619577}' });
    sim.sendRaw({ stream: 'public', data: '{"n":2,"s":"é€𝄞","i":-98765432109876543210,"p":[1,12345678901234567]}' });
    sim.sendRaw({ stream: 'public', data: `{"n":0,"x":"${'a'.repeat(300)}"}` });
    sim.sendRaw({ stream: 'public', data: '{"n":3,"i":"929681067596857345"}' });
    expect(await received).toEqual([
      { n: 1, i: '1291488620385157122', t: 1625562619577 },
      { n: 2, s: 'é€𝄞', i: '-98765432109876543210', p: [1, '12345678901234567'] },
      { n: 3, i: '929681067596857345' },
    ]);
    expect(await error).toEqual(expect.objectContaining({ name: 'DecodeError', kind: 'frame-too-large' }));
  });

  it('retries after a close code 4001, carrying code and reason to errors$ and status$', async () => {
    const conn = connection({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket, reconnect: { minDelayMs: 10 } });
    let failed: unknown;
    subs.add(conn.messages$.subscribe({ error: (e: unknown) => (failed = e) }));
    await openEpoch(conn, 1);
    const error = within(conn.errors$);
    const reconnecting = within(conn.status$.pipe(filter((s) => s.type === 'reconnecting')));
    sim.drop({ stream: 'public', code: 4001, reason: 'invalid listen key' });
    expect(await error).toBeInstanceOf(ConnectionClosedError);
    expect(await error).toMatchObject({ code: 4001, reason: 'invalid listen key' });
    expect(await reconnecting).toMatchObject({ type: 'reconnecting', epoch: 1, attempt: 1, cause: { code: 4001 } });
    await openEpoch(conn, 2);
    expect(failed).toBeUndefined();
  });

  it('closes the socket when the last subscriber leaves', async () => {
    const conn = connection({ url: sim.publicStreamUrl, WebSocketCtor: WebSocket });
    const sub = conn.messages$.subscribe();
    await openEpoch(conn, 1);
    expect(sim.observed().connections.public).toBe(1);
    sub.unsubscribe();
    expect(await within(conn.status$)).toEqual({ type: 'closed', epoch: 1 });
    for (let i = 0; i < 100 && sim.observed().connections.public > 0; i++) await new Promise((r) => setImmediate(r));
    expect(sim.observed().connections.public).toBe(0);
  });
});
