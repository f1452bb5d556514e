// The recorded market's playback (recordedMarket): real frames of the simulator (text and zipped binary) recorded
// and played again, recorded reconnects, private lines, unreadable frames, speed, and the pairs it serves.
import { strFromU8, unzipSync } from 'fflate';
import { manualClock, type Simulator } from '../../lib/simulator';
import { startSimulator } from '../../lib/simulator/core/startSimulator';
import type { RecordedEvent, Recording } from '../../lib/testing/recording';
import { call, TestSocket } from './helpers';

const T0 = Date.UTC(2024, 5, 1, 10, 0, 0);

const textOf = (f: string | Uint8Array): string => (typeof f === 'string' ? f : strFromU8(unzipSync(f)['data.json']!));
const get = (sim: Simulator, path: string, query: string): Promise<any> =>
  call(sim, { path, query, apiKey: null, signatureIn: 'none' }).then((a) => a.body);
const trades = (frames: ReadonlyArray<string | Uint8Array>): Array<{ v: string; p: string; q: string }> =>
  frames
    .map((f) => JSON.parse(textOf(f)))
    .filter((m) => m.topic === 'trade')
    .flatMap((m) => m.data.map((t: { v: string; p: string; q: string }) => ({ v: t.v, p: t.p, q: t.q })));

