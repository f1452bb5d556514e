/**
 * Issue 41's tick to order: the venue (`tickVenue.ts`, its own process) sends a 200-level depth frame whose best
 * bid moved; the client places a LIMIT BUY at the new bid; the venue notes when the POST arrives (from the frame's
 * send to the request's arrival, on the venue's clock). Clients, alternated tick by tick in one run (each on its
 * own symbol and connections, all warm):
 * - **bare**: `ws` + `JSON.parse` + the first bid + `node:crypto` HMAC + `node:http` keep-alive (the floor);
 * - **ex-streams**: `marketStreams` + `orderBook()` + `restClient({ secretKey })`'s `newOrder`, default `fetch`;
 * - **ex-streams, node:http fetch**: the same with a hand-written `node:http` keep-alive `fetch` injected;
 * - **the old defaults** (before issue 41): Web Crypto's `subtle.sign` and the global `fetch` (undici).
 * Reported: median and p99 in ms and their ratios to the bare client's. Part of `npm run bench` (`--only=tick`);
 * alone:
 *
 *   node -r ts-node/register/transpile-only spec/bench/tickToOrder.ts [--quick]
 */
import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import * as path from 'node:path';
import { distinctUntilChanged, filter, map, type Subscription } from 'rxjs';
import WebSocket from 'ws';
import { marketStreams } from '../../lib/market/marketStreams';
import { orderBook } from '../../lib/operators/orderBook';
import { hmacSha256Signer } from '../../lib/auth/hmacSha256Hex';
import { restClient } from '../../lib/rest/restClient';
import type { RestClientConfig } from '../../lib/rest/types';
import { median, percentile, sleep } from './stats';

/** A row: a client, samples, median and p99 in ms, and their ratios to the bare client's (same run). */
export interface TickToOrderRow {
  readonly client: string;
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p50Ratio: number;
  readonly p99Ratio: number;
}

const API_KEY = 'bench-key';
const SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const ORDER_PATH = '/api/v1.1/spot/order';

interface Venue {
  readonly wsUrl: string;
  readonly httpUrl: string;
  /** Sends tick `n` to `symbol`'s subscriber; resolves with the venue's frame-to-POST time in ms (NaN: no POST in 2 s). */
  tick(symbol: string, n: number): Promise<number>;
  close(): Promise<void>;
}

type VenueReply = { type: 'ready'; wsUrl: string; httpUrl: string } | { type: 'placed'; symbol: string; price: string; ms: number };

async function startVenue(): Promise<Venue> {
  const child = fork(path.join(__dirname, 'tickVenue.ts'), [], { execArgv: ['-r', 'ts-node/register/transpile-only'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const placed = new Map<string, (ms: number) => void>();
  const ready = new Promise<{ wsUrl: string; httpUrl: string }>((resolve) =>
    child.on('message', (r: VenueReply) => {
      if (r.type === 'ready') resolve(r);
      else placed.get(r.symbol)?.(r.ms);
    }),
  );
  const { wsUrl, httpUrl } = await ready;
  return {
    wsUrl,
    httpUrl,
    tick: (symbol, n) =>
      new Promise<number>((resolve) => {
        const timer = setTimeout(() => done(NaN), 2000);
        const done = (ms: number): void => {
          clearTimeout(timer);
          placed.delete(symbol);
          resolve(ms);
        };
        placed.set(symbol, done);
        child.send({ type: 'tick', symbol, n });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send({ type: 'exit' });
      }),
  };
}

/** A `fetch` over `node:http` with a keep-alive agent: just what `restClient` reads of a response. */
function nodeHttpFetch(agent: Agent): typeof fetch {
  return ((url: string, init: RequestInit) =>
    new Promise((resolve, reject) => {
      const req = httpRequest(url, { method: init.method, headers: init.headers as Record<string, string>, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, text: () => Promise.resolve(text), headers: { get: (n: string) => (res.headers[n.toLowerCase()] as string | undefined) ?? null } } as unknown as Response);
        });
      });
      req.on('error', reject);
      init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')));
      req.end(init.body as string | undefined);
    })) as unknown as typeof fetch;
}

interface Client {
  readonly name: string;
  readonly symbol: string;
  readonly close: () => void;
}

/** The bare client: ws + JSON.parse + node:crypto HMAC + node:http keep-alive. */
function bareClient(venue: Venue, symbol: string): Promise<Client> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const url = new URL(venue.httpUrl);
  let last = '';
  let id = 0;
  const ws = new WebSocket(venue.wsUrl, { perMessageDeflate: false });
  ws.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as { data?: Array<{ b?: string[][] }> };
    const bid = frame.data?.[0]?.b?.[0]?.[0];
    if (bid === undefined || bid === last) return;
    last = bid;
    const params = `symbol=${symbol}&side=BUY&type=LIMIT&timeInForce=GTC&price=${bid}&quantity=0.01&newClientOrderId=bare${++id}&recvWindow=5000&timestamp=${Date.now()}`;
    const body = `${params}&signature=${createHmac('sha256', SECRET).update(params).digest('hex')}`;
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: 'POST', path: ORDER_PATH, agent, headers: { 'X-HK-APIKEY': API_KEY, 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' } },
      (res) => res.resume(),
    );
    req.on('error', () => undefined);
    req.end(body);
  });
  return new Promise((resolve, reject) => {
    ws.on('open', () => {
      ws.send(JSON.stringify({ symbol, topic: 'depth', event: 'sub', params: { binary: false } }));
      resolve({ name: 'bare: ws + JSON.parse + node:crypto + node:http keep-alive', symbol, close: () => (ws.close(), agent.destroy()) });
    });
    ws.on('error', reject);
  });
}

