import type { AddressInfo } from 'node:net';
import { firstValueFrom, take, toArray, timeout, type Subscription } from 'rxjs';
import { WebSocket, WebSocketServer } from 'ws';
import { ConfigError, SubscriptionRejectedError } from '../../lib/errors';
import { customKlineInterval } from '../../lib/market/klineInterval';
import { marketStreams, type MarketStreams } from '../../lib/market/marketStreams';
import { startSimulator, type Simulator } from '../../lib/simulator';
import { until } from '../helpers/until';

/**
 * Frames transcribed from HashKey's API documentation, "Public Stream (WS v2)" (HashKey Exchange:
 * hashkeypro-apidoc.readme.io/reference/public-stream-ws-v2; HashKey Global: hashkeyglobal-apidoc.readme.io/reference/public-stream,
 * the same frames). The data frames' shape (`{ topic, params, data: {…} }`, one record, `data` an object) and the bbo
 * fields are not in those examples: they follow the issue's reading of the docs and a third-party probe of the live
 * service (which read `j.topic` and `j.data.s`).
 */
const DOCS = {
  subscribe: { topic: 'kline', event: 'sub', params: { symbol: 'ETHUSDT', klineType: '1m' } },
  subscribed: { topic: 'kline', event: 'sub', params: { symbol: 'BTCUSDT', klineType: '1m' }, code: '0', msg: 'Success' },
  failed: { topic: 'kline', event: 'sub', params: { symbol: 'BTCUSDT', klineType: '122m' }, code: '-100011', msg: 'Parameter error!' },
  unsubscribe: { topic: 'kline', event: 'cancel', params: { symbol: 'BTCUSDT', klineType: '1m' } },
  unsubscribed: { topic: 'kline', event: 'cancel', params: { symbol: 'BTCUSDT', klineType: '1m' }, code: '0', msg: 'Success' },
} as const;

/** A kline record as V1's (the V2 docs show none). */
const kline = (symbol: string, t: number) => ({ t, s: symbol, sn: symbol, c: '101', h: '102', l: '100', o: '100.5', v: '3' });

interface Scripted {
  readonly url: string;
  /** Every frame the client sent, parsed. */
  readonly received: Record<string, unknown>[];
  /** The server's socket of the last connection. */
  socket(): WebSocket;
  close(): Promise<void>;
}

