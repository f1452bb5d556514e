/**
 * The library's own cost per frame, without sockets: a `marketStreams` whose websocket is a stand-in that
 * hands pre-received frames (Buffers, as `ws` delivers them) straight to the session's `'message'` listener,
 * against `JSON.parse(buffer.toString())` on the same buffers. Prints ns per frame, the overhead and the
 * ratio, per round. Not a jest spec; run by hand, e.g. under `--cpu-prof`:
 *
 *   node -r ts-node/register/transpile-only spec/bench/overhead.ts trade 1000000
 *
 * shapes: trade, kline, depth.
 */
import type { Observable } from 'rxjs';
import { marketStreams } from '../../lib/market/marketStreams';
import { BT, template } from './frames';
import { standInSockets } from './standInSocket';

const shape = (process.argv[2] ?? 'trade') as 'trade' | 'kline' | 'depth';
const frames = Number(process.argv[3] ?? 1_000_000);
const text = template(shape).split(BT).join('1626249138535.123');
const pool = Array.from({ length: 1024 }, () => Buffer.from(text));

async function main(): Promise<void> {
  const sockets = standInSockets();
  const market = marketStreams({ url: 'ws://127.0.0.1:1/quote/ws/v1', WebSocketCtor: sockets.Ctor });
  const stream: Observable<unknown> =
    shape === 'trade' ? market.tradeMessages('BTCUSDT') : shape === 'kline' ? market.klineMessages('BTCUSDT', '1m') : market.depthMessages('BTCUSDT');
  let delivered = 0;
  const subscription = stream.subscribe(() => delivered++);
  await new Promise<void>((resolve) => queueMicrotask(() => queueMicrotask(resolve)));
  const deliver = sockets.listener();
  let parsed = 0;
  for (let round = 0; round < 5; round++) {
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < frames; i++) parsed += (JSON.parse(pool[i & 1023]!.toString()) as { data: unknown[] }).data.length;
    const floor = Number(process.hrtime.bigint() - t0) / frames;
    t0 = process.hrtime.bigint();
    for (let i = 0; i < frames; i++) deliver(pool[i & 1023]!, false);
    const ours = Number(process.hrtime.bigint() - t0) / frames;
    process.stdout.write(
      `${shape}: JSON.parse ${floor.toFixed(0)} ns, marketStreams ${ours.toFixed(0)} ns, overhead ${(ours - floor).toFixed(0)} ns, ` +
        `ratio ${((100 * floor) / ours).toFixed(1)} %\n`,
    );
  }
  subscription.unsubscribe();
  if (delivered !== 5 * frames || parsed === 0) throw new Error(`delivered ${delivered} of ${5 * frames}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(String(e) + '\n');
    process.exit(1);
  },
);
