/**
 * Issue 41's socket-free order path: from `rest.newOrder(...)` (a LIMIT, generated client order id, the default
 * server clock already learned) to the call of `fetch`, whose stub records `performance.now()` and answers at
 * once. Alternated in one run: the default signer (`secretKey`: `node:crypto`, synchronous, on Node) against Web
 * Crypto's `subtle.sign` passed as `sign` (what the default was before), and a venue preset (its rate-limit gate,
 * limits never reached) against a bare `baseUrl`. Reported: median and p99 in µs. Part of `npm run bench` (`--only=tick`); alone:
 *
 *   node -r ts-node/register/transpile-only spec/bench/orderPath.ts [--quick]
 */
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

/** Runs `orders` placements per case, alternating the cases order by order, after `warmUp` each. */
export async function orderPath(orders: number, warmUp = 500): Promise<OrderPathRow[]> {
  const runs = CASES.map((c) => {
    const stub = stubFetch();
    return { name: c.name, stub, rest: restClient(c.config(stub.fetch)), samples: [] as number[] };
  });
  for (let n = 0; n < warmUp + orders; n++) {
    for (const run of n % 2 === 0 ? runs : [...runs].reverse()) {
      const t0 = performance.now();
      await new Promise<void>((resolve, reject) =>
        run.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '76320.80', quantity: '0.01' }).subscribe({ complete: resolve, error: reject }),
      );
      if (n >= warmUp) run.samples.push((run.stub.last() - t0) * 1000);
    }
  }
  return runs.map((r) => {
    const sorted = [...r.samples].sort((a, b) => a - b);
    const round = (x: number): number => Math.round(x * 10) / 10;
    return { case: r.name, samples: sorted.length, p50Us: round(median(sorted)), p99Us: round(percentile(sorted, 99)) };
  });
}

/** The markdown table of {@link orderPath}'s rows. */
export function orderPathTable(rows: readonly OrderPathRow[]): string {
  const head = '| newOrder() → fetch() | samples | p50 µs | p99 µs | target p50 |\n|---|---:|---:|---:|---:|';
  return [head, ...rows.map((r) => `| ${r.case} | ${r.samples} | ${r.p50Us} | ${r.p99Us} | ${r.case.includes('before') ? '' : '≤ 30 µs'} |`)].join('\n');
}

if (require.main === module) {
  orderPath(process.argv.includes('--quick') ? 1000 : 5000).then(
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
