/**
 * The browser spec's test page: the core of ex-streams running in a real browser, as a user would write it.
 *
 * - market data: `depth` (JSON text frames) and `trades` (zip frames, `binary: true`, inflated by `inflateRaw` of
 *   `ex-streams/zip`) of one symbol through the browser's native `WebSocket` (no ctor injected);
 * - signing: `hmacSha256Hex` (Web Crypto) of a fixed message, and a signed `POST /api/v1/userDataStream` made
 *   by `restClient` (the simulator answers with a listen key only when the HMAC checks out).
 *
 * Everything it learns is rendered as text into `#book`, `#trades`, `#signature`, `#listen-key`, `#status` and
 * `#errors`; the spec reads those. Parameters come from the URL hash (fine for a test page, never for real keys):
 * `#stream=<ws url>&symbol=BTCUSDT&apiKey=...&secretKey=...&message=...`.
 */
import { map, scan } from 'rxjs';
import { marketStreams, orderBook, restClient, type TradeRecord } from '../../../lib/index';
import { hmacSha256Hex } from '../../../lib/signing';
import { inflateRaw } from '../../../lib/zip/index';

const params = new URLSearchParams(location.hash.slice(1));
const param = (name: string): string => params.get(name) ?? '';
const symbol = param('symbol') || 'BTCUSDT';

const show = (id: string, text: string): void => {
  const el = document.getElementById(id);
  if (el) el.textContent = text;
};

const market = marketStreams({ url: param('stream'), connection: { inflateRaw } });

market.status$.subscribe((s) => show('status', `${s.connection.type} epoch=${s.connection.epoch} topics=${s.topics}`));
market.errors$.subscribe((e) => show('errors', `${e.name}: ${e.message}`));

market
  .depth(symbol)
  .pipe(orderBook())
  .subscribe({
    next: (book) =>
      show('book', `${book.symbol} bid=${book.bestBid?.[0] ?? '-'} ask=${book.bestAsk?.[0] ?? '-'} spread=${book.spread ?? '-'} levels=${book.bids.length}/${book.asks.length}`),
    error: (e: Error) => show('errors', `depth: ${e.name}: ${e.message}`),
  });

market
  .trades(symbol, { binary: true })
  .pipe(
    scan((last: readonly TradeRecord[], trade) => [trade, ...last].slice(0, 5), []),
    map((last) => last.map((t) => `${t.v} ${t.m ? 'SELL' : 'BUY'} ${t.q} @ ${t.p}`).join('\n')),
  )
  .subscribe({
    next: (text) => show('trades', text),
    error: (e: Error) => show('errors', `trades: ${e.name}: ${e.message}`),
  });

hmacSha256Hex(param('secretKey'), param('message')).then(
  (hex) => show('signature', hex),
  (e: Error) => show('signature', `failed: ${e.message}`),
);

restClient({ baseUrl: location.origin, apiKey: param('apiKey'), secretKey: param('secretKey') })
  .createListenKey()
  .subscribe({
    next: (key) => show('listen-key', `listen key ok (${key.length} chars)`),
    error: (e: Error) => show('listen-key', `failed: ${e.name}: ${e.message}`),
  });