describe('recordedMarket', () => {
  const sims: Simulator[] = [];
  const sockets: TestSocket[] = [];
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
    await Promise.all(sims.splice(0).map((s) => s.close()));
  });
  const started = async (options: Parameters<typeof startSimulator>[0]): Promise<Simulator> => {
    const sim = await startSimulator(options);
    sims.push(sim);
    return sim;
  };
  const socket = async (url: string): Promise<TestSocket> => {
    const s = await TestSocket.open(url);
    sockets.push(s);
    return s;
  };

  it("replays a recording of the simulator's own frames, text and zipped binary, trade for trade and level for level", async () => {
    // record: the generated market's frames, as a client received them
    const clockA = manualClock(T0);
    const a = await started({ symbols: ['BTCUSDT'], seed: 3, marketStepMs: 0, clock: clockA });
    const tap = await socket(a.publicStreamUrl);
    tap.send({ symbol: 'BTCUSDT', topic: 'trade', event: 'sub', params: { binary: true }, id: 1 });
    tap.send({ symbol: 'BTCUSDT', topic: 'depth', event: 'sub', params: { binary: false }, id: 2 });
    await tap.waitFrames(2);
    a.step(2);
    clockA.advance(300);
    await tap.waitFrames(4);
    const at = [T0, T0, T0 + 300, T0 + 300];
    const events: RecordedEvent[] = [
      { t: T0, k: 'start', v: 1, stream: 'public', symbols: ['BTCUSDT'], topics: ['trade', 'depth'] },
      ...tap.frames.map((f, i): RecordedEvent => (typeof f === 'string' ? { t: at[i]!, k: 'f', d: f } : { t: at[i]!, k: 'b', d: Buffer.from(f).toString('base64') })),
    ];
    expect(events.filter((e) => e.k === 'b')).toHaveLength(2);

    // replay: the same trades and book, on another simulator's clock
    const clockB = manualClock(T0 + 86_400_000);
    const b = await started({
      recordedMarket: { recording: { events } },
      clock: clockB,
      symbolRules: { BTCUSDT: { tickSize: '0.01', stepSize: '0.0001' } },
    });
    const client = await socket(b.publicStreamUrl);
    client.send({ symbol: 'BTCUSDT', topic: 'trade', event: 'sub', params: { binary: false }, id: 7 });
    await client.waitFrames(1);
    clockB.advance(300);
    await client.waitFrames(2);
    expect(trades(client.frames)).toEqual(trades(tap.frames));
    const bookA = JSON.parse(textOf(tap.frames[3]!)).data[0];
    const bookB = await get(b, '/quote/v1/depth', 'symbol=BTCUSDT&limit=200');
    const plain = (d: string): string => (d.includes('.') ? d.replace(/\.?0+$/, '') : d);
    const decimal = (levels: string[][]): string[][] => levels.map(([p, q]) => [plain(p!), plain(q!)]);
    expect(decimal(bookB.b)).toEqual(decimal(bookA.b));
    expect(decimal(bookB.a)).toEqual(decimal(bookA.a));
    const recordedTimes = JSON.parse(textOf(tap.frames[2]!)).data.map((t: { t: number }) => t.t + 86_400_000);
    expect(client.json()[1].data.map((t: { t: number }) => t.t)).toEqual(recordedTimes); // shifted by the clocks' difference
  });

  const trade = (v: string, t: number, p: string, q = '1'): object => ({ v, t, p, q, m: true });
  const frame = (t: number, data: object[], f: boolean): RecordedEvent => ({
    t,
    k: 'f',
    d: JSON.stringify({ symbol: 'BTCUSDT', topic: 'trade', params: { binary: 'false' }, data, f, sendTime: t }),
  });
  const RECONNECTED: Recording = {
    events: [
      { t: T0, k: 'start', v: 1, stream: 'public', symbols: ['BTCUSDT'], topics: ['trade'] },
      { t: T0, k: 'open', epoch: 1 },
      frame(T0, [trade('11', T0 - 10, '100.5'), trade('12', T0 - 5, '100.25')], true),
      { t: T0 + 400, k: 'close', code: 1006, clean: false },
      { t: T0 + 500, k: 'start', v: 1, stream: 'private', symbols: [], topics: [] },
      frame(T0 + 500, [trade('99', T0 + 500, '1')], false), // a line of a private recording: not the market's
      { t: T0 + 600, k: 'start', v: 1, stream: 'public', symbols: ['BTCUSDT'], topics: ['trade'] },
      { t: T0 + 700, k: 'b', d: 'bm90IGEgemlw' }, // unreadable
      { t: T0 + 800, k: 'f', d: '{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"x"}]}' }, // does not decode
      { t: T0 + 900, k: 'open', epoch: 2 },
      frame(T0 + 1000, [trade('11', T0 - 10, '100.5'), trade('12', T0 - 5, '100.25'), trade('13', T0 + 990, '100', '0.5')], true),
    ],
  };

  it('plays each recorded trade once across a recorded reconnect, skips private and unreadable lines, at `speed`', async () => {
    const start = Date.now();
    const clock = manualClock(start);
    const sim = await started({ recordedMarket: { recording: RECONNECTED, speed: 2 }, clock });
    const ids = async (): Promise<string[]> => (await get(sim, '/quote/v1/trades', 'symbol=BTCUSDT')).map((t: { v: string }) => t.v);
    expect(await ids()).toEqual(['11', '12']);
    clock.advance(499);
    expect(await ids()).toEqual(['11', '12']);
    clock.advance(1); // recorded +1000 ms at speed 2
    const all = await get(sim, '/quote/v1/trades', 'symbol=BTCUSDT');
    expect(all.map((t: { v: string; t: number; p: string }) => [t.v, t.t, t.p])).toEqual([
      ['11', start - 5, '100.5'],
      ['12', start - 2, '100.25'], // Math.round(-2.5)
      ['13', start + 495, '100'],
    ]);
    const info = await get(sim, '/api/v1/exchangeInfo', '');
    expect(info.symbols[0].filters.slice(0, 2)).toMatchObject([{ tickSize: '0.01' }, { stepSize: '0.1' }]);
  });

  it('serves by default the recorded pairs it can (a quote it does not know leaves a pair out)', async () => {
    const other: RecordedEvent = { ...RECONNECTED.events[2]!, d: (RECONNECTED.events[2] as { d: string }).d.replace('BTCUSDT', 'BTCHKD') } as RecordedEvent;
    const sim = await started({ recordedMarket: { recording: { events: [...RECONNECTED.events, other] } }, clock: manualClock(Date.now()) });
    const info = await get(sim, '/api/v1/exchangeInfo', '');
    expect(info.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['BTCUSDT']);
  });

  it('serves a listed pair the recording lacks from the generated market; refuses a speed that is not > 0', async () => {
    const sim = await started({ recordedMarket: { recording: RECONNECTED }, symbols: ['BTCUSDT', 'ETHUSDT'], clock: manualClock(Date.now()) });
    expect((await get(sim, '/quote/v1/trades', 'symbol=ETHUSDT')).length).toBe(100); // generated history
    expect((await get(sim, '/quote/v1/trades', 'symbol=BTCUSDT')).length).toBe(2);
    await expect(startSimulator({ recordedMarket: { recording: RECONNECTED, speed: 0 } })).rejects.toThrow('recordedMarket.speed must be a finite number > 0, got 0');
  });
});
