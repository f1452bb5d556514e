/**
 * Issue 26's latency: from a private frame handed to the library (a `ws`-like stand-in socket's `'message'`
 * listener, socket-free) to the value at a subscriber, with the user's default settings (real clock, 250 ms hold):
 * `orders$` and `balances$` (folded on arrival) against `executionReports$` (ordered by `E` behind the hold).
 * Frames arrive 3 ms apart, as on a calm account, each one execution report and one account update of the same
 * order's fill. Reported: median and p99 per output. Part of `npm run bench` (`--only=orders`); alone:
 *
 *   node -r ts-node/register/transpile-only spec/bench/orderLatency.ts [--quick]
 */
import { of } from 'rxjs';
import { userStream } from '../../lib/user/userStream';
import { standInSockets } from './standInSocket';

/** A latency row: an output, how many samples, median and p99 in ms. */
export interface OrderLatencyRow {
  readonly output: string;
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

const ORDER_ID = '1920153487203598001';

/** Frame `n`: the n-th fill of one order (cumulative filled quantity n) and the balance it leaves, `E` = now. */
function fillFrame(n: number, E: number): Buffer {
  return Buffer.from(
    `[{"e":"executionReport","E":"${E}","s":"ETHBTC","c":"xs1","S":"BUY","o":"LIMIT","f":"GTC","q":"1000000","p":"0.1","reqAmt":"0",` +
      `"X":"PARTIALLY_FILLED","d":"${1_950_000_000_000_000_000n + BigInt(n)}","i":"${ORDER_ID}","l":"1","r":"${1_000_000 - n}","z":"${n}",` +
      `"L":"0.1","V":"0.1","n":"0","N":"ETH","u":true,"w":true,"m":false,"O":"${E}","U":"${E}","Z":"${n / 10}","x":"NONE"},` +
      `{"e":"outboundAccountInfo","E":"${E}","T":true,"W":true,"D":true,"B":[{"a":"ETH","f":"${n}","l":"0"}]}]`,
  );
}

const quantile = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

/** Runs `warmUp` frames, then `frames` frames measured, `gapMs` apart; resolves with a row per output. */
export async function orderLatency(frames: number, gapMs = 3, warmUp = 300): Promise<OrderLatencyRow[]> {
  const sockets = standInSockets();
  const user = userStream({ url: 'ws://127.0.0.1:1/api/v1/ws', listenKey$: of('benchkey'), WebSocketCtor: sockets.Ctor });
  const handedAt = new Map<number, bigint>();
  const samples: Record<'orders$' | 'balances$' | 'executionReports$', number[]> = { orders$: [], balances$: [], executionReports$: [] };
  const since = (n: number): number => {
    if (n <= warmUp) return NaN;
    const at = handedAt.get(n);
    return at === undefined ? NaN : Number(process.hrtime.bigint() - at) / 1e6;
  };
  const subs = [
    user.orders$.subscribe((o) => {
      const z = o.get(ORDER_ID)?.filledQuantity;
      if (z !== undefined) samples.orders$.push(since(Number(z)));
    }),
    user.balances$.subscribe((b) => {
      const f = b.get('ETH')?.free;
      if (f !== undefined) samples.balances$.push(since(Number(f)));
    }),
    user.executionReports$.subscribe((r) => samples.executionReports$.push(since(Number(r.z)))),
  ];
  await new Promise((resolve) => setTimeout(resolve, 20)); // the stand-in socket opens
  const listener = sockets.listener();
  for (let n = 1; n <= warmUp + frames; n++) {
    const frame = fillFrame(n, Date.now());
    handedAt.set(n, process.hrtime.bigint());
    listener(frame, false);
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  await new Promise((resolve) => setTimeout(resolve, 400)); // the last hold
  subs.forEach((s) => s.unsubscribe());
  return (Object.keys(samples) as (keyof typeof samples)[]).map((output) => {
    const measured = samples[output].filter((x) => !Number.isNaN(x));
    return { output: `userStream(...).${output}`, samples: measured.length, p50Ms: round(quantile(measured, 0.5)), p99Ms: round(quantile(measured, 0.99)) };
  });
}

/** The markdown table of {@link orderLatency}'s rows, with issue 26's targets for the state outputs. */
export function orderLatencyTable(rows: readonly OrderLatencyRow[]): string {
  const target = (o: string): string => (o.endsWith('executionReports$') ? 'the hold (250 ms)' : '≤ 0.2 / ≤ 2');
  const head = '| output | samples | p50 ms | p99 ms | target p50 / p99 ms |\n|---|---:|---:|---:|---|';
  return [head, ...rows.map((r) => `| ${r.output} | ${r.samples} | ${r.p50Ms} | ${r.p99Ms} | ${target(r.output)} |`)].join('\n');
}

if (require.main === module) {
  orderLatency(process.argv.includes('--quick') ? 300 : 1500).then(
    (rows) => {
      process.stdout.write(orderLatencyTable(rows) + '\n');
      process.exit(0);
    },
    (e: unknown) => {
      process.stderr.write((e instanceof Error ? (e.stack ?? e.message) : String(e)) + '\n');
      process.exit(1);
    },
  );
}
