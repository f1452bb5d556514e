/**
 * Issue 41's socket-free order path: from `rest.newOrder(...)` (a LIMIT, generated client order id, the default
 * server clock already learned) to the call of `fetch`, whose stub records `performance.now()` and answers at
 * once. In one run: the default signer (`secretKey`: `node:crypto`, synchronous, on Node) on a bare `baseUrl`,
 * alternated with the same through a venue preset and its rate-limit gate (limits never reached); then Web
 * Crypto's `subtle.sign` passed as `sign` (the default before issue 41), alone. Then, on loopback, to the first
 * byte written on the socket: the default `fetch` (node:http) against a bare `http.request` ({@link firstByte}).
 * Reported: median and p99 in µs. Part of `npm run bench` (`--only=tick`); alone:
 *
 *   node -r ts-node/register/transpile-only spec/bench/orderPath.ts [--quick]
 */
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { hmacSha256Signer } from '../../lib/auth/hmacSha256Hex';
import { restClient } from '../../lib/rest/restClient';
import type { RestClientConfig } from '../../lib/rest/types';
import { hashkey } from '../../lib/venue/hashkeyVenues';
import { median, percentile } from './stats';

/** A row: a configuration, samples, median and p99 in µs. */
export interface OrderPathRow {
  readonly case: string;
  readonly samples: number;
  readonly p50Us: number;
  readonly p99Us: number;
}

const SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const ORDER_ANSWER = JSON.stringify({
  orderId: '1920153487203598336', clientOrderId: 'x', symbol: 'BTCUSDT', price: '76320.80', origQty: '0.01',
  executedQty: '0', status: 'NEW', timeInForce: 'GTC', type: 'LIMIT', side: 'BUY', transactTime: '1731300000000',
});

interface Stub {
  readonly fetch: typeof fetch;
  /** `performance.now()` at the last call of the order path. */
  last(): number;
}

function stubFetch(): Stub {
  let at = 0;
  const answer = (text: string): Response => ({ status: 200, text: () => Promise.resolve(text), headers: new Headers() }) as unknown as Response;
  const f = ((url: string) => {
    if (url.includes('/api/v1/time')) return Promise.resolve(answer(JSON.stringify({ serverTime: Math.round(performance.timeOrigin + performance.now()) })));
    at = performance.now();
    return Promise.resolve(answer(ORDER_ANSWER));
  }) as unknown as typeof fetch;
  return { fetch: f, last: () => at };
}

