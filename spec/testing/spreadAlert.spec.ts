// The complete example of docs/testing.md, which shows this file (spec/testing/spreadAlert.spec.ts) as is,
// except that the doc imports 'ex-streams' and 'ex-streams/testing' where the spec imports the same modules
// from '../../lib/index' and '../../lib/testing/index'.
import { distinctUntilChanged, filter, map, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { type MarketStreams, marketStreams, orderBook } from '../../lib/index';
import type { DecimalText } from '../../lib/orders/index';
import { depthEnvelope, depthRecord, testExchange } from '../../lib/testing/index';

// ---- the application code under test ----------------------------------------------------------

/** An alert: the spread of `symbol` went above the threshold. */
interface SpreadAlert {
  readonly symbol: string;
  readonly spread: string;
}

/** Emits once each time the spread of `symbol` goes from at most `maxSpread` to above it. */
function spreadAlert(market: MarketStreams, symbol: string, maxSpread: number): Observable<SpreadAlert> {
  return market.depth(symbol).pipe(
    orderBook({ levels: 1 }),
    map((book) => book.spread), // exact decimal text, absent when a side is empty
    filter((spread): spread is string => spread !== undefined),
    map((spread) => ({ spread, wide: Number(spread) > maxSpread })),
    distinctUntilChanged((a, b) => a.wide === b.wide), // threshold crossings only
    filter(({ wide }) => wide),
    map(({ spread }) => ({ symbol, spread })),
  );
}

// ---- the test ------------------------------------------------------------------------------------

/** A depth message whose best bid and best ask are `bid` and `ask`. */
const book = (bid: DecimalText, ask: DecimalText) => depthEnvelope(depthRecord({ b: [[bid, '1']], a: [[ask, '1']] }));

describe('spreadAlert', () => {
  it('fires once when the spread widens, and survives a reconnect', () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    testScheduler.run(({ expectObservable, expectSubscriptions, flush }) => {
      const exchange = testExchange({ scheduler: testScheduler });
      const market = marketStreams(exchange.marketConfig());

      // Connection 1: normal (spread 1), wide (10), still wide (12); then the socket drops at 6 ms.
      exchange.server.public('-a-b-c', { a: book('100', '101'), b: book('100', '110'), c: book('100', '112') }, { connection: 1 });
      exchange.drop({ stream: 'public', at: 6 });
      // The client reconnects after 500 ms (no jitter in tests) and subscribes again; connection 2 starts
      // wide (no second alert: nothing changed for the user), narrows, then widens again.
      exchange.server.public('-d-e-f', { d: book('100', '111'), e: book('100', '102'), f: book('100', '108') }, { connection: 2 });

      // Alerts at 3 ms (b) and 511 ms (f: connection 2 opened at 506); d, wide again after the reconnect, is no news.
      expectObservable(spreadAlert(market, 'BTCUSDT', 5), '^ 1s !').toBe('---x 507ms y', {
        x: { symbol: 'BTCUSDT', spread: '10' },
        y: { symbol: 'BTCUSDT', spread: '8' },
      });
      // One socket until the drop, the next one from 506 ms until the alert is unsubscribed at 1001 ms.
      expectSubscriptions(exchange.logs('public')).toBe(['^-----!', '506ms ^ 494ms !']);

      flush();
      // The depth topic was subscribed on each connection, with a fresh request id.
      expect(exchange.sent({ kind: 'sub' }).map((f) => [f.time, f.connection, f.frame])).toEqual([
        [0, 1, { symbol: 'BTCUSDT', topic: 'depth', event: 'sub', params: { binary: false }, id: 1 }],
        [506, 2, { symbol: 'BTCUSDT', topic: 'depth', event: 'sub', params: { binary: false }, id: 2 }],
      ]);
    });
  });
});
