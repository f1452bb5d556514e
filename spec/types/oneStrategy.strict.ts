/**
 * A "user project" file: one strategy, written once against the types of `ex-streams`, run on every market source
 * the package has (live `marketStreams`, the Redis relay's consumer, the recorder's live market, a replayed
 * recording, the test exchange) and one order watcher on every `UserStream` (live, recorded, test exchange). Each
 * entry's declarations must share one definition of each public type: when an entry bundles its own copy, a class
 * with private members (`OrdersState`) or a `unique symbol` makes the copies different types, and these calls are
 * `TS2345` errors. The records of `ex-streams/codecs` and the builders of `ex-streams/testing` are the core's types
 * too. Type-checked against the built, packed package under the strictest settings and `skipLibCheck: false`, on
 * TypeScript 5.9, 6 and 7 (`scripts/check-strict-consumers.ts`), never run.
 */
import { filter, map, merge, Observable, type Subscription } from 'rxjs';
import {
  marketStreams,
  orderBook,
  restClient,
  userStream,
  type ExecutionReport,
  type MarketStreams,
  type OrderBook,
  type TradeRecord,
  type UserStream,
} from 'ex-streams';
import type { DepthRecord as CodecsDepthRecord, TradeRecord as CodecsTradeRecord } from 'ex-streams';
import { ordersState, type OrdersState } from 'ex-streams/folds';
import { loadRecording, recordMarket, recordUser, type MarketRecording, type UserRecording } from 'ex-streams/node';
import { redisMarketStreams, type RedisMarketStreams } from 'ex-streams/redis';
import { startSimulator } from 'ex-streams/simulator';
import {
  depthRecord,
  executionReport,
  replayMarket,
  testExchange,
  tradeRecord,
  type ReplayedMarket,
  type TestExchange,
} from 'ex-streams/testing';

/** What the strategy reads of a market: every source has it (a replay has no `serverClock`). */
export type MarketFeed = Pick<MarketStreams, 'trades' | 'depth' | 'klines' | 'status$' | 'errors$' | 'gaps$'>;

export interface Signal {
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly price: string;
}

/**
 * A trade through the book's best ask, above the last closed minute's close, is a buy signal; one through the best
 * bid, below it, a sell signal.
 */
export function signals(market: MarketFeed, symbol: string): Observable<Signal> {
  let book: OrderBook | undefined;
  let close: string | undefined;
  const books = market.depth(symbol).pipe(
    orderBook({ levels: 5 }),
    map((next): Signal | undefined => {
      book = next;
      return undefined;
    }),
  );
  const candles = market.klines(symbol, '1m').pipe(
    map((candle): Signal | undefined => {
      close = candle.c;
      return undefined;
    }),
  );
  const trades = market.trades(symbol).pipe(map((trade: CodecsTradeRecord) => signalOf(symbol, trade, book, close)));
  return merge(books, candles, trades).pipe(filter((s): s is Signal => s !== undefined));
}

function signalOf(symbol: string, trade: TradeRecord, book: OrderBook | undefined, close: string | undefined): Signal | undefined {
  const ask = book?.bestAsk?.[0];
  const bid = book?.bestBid?.[0];
  const trend = close === undefined ? 0 : Number(trade.p) - Number(close);
  if (ask !== undefined && trend >= 0 && Number(trade.p) >= Number(ask)) return { symbol, side: 'buy', price: trade.p };
  if (bid !== undefined && trend <= 0 && Number(trade.p) <= Number(bid)) return { symbol, side: 'sell', price: trade.p };
  return undefined;
}

/** The same strategy, typed against the whole `MarketStreams` (every source but a replay is one). */
export function run(market: MarketStreams, symbol: string): Subscription {
  const subscription = signals(market, symbol).subscribe((s) => console.log(s.side, s.price));
  subscription.add(market.status$.subscribe((s) => console.log(s.connection.type, market.serverClock.offsetMs())));
  subscription.add(market.gaps$.subscribe((gap) => console.warn(gap.symbol, gap.lastSeenId, gap.firstNewId)));
  return subscription;
}

/** Open orders, from any user stream: `OrdersState` is a class with private members, the same class everywhere. */
export function openOrders(orders: OrdersState): number {
  return [...orders.values()].filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED').length;
}

export function watch(user: UserStream): Subscription {
  const subscription = user.orders$.subscribe((orders) => console.log(openOrders(orders), 'open'));
  subscription.add(user.executionReports$.subscribe((report: ExecutionReport) => console.log(report.i, report.X)));
  return subscription;
}

export async function everySource(exchange: TestExchange): Promise<void> {
  // live, against the simulator
  const simulator = await startSimulator();
  const live: MarketStreams = marketStreams({ url: simulator.publicStreamUrl });
  run(live, 'BTCUSDT');
  const rest = restClient({ baseUrl: simulator.baseUrl, apiKey: simulator.apiKey, secretKey: simulator.secretKey });
  watch(userStream({ url: simulator.privateStreamUrl, rest }));

  // the Redis relay's consumer (ex-streams/redis)
  const relayed: RedisMarketStreams = redisMarketStreams({ redis: 'redis://127.0.0.1:6379' });
  run(relayed, 'BTCUSDT');
  const asCore: MarketStreams = relayed;
  signals(asCore, 'BTCUSDT').subscribe();

  // the recorder's live market and user stream (ex-streams/node)
  const recording: MarketRecording = recordMarket({ url: simulator.publicStreamUrl, symbols: ['BTCUSDT'], topics: ['trade', 'depth'], out: 'rec' });
  run(recording.market, 'BTCUSDT');
  const userRecording: UserRecording = recordUser({ user: { url: simulator.privateStreamUrl, rest }, out: 'rec-private' });
  watch(userRecording.user);

  // a replayed recording (ex-streams/testing, loaded by ex-streams/node)
  const replayed: ReplayedMarket = replayMarket(await loadRecording('rec'), { scheduler: exchange.scheduler });
  signals(replayed, 'BTCUSDT').subscribe((s) => console.log('replayed', s.side));
  replayMarket(await loadRecording('rec', { lazy: true }));

  // the test exchange (ex-streams/testing): its configs are the core's
  run(marketStreams(exchange.marketConfig()), 'BTCUSDT');
  watch(userStream(exchange.userConfig()));

  // records built by the testing kit are the core's records and the codecs' records
  const trade: TradeRecord = tradeRecord({ p: '100' });
  const book: CodecsDepthRecord = depthRecord({ b: [['99', '1']], a: [['101', '1']] });
  console.log(signalOf('BTCUSDT', trade, undefined, undefined), book.s);
  const reports: Observable<ExecutionReport> = new Observable<ExecutionReport>((out) => out.next(executionReport({ i: '1' })));
  reports.pipe(ordersState()).subscribe((orders) => console.log(openOrders(orders)));

  await recording.stop();
  await userRecording.stop();
  await simulator.close();
}

/** The test exchange of a marble test. */
export const exchange: TestExchange = testExchange();
