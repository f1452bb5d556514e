/**
 * The public API at work: every stream the demo shows, turned into `DemoEvent`s. This is the part to read
 * to see how ex-streams is used.
 */
import {
  catchError,
  connect,
  ignoreElements,
  map,
  merge,
  mergeMap,
  type MonoTypeOperatorFunction,
  type Observable,
  of,
  type OperatorFunction,
} from 'rxjs';
import { orderBook, type MarketMessage, type MarketStreams, type UserStream } from '../../../lib/index';
import { describeError } from './describe';
import type { DemoEvent, ServerClockReading } from './model';

/** Candle interval shown. */
export const CANDLE_INTERVAL = '1m';

/** Counts each message (and notes the first one after a resubscription), and turns its records into events. */
const counted = <R>(symbol: string, records: OperatorFunction<R, DemoEvent>): OperatorFunction<MarketMessage<R>, DemoEvent> =>
  connect((messages$) =>
    merge(
      messages$.pipe(map(({ topic, first, epoch }): DemoEvent => ({ type: 'marketMessage', symbol, topic, first, epoch }))),
      messages$.pipe(mergeMap((m) => m.data), records),
    ),
  );

/** A topic that the service rejects (unknown symbol, say) ends with a note; the other topics keep flowing. */
const noteRejection = (what: string): MonoTypeOperatorFunction<DemoEvent> =>
  catchError((error: Error) => of<DemoEvent[]>({ type: 'note', level: 'warn', text: `${what} stopped: ${describeError(error)}` }));

/** Book, trades, candle and ticker of one symbol. */
function symbolFeed(market: MarketStreams, symbol: string): Observable<DemoEvent> {
  return merge(
    market.depthMessages(symbol).pipe(
      counted(symbol, (records$) => records$.pipe(orderBook({ levels: 5 }), map((book): DemoEvent => ({ type: 'book', symbol, book })))),
      noteRejection(`${symbol} depth`),
    ),
    // tradeMessages only counts (it still carries the 60-trade replays); trades() is each trade once, in id order.
    market.tradeMessages(symbol).pipe(counted(symbol, ignoreElements()), noteRejection(`${symbol} trade messages`)),
    market.trades(symbol).pipe(map((trade): DemoEvent => ({ type: 'trade', symbol, trade })), noteRejection(`${symbol} trades`)),
    market.klineMessages(symbol, CANDLE_INTERVAL).pipe(
      counted(symbol, map((candle): DemoEvent => ({ type: 'candle', symbol, interval: CANDLE_INTERVAL, candle }))),
      noteRejection(`${symbol} kline`),
    ),
    market.realtimesMessages(symbol).pipe(
      counted(symbol, map((ticker): DemoEvent => ({ type: 'ticker', symbol, ticker }))),
      noteRejection(`${symbol} realtimes`),
    ),
  );
}

/** Everything public: one websocket for all symbols and topics, plus its status, errors and trade gaps. */
export function marketFeed(market: MarketStreams, symbols: readonly string[]): Observable<DemoEvent> {
  return merge(
    market.status$.pipe(map((status): DemoEvent => ({ type: 'marketStatus', status }))),
    market.errors$.pipe(map((error): DemoEvent => ({ type: 'error', stream: 'public', error }))),
    market.gaps$.pipe(map((gap): DemoEvent => ({ type: 'tradeGap', gap }))),
    ...symbols.map((symbol) => symbolFeed(market, symbol)),
  );
}

/**
 * Everything private: orders and balances folded from the user stream, its status, errors and gaps. `serverClock`:
 * the service's clock, read as each `orders$` state comes, to show how long after its event time a fill reached
 * the state (`orders$` folds on arrival: no hold).
 */
export function userFeed(user: UserStream, serverClock?: () => ServerClockReading): Observable<DemoEvent> {
  return merge(
    user.status$.pipe(map((status): DemoEvent => ({ type: 'userStatus', status }))),
    user.errors$.pipe(map((error): DemoEvent => ({ type: 'error', stream: 'private', error }))),
    user.gaps$.pipe(map((gap): DemoEvent => ({ type: 'userGap', gap }))),
    user.events$.pipe(map((): DemoEvent => ({ type: 'userEvent' }))),
    user.orders$.pipe(map((orders): DemoEvent => ({ type: 'orders', orders, ...(serverClock && { serverClock: serverClock() }) }))),
    user.balances$.pipe(map((balances): DemoEvent => ({ type: 'balances', balances }))),
  );
}