const CASES: ReadonlyArray<{ readonly name: string; readonly config: (fetchFn: typeof fetch) => RestClientConfig }> = [
  { name: 'secretKey (node:crypto, sync), baseUrl', config: (fetch) => ({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', secretKey: SECRET, fetch }) },
  // The venue's gate, with limits this run never reaches (the preset's 10 orders/s would make it a wait, not a cost).
  {
    name: 'secretKey, venue preset + rate-limit gate',
    config: (fetch) => ({ venue: hashkey.global.production, rateLimit: { ordersPerSecond: 1e6, queriesPerSecond: 1e6 }, apiKey: 'k', secretKey: SECRET, fetch }),
  },
  { name: 'sign: Web Crypto subtle.sign (before), baseUrl', config: (fetch) => ({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', sign: hmacSha256Signer(SECRET), fetch }) },
];

/** Runs `orders` placements per case after `warmUp` each: the synchronous cases alternated, then Web Crypto's. */
export async function orderPath(orders: number, warmUp = 500): Promise<OrderPathRow[]> {
  const runs = CASES.map((c) => {
    const stub = stubFetch();
    return { name: c.name, stub, rest: restClient(c.config(stub.fetch)), samples: [] as number[] };
  });
  const place = async (run: (typeof runs)[number], keep: boolean): Promise<void> => {
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) =>
      run.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '76320.80', quantity: '0.01' }).subscribe({ complete: resolve, error: reject }),
    );
    if (keep) run.samples.push((run.stub.last() - t0) * 1000);
  };
  // The synchronous signers alternated; Web Crypto after them, alone: its promises and buffers would otherwise
  // land (as garbage collection) in its neighbours' samples.
  const sync = runs.filter((r) => !r.name.includes('before'));
  for (let n = 0; n < warmUp + orders; n++) for (const run of n % 2 === 0 ? sync : [...sync].reverse()) await place(run, n >= warmUp);
  for (const run of runs.filter((r) => r.name.includes('before'))) for (let n = 0; n < warmUp + orders; n++) await place(run, n >= warmUp);
  return runs.map((r) => {
    const sorted = [...r.samples].sort((a, b) => a - b);
    const round = (x: number): number => Math.round(x * 10) / 10;
    return { case: r.name, samples: sorted.length, p50Us: round(median(sorted)), p99Us: round(percentile(sorted, 99)) };
  });
}

/**
 * To the first byte on a socket: `newOrder()` with the default `fetch` (node:http keep-alive) against a server in
 * this process on loopback, and a bare `http.request` of the same placement on a keep-alive agent, alternated; the
 * time of the first `Socket#write` after the call (the client's request: the server writes only after it).
 */
export async function firstByte(orders: number, warmUp = 500): Promise<OrderPathRow[]> {
  const server = createServer({ keepAlive: true }, (req, res) => {
    req.resume();
    req.on('end', () => res.end(req.url?.startsWith('/api/v1/time') ? JSON.stringify({ serverTime: Date.now() }) : ORDER_ANSWER));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let first = 0;
  const write = Socket.prototype.write;
  Socket.prototype.write = function (this: Socket, ...args: unknown[]): boolean {
    if (first === 0) first = performance.now();
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof write;
  try {
    const rest = restClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', secretKey: SECRET });
    await new Promise<void>((resolve) => rest.warm().subscribe({ complete: resolve }));
    const agent = new Agent({ keepAlive: true });
    const headers = { 'X-EX-APIKEY': 'k', 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' };
    const body = `symbol=BTCUSDT&side=BUY&type=LIMIT&price=76320.80&quantity=0.01&recvWindow=5000&timestamp=1&signature=${'a'.repeat(64)}`;
    const cases: Array<{ name: string; place: () => Promise<void>; samples: number[] }> = [
      {
        name: 'secretKey + default fetch (node:http): to the first socket write',
        place: () =>
          new Promise<void>((resolve, reject) =>
            rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '76320.80', quantity: '0.01' }).subscribe({ complete: resolve, error: reject }),
          ),
        samples: [],
      },
      {
        name: 'bare http.request (a signed body ready): to the first socket write',
        place: () =>
          new Promise<void>((resolve) => {
            const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1.1/spot/order', agent, headers }, (res) => res.resume().on('end', resolve));
            req.end(body);
          }),
        samples: [],
      },
    ];
    for (let n = 0; n < warmUp + orders; n++) {
      for (const c of n % 2 === 0 ? cases : [...cases].reverse()) {
        first = 0;
        const t0 = performance.now();
        await c.place();
        if (n >= warmUp) c.samples.push((first - t0) * 1000);
      }
    }
    agent.destroy();
    const round = (x: number): number => Math.round(x * 10) / 10;
    return cases.map((c) => {
      const sorted = [...c.samples].sort((a, b) => a - b);
      return { case: c.name, samples: sorted.length, p50Us: round(median(sorted)), p99Us: round(percentile(sorted, 99)) };
    });
  } finally {
    Socket.prototype.write = write;
    server.closeAllConnections();
    server.close();
  }
}

/** The markdown table of {@link orderPath}'s rows. */
export function orderPathTable(rows: readonly OrderPathRow[]): string {
  const head = '| newOrder() → fetch() | samples | p50 µs | p99 µs | target p50 |\n|---|---:|---:|---:|---:|';
  const target = (name: string): string => (name.includes('before') || name.includes('socket write') ? '' : '≤ 30 µs');
  return [head, ...rows.map((r) => `| ${r.case} | ${r.samples} | ${r.p50Us} | ${r.p99Us} | ${target(r.case)} |`)].join('\n');
}

if (require.main === module) {
  const n = process.argv.includes('--quick') ? 1000 : 5000;
  Promise.all([orderPath(n)]).then(async ([rows]) => [...rows, ...(await firstByte(n))]).then(
    (rows) => {
      process.stdout.write(orderPathTable(rows) + '\n');
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write((e instanceof Error ? (e.stack ?? e.message) : String(e)) + '\n');
      process.exit(1);
    },
  );
}
