import { isPlatformBrowser } from '@angular/common';
import { Injectable, PLATFORM_ID, inject } from '@angular/core';
import { marketStreams, orderBook, type MarketStatus, type OrderBook, type TradeRecord } from 'ex-streams';
import { EMPTY, type Observable, defer, map, scan } from 'rxjs';
import { MARKET_STREAM_URL } from './stream-config';

/**
 * The app's one door to the public market streams: one `marketStreams` (one websocket) for the whole app.
 *
 * Everything it returns is cold and reference-counted by ex-streams: the socket opens with the first
 * subscriber (a `toSignal` or an `async` pipe in a component), each `(symbol, topic)` is subscribed on the
 * server once however many components show it, and when the last subscriber goes (the component is destroyed)
 * the topic is cancelled and the socket closed. So the service holds no subscription and needs no ngOnDestroy.
 *
 * Server-side rendering: creating `marketStreams` opens nothing and reads no browser global, so the service may
 * be built on the server; the data streams are live in the browser only (`live`), and the server renders their
 * loading state. `status$` never opens a socket by itself, so it is safe everywhere.
 */
@Injectable({ providedIn: 'root' })
export class MarketService {
  /** No websocket is ever opened on the server (SSR / prerendering). */
  private readonly inBrowser = isPlatformBrowser(inject(PLATFORM_ID));

  // No WebSocketCtor: in browsers the default is the native WebSocket (the package's browser build never
  // mentions `ws`). Naming the global `WebSocket` here would throw on a server without one.
  private readonly market = marketStreams({ url: inject(MARKET_STREAM_URL) });

  /** Connection state and counters; replays the current one and never opens the socket by itself. */
  readonly status$: Observable<MarketStatus> = this.market.status$;

  /** Non-fatal errors (bad frames, the cause of each lost socket). The streams go on after them. */
  readonly errors$: Observable<Error> = this.market.errors$;

  /** A checked view of each depth snapshot: best-first sides, exact decimal `spread` and `mid`. */
  book(symbol: string, levels = 10): Observable<OrderBook> {
    return this.live(() => this.market.depth(symbol).pipe(orderBook({ levels })));
  }

  /** The last `count` trades, newest first; each trade id once, in id order, across reconnects. */
  lastTrades(symbol: string, count = 10): Observable<readonly TradeRecord[]> {
    return this.live(() =>
      this.market.trades(symbol).pipe(scan((last: readonly TradeRecord[], trade: TradeRecord) => [trade, ...last].slice(0, count), [])),
    );
  }

  /** One line of status, for a header. */
  statusLine(): Observable<string> {
    return this.status$.pipe(
      map(({ connection, topics, decodeErrors }) =>
        `${connection.type} · epoch ${connection.epoch} · topics ${topics} · decode errors ${decodeErrors}`),
    );
  }

  /** The stream in the browser; on the server, nothing (it completes at once, so rendering never waits on it). */
  private live<T>(stream: () => Observable<T>): Observable<T> {
    return this.inBrowser ? defer(stream) : EMPTY;
  }
}