/** A ws server on 127.0.0.1 whose `answer` decides what each client frame gets back. */
async function scriptedServer(answer: (frame: Record<string, unknown>, send: (value: object) => void) => void): Promise<Scripted> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const received: Record<string, unknown>[] = [];
  let last: WebSocket | undefined;
  wss.on('connection', (ws) => {
    last = ws;
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if (frame['ping'] !== undefined) return ws.send(JSON.stringify({ pong: Date.now() }));
      received.push(frame);
      answer(frame, (value) => ws.send(JSON.stringify(value)));
    });
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/quote/ws/v2`,
    received,
    socket: () => last!,
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

describe('the V2 public stream, against frames transcribed from the documentation', () => {
  let server: Scripted | undefined;
  let held: Subscription | undefined;
  afterEach(async () => {
    held?.unsubscribe();
    held = undefined;
    await server?.close();
    server = undefined;
  });

  it("speaks V2 for a /quote/ws/v2 url: the documented sub frame, one symbol each; the documented ack confirms (no resend while data is late); the documented cancel", async () => {
    server = await scriptedServer((frame, send) => {
      const params = frame['params'] as Record<string, string>;
      // the documented answer, echoing the request; the data comes late
      send({ ...frame, code: '0', msg: 'Success' });
      if (frame['event'] === 'sub') setTimeout(() => send({ topic: 'kline', params, data: kline(params['symbol']!, 1_700_000_000_000) }), 500);
    });
    const market = marketStreams({ url: server.url, subscribeTimeoutMs: 150 });
    const errors: Error[] = [];
    const errorsSub = market.errors$.subscribe((e) => errors.push(e));
    const candles = firstValueFrom(market.klines('ETHUSDT', '1m').pipe(timeout(5000)));
    const other = firstValueFrom(market.klines('BTCUSDT', '1m').pipe(timeout(5000)));
    expect((await candles).s).toBe('ETHUSDT');
    expect((await other).s).toBe('BTCUSDT');
    // the documented request, one symbol a frame, and no second sub although the data took longer than the timeout
    expect(server.received.filter((f) => f['event'] === 'sub')).toEqual([DOCS.subscribe, { ...DOCS.subscribe, params: { symbol: 'BTCUSDT', klineType: '1m' } }]);
    const status = await firstValueFrom(market.status$);
    expect(status.resubscribes).toBe(0);
    // the last observer gone: the documented cancel, whose answer is no error
    await until(() => server!.received.filter((f) => f['event'] === 'cancel').length === 2, 'two cancels');
    expect(server.received.filter((f) => f['event'] === 'cancel')).toContainEqual(DOCS.unsubscribe);
    await new Promise((r) => setTimeout(r, 50));
    errorsSub.unsubscribe();
    expect(errors).toEqual([]);
  });

  it('the documented failure (-100011, Parameter error!) ends the topic with a SubscriptionRejectedError', async () => {
    server = await scriptedServer((frame, send) => {
      const params = frame['params'] as Record<string, string>;
      if (params['klineType'] === '122m') send(DOCS.failed);
    });
    const market = marketStreams({ url: server.url });
    const error = await firstValueFrom(market.klines('BTCUSDT', customKlineInterval('122m')).pipe(timeout(5000))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubscriptionRejectedError);
    expect(error).toMatchObject({ symbol: 'BTCUSDT', topic: 'kline_122m', code: '-100011' });
  });

  it('bbo(): the typed best bid and offer { s, b, bz, a, az, t }; depth with data an object', async () => {
    server = await scriptedServer((frame, send) => {
      const params = frame['params'] as Record<string, string>;
      send({ ...frame, code: '0', msg: 'Success' });
      if (frame['topic'] === 'bbo') send({ topic: 'bbo', params, data: { s: params['symbol'], t: 1_700_000_000_100, b: '30000.1', bz: '0.5', a: '30000.3', az: '1.25' } });
      if (frame['topic'] === 'depth') send({ topic: 'depth', params, data: { s: params['symbol'], t: 1_700_000_000_200, v: '1_301', b: [['30000.1', '0.5']], a: [['30000.3', '1.25']] } });
    });
    const market = marketStreams({ url: server.url });
    expect(await firstValueFrom(market.bbo('BTCUSDT').pipe(timeout(5000)))).toEqual({ s: 'BTCUSDT', t: 1_700_000_000_100, b: '30000.1', bz: '0.5', a: '30000.3', az: '1.25' });
    const depth = await firstValueFrom(market.depth('BTCUSDT').pipe(timeout(5000)));
    expect(depth).toMatchObject({ s: 'BTCUSDT', b: [['30000.1', '0.5']], a: [['30000.3', '1.25']] });
    expect(server.received.filter((f) => f['event'] === 'sub')).toEqual([
      { topic: 'bbo', event: 'sub', params: { symbol: 'BTCUSDT' } },
      { topic: 'depth', event: 'sub', params: { symbol: 'BTCUSDT' } },
    ]);
  });

  it("the site of a venue (HashKey MENA) goes in every request's params; dialect: 'v2' for a url function", async () => {
    server = await scriptedServer((frame, send) => send({ ...frame, code: '0', msg: 'Success' }));
    const url = server.url;
    const market = marketStreams({ url: () => url, dialect: 'v2', site: 'MENA' });
    held = market.trades('BTCUSDT').subscribe();
    await until(() => server!.received.length > 0, 'a sub');
    expect(server.received[0]).toEqual({ topic: 'trade', event: 'sub', params: { symbol: 'BTCUSDT', site: 'MENA' } });
  });

  it('V1 stays as it is: no bbo (ConfigError), and V2 refuses binary frames', async () => {
    const v1 = marketStreams({ url: 'ws://127.0.0.1:1/quote/ws/v1' });
    await expect(firstValueFrom(v1.bbo('BTCUSDT'))).rejects.toMatchObject({ name: 'ConfigError', option: 'dialect' });
    expect(() => marketStreams({ url: 'ws://127.0.0.1:1/quote/ws/v2', binary: true })).toThrow(ConfigError);
    const v2 = marketStreams({ url: 'ws://127.0.0.1:1/quote/ws/v2' });
    await expect(firstValueFrom(v2.depth('BTCUSDT', { binary: true }))).rejects.toMatchObject({ option: 'binary' });
  });
});

describe('the V2 public stream against the simulator', () => {
  let sim: Simulator;
  let market: MarketStreams;
  beforeEach(async () => {
    sim = await startSimulator({ symbols: ['BTCUSDT', 'ETHUSDT'], recordTraffic: true });
    market = marketStreams({ url: sim.publicStreamV2Url });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('depth every 100 ms, bbo matching the book, each request acknowledged', async () => {
    const started = Date.now();
    const books = await firstValueFrom(market.depthMessages('BTCUSDT').pipe(take(11), toArray(), timeout(5000)));
    const elapsed = Date.now() - started;
    // 11 books: the first at once, then 10 periods of 100 ms (the V1 stream takes 3 s for as many)
    expect(elapsed).toBeLessThan(2000);
    expect(books[0]!.data[0]!.b.length).toBeGreaterThan(0);
    const top = await firstValueFrom(market.bbo('ETHUSDT').pipe(timeout(5000)));
    expect(top).toMatchObject({ s: 'ETHUSDT' });
    expect(Number(top.b)).toBeLessThan(Number(top.a));
    const subs = sim.traffic().frames.filter((f) => f.stream === 'public').map((f) => JSON.parse(f.data) as Record<string, unknown>).filter((f) => f['event'] === 'sub');
    expect(subs).toEqual([
      { topic: 'depth', event: 'sub', params: { symbol: 'BTCUSDT' } },
      { topic: 'bbo', event: 'sub', params: { symbol: 'ETHUSDT' } },
    ]);
  });

  it('refuses a comma list with -100011 and acknowledges a request, as documented', async () => {
    const ws = new WebSocket(sim.publicStreamV2Url);
    const frames: Record<string, unknown>[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ topic: 'depth', event: 'sub', params: { symbol: 'BTCUSDT,ETHUSDT' } }));
    ws.send(JSON.stringify({ topic: 'kline', event: 'sub', params: { symbol: 'BTCUSDT', klineType: '1m' } }));
    await until(() => frames.length >= 3, 'three answers');
    ws.terminate();
    expect(frames[0]).toEqual({ topic: 'depth', event: 'sub', params: { symbol: 'BTCUSDT,ETHUSDT' }, code: '-100011', msg: 'Parameter error!' });
    expect(frames[1]).toEqual(DOCS.subscribed);
    expect(frames[2]).toMatchObject({ topic: 'kline', params: { symbol: 'BTCUSDT', klineType: '1m' }, data: { s: 'BTCUSDT' } });
  });

  it('klines, trades and realtimes through the same observables as V1', async () => {
    const [candle, trade, ticker] = await Promise.all([
      firstValueFrom(market.klines('BTCUSDT', '1m').pipe(timeout(5000))),
      firstValueFrom(market.trades('BTCUSDT').pipe(timeout(5000))),
      firstValueFrom(market.realtimes('BTCUSDT').pipe(timeout(5000))),
    ]);
    expect(candle.s).toBe('BTCUSDT');
    expect(typeof trade.v).toBe('string');
    expect(ticker.s).toBe('BTCUSDT');
  });
});
