/**
 * A "user project" file: the README's pipelines written as a user would, type-checked against the built package (`npm run build` first) under the strictest
 * settings users turn on (`tsconfig.strictest.json`: exactOptionalPropertyTypes, noUncheckedIndexedAccess,
 * noPropertyAccessFromIndexSignature), with no cast. Only compiled (`npx tsc -p tsconfig.strictest.json`), never run.
 */
import { marketStreams, orderBook, restClient, userStream } from 'ex-streams';

export function readmeMarket(): void {
  const market = marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' });
  market
    .depth('BTCUSDT')
    .pipe(orderBook())
    .subscribe((book) => console.log('bid', book.bestBid?.[0], 'ask', book.bestAsk?.[0], 'spread', book.spread));
  market.trades('BTCUSDT').subscribe((t) => console.log('trade', t.v, t.p, t.q));
  market.status$.subscribe((s) => console.log('connection', s.connection.type, 'epoch', s.connection.epoch));
}

export function readmeUser(): void {
  const rest = restClient({
    baseUrl: 'https://api.example.com',
    apiKey: process.env['EX_STREAMS_API_KEY'] ?? '',
    secretKey: process.env['EX_STREAMS_SECRET_KEY'] ?? '',
  });
  const user = userStream({ url: 'wss://stream.example.com/api/v1/ws', rest });
  user.orders$.subscribe((orders) => console.log(orders.size, 'orders known'));
  user.executionReports$.subscribe((r) => console.log(r.i, r.X, r.z, '/', r.q));
  user.gaps$.subscribe((g) => console.warn('events may be missing between epochs; reconcile over REST', g));
}
