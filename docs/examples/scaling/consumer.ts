/**
 * One consumer of the scaling example (a child process of main.ts): reads the gateway's Redis streams with
 * `redisMarketStreams`, the very surface of `marketStreams`, and prints at once, then at most once a second.
 *
 *   book SYMBOL: the order book's best bid, best ask and spread (`depth(symbol).pipe(orderBook())`)
 *   vwap SYMBOL: the volume-weighted average price of the trades seen so far (`trades(symbol)`)
 *
 *   npx ts-node --transpile-only docs/examples/scaling/consumer.ts book BTCUSDT [REDIS_URL] [PREFIX]
 *
 * It stops on a `stop` message from its parent, on SIGTERM or on SIGINT (its subscriptions end, Redis closes).
 */
import { type Observable, map, scan, throttleTime } from 'rxjs';
import { orderBook } from '../../../lib/index';
import { redisMarketStreams } from '../../../lib/redis/index';

const [kind = 'book', symbol = 'BTCUSDT', redis = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', prefix = 'xs:example:'] = process.argv.slice(2);
const market = redisMarketStreams({ redis, prefix });
const name = `${kind} ${symbol}`;

const lines: Observable<string> =
  kind === 'vwap'
    ? market.trades(symbol).pipe(
        scan((s, t) => ({ trades: s.trades + 1, quote: s.quote + Number(t.p) * Number(t.q), quantity: s.quantity + Number(t.q) }), { trades: 0, quote: 0, quantity: 0 }),
        throttleTime(1000, undefined, { leading: true, trailing: true }),
        // floating point is fine for a display; an order's price goes through the decimal functions
        map((s) => `${name}: ${s.trades} trades, VWAP ${(s.quote / s.quantity).toFixed(2)}`),
      )
    : market.depth(symbol).pipe(
        orderBook(),
        throttleTime(1000, undefined, { leading: true, trailing: true }),
        map((b) => `${name}: bid ${b.bestBid?.[0] ?? '-'} ask ${b.bestAsk?.[0] ?? '-'} spread ${b.spread ?? '-'}`),
      );

const printing = lines.subscribe((line) => process.stdout.write(`${line}\n`));
const relayGaps = market.relayGaps$.subscribe((g) => process.stdout.write(`${name}: relay gap (${g.reason}), the streams start over\n`));
const errors = market.errors$.subscribe((e) => process.stderr.write(`${name}: ${e.message}\n`));

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  // the last subscriber gone: the relay socket closes, its Redis connections with it
  for (const s of [printing, relayGaps, errors]) s.unsubscribe();
  process.disconnect?.();
  setTimeout(() => process.exit(0), 200).unref();
};
process.on('message', (m) => m === 'stop' && stop());
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.send?.('ready');
