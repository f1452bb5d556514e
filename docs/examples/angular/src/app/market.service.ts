import { Injectable, inject } from '@angular/core';
import { marketStreams, orderBook, type MarketStatus, type OrderBook, type TradeRecord } from 'ex-streams';
import { type Observable, map, scan } from 'rxjs';
import { MARKET_STREAM_URL } from './stream-config';

/**
 * The app's one door to the public market streams: one `marketStreams` (one websocket) for the whole app.
 *
 * Everything it returns is cold and reference-counted by ex-streams: the socket opens with the first
 * subscriber (an `async` pipe in a template), each `(symbol, topic)` is subscribed on the server once however
 * many components show it, and when the last subscriber goes (the component is destroyed) the topic is
 * cancelled and the socket closed. So the service holds no subscription and needs no ngOnDestroy.
 */
@Injectable({ providedIn: 'root' })
export class MarketService {
  private readonly market = marketStreams({
    url: inject(MARKET_STREAM_URL),
    // The browser's native WebSocket. It is also the default in browsers; naming it keeps `ws` out of the picture.
    WebSocketCtor: WebSocket,
  });

  /** Connection state and counters; replays the current one and never opens the socket by itself. */
  readonly status$: Observable<MarketStatus> = this.market.status$;

  /** Non-fatal errors (bad frames, the cause of each lost socket). The streams go on after them. */
  readonly errors$: Observable<Error> = this.market.errors$;

  /** A checked view of each depth snapshot: best-first sides, exact decimal `spread` and `mid`. */
  book(symbol: string, levels = 10): Observable<OrderBook> {
    return this.market.depth(symbol).pipe(orderBook({ levels }));
  }

  /** The last `count` trades, newest first; each trade id once, in id order, across reconnects. */
  lastTrades(symbol: string, count = 10): Observable<readonly TradeRecord[]> {
    return this.market.trades(symbol).pipe(
      scan((last: readonly TradeRecord[], trade: TradeRecord) => [trade, ...last].slice(0, count), []),
    );
  }

  /** One line of status, for a header. */
  statusLine(): Observable<string> {
    return this.status$.pipe(
      map(({ connection, topics, decodeErrors }) =>
        `${connection.type} · epoch ${connection.epoch} · topics ${topics} · decode errors ${decodeErrors}`),
    );
  }
}