/** The library: marketStreams + orderBook() + restClient.newOrder at the new best bid. */
async function libraryClient(venue: Venue, symbol: string, name: string, options: Partial<RestClientConfig> = {}): Promise<Client> {
  const market = marketStreams({ url: venue.wsUrl });
  const signing = options.sign ? {} : { secretKey: SECRET };
  const rest = restClient({ baseUrl: venue.httpUrl, apiKey: API_KEY, ...signing, ...options });
  const orders: Subscription[] = [];
  const subscription = market
    .depth(symbol)
    .pipe(
      orderBook(),
      map((book) => book.bestBid?.[0]),
      filter((bid): bid is NonNullable<typeof bid> => bid !== undefined),
      distinctUntilChanged(),
    )
    .subscribe((price) => {
      orders.push(rest.newOrder({ symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.01' }).subscribe({ error: () => undefined }));
      if (orders.length > 64) orders.splice(0, 32);
    });
  // The documented warm-up: opens the keep-alive connection and learns the server clock before the first order.
  await new Promise<void>((resolve) => rest.warm().subscribe({ complete: resolve }));
  await sleep(50);
  return { name, symbol, close: () => subscription.unsubscribe() };
}

/** Runs `warmUp` then `ticks` ticks per client, alternating clients (the order rotated) with `gapMs` between ticks. */
export async function tickToOrder(ticks: number, warmUp = 200, gapMs = 2): Promise<TickToOrderRow[]> {
  const venue = await startVenue();
  const clients: Client[] = [];
  try {
    clients.push(await bareClient(venue, 'ETHUSDT'));
    clients.push(await libraryClient(venue, 'BTCUSDT', 'ex-streams: marketStreams + orderBook() + restClient (default fetch)'));
    clients.push(await libraryClient(venue, 'SOLUSDT', 'ex-streams, a node:http keep-alive fetch injected', { fetch: nodeHttpFetch(new Agent({ keepAlive: true, maxSockets: 4 })) }));
    clients.push(
      await libraryClient(venue, 'XRPUSDT', 'ex-streams, the old defaults: Web Crypto sign, global fetch (undici)', { sign: hmacSha256Signer(SECRET), fetch: globalThis.fetch }),
    );
    await sleep(100);
    const samples = clients.map((): number[] => []);
    for (let n = 0; n < warmUp + ticks; n++) {
      for (let k = 0; k < clients.length; k++) {
        const i = (k + n) % clients.length;
        const ms = await venue.tick(clients[i]!.symbol, n);
        if (n >= warmUp) samples[i]!.push(ms);
        await sleep(gapMs);
      }
    }
    const stats = samples.map((xs) => {
      const kept = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
      return { samples: kept.length, p50: median(kept), p99: percentile(kept, 99) };
    });
    const bare = stats[0]!;
    const r3 = (x: number): number => Math.round(x * 1000) / 1000;
    return clients.map((c, i) => ({
      client: c.name,
      samples: stats[i]!.samples,
      p50Ms: r3(stats[i]!.p50),
      p99Ms: r3(stats[i]!.p99),
      p50Ratio: Math.round((stats[i]!.p50 / bare.p50) * 100) / 100,
      p99Ratio: Math.round((stats[i]!.p99 / bare.p99) * 100) / 100,
    }));
  } finally {
    clients.forEach((c) => c.close());
    await venue.close();
  }
}

/** The markdown table of {@link tickToOrder}'s rows, with issue 41's targets. */
export function tickToOrderTable(rows: readonly TickToOrderRow[]): string {
  const head = '| client | samples | p50 ms | p99 ms | p50 / bare | p99 / bare | target |\n|---|---:|---:|---:|---:|---:|---|';
  return [head, ...rows.map((r, i) => `| ${r.client} | ${r.samples} | ${r.p50Ms} | ${r.p99Ms} | ${r.p50Ratio} | ${r.p99Ratio} | ${i === 0 || r.client.includes('old') ? '' : '≤ 1.15 / ≤ 1.5'} |`)].join('\n');
}

if (require.main === module) {
  tickToOrder(process.argv.includes('--quick') ? 300 : 1500).then(
    (rows) => {
      process.stdout.write(tickToOrderTable(rows) + '\n');
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write((e instanceof Error ? (e.stack ?? e.message) : String(e)) + '\n');
      process.exit(1);
    },
  );
}
