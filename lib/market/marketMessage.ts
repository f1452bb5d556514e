/**
 * One public data message of a topic subscription, with its records decoded: what
 * `marketStreams().klineMessages(...)` and its siblings emit. The record methods (`kline`, `trades`, ...)
 * emit `data` flattened.
 *
 * @example
 * ```ts
 * import { marketStreams } from 'ex-streams';
 * const market = marketStreams({ url: 'wss://example.invalid/quote/ws/v1' });
 * market.tradeMessages('BTCUSDT').subscribe((m) => {
 *   if (m.first) console.log(`epoch ${m.epoch}: ${m.data.length} recent trades`); // 60 after each (re)subscription
 *   console.log('server sent at', m.sendTime);
 * });
 * ```
 */
export interface MarketMessage<R> {
  /** The symbol subscribed to. */
  readonly symbol: string;
  /** The topic subscribed to: `kline_1m`, `realtimes`, `trade` or `depth`. */
  readonly topic: string;
  /** The message is the first one of a (re)subscription (`f`). For trades it carries the most recent 60. */
  readonly first: boolean;
  /** Server send time (ms), when the service sent one. */
  readonly sendTime?: number;
  /** Connection epoch (1 for the first socket, +1 per reconnect) the message arrived in. */
  readonly epoch: number;
  /** The records that decoded; a record that failed its codec is reported on `errors$` instead. */
  readonly data: readonly R[];
}

/**
 * Per-subscription options of the `marketStreams` topic methods.
 *
 * @example
 * ```ts
 * import { marketStreams, type TopicOptions } from 'ex-streams';
 *
 * const zipped: TopicOptions = { binary: true };
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).depth('BTCUSDT', zipped).subscribe((book) => console.log(book.t));
 * ```
 */
export interface TopicOptions {
  /**
   * Ask for zip binary frames (decoded transparently). Default: the `binary` of `MarketStreamsConfig` (false).
   * Applies when this observer starts the server subscription; one joining a live subscription shares it.
   */
  readonly binary?: boolean | undefined;
}

/**
 * Options of `marketStreams().depth()` and `depthMessages()`.
 *
 * @example
 * ```ts
 * import { marketStreams, type DepthOptions } from 'ex-streams';
 *
 * const top50: DepthOptions = { limit: 50 };
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).depth('BTCUSDT', top50).subscribe((book) => console.log(book.b.length)); // 50
 * ```
 */
export interface DepthOptions extends TopicOptions {
  /**
   * Levels a side the service is asked for (`params.limit`, 1 to 200). Default: none sent (the service's 200). One
   * `limit` per symbol at a time: a second observer asking for another while the first is subscribed gets a
   * `ConfigError`.
   */
  readonly limit?: number | undefined;
}

/**
 * Options of the merged books: `mergedDepth()`, `diffMergedDepth()` and `incrementalBook()` of `marketStreams`.
 *
 * @example
 * ```ts
 * import { marketStreams, type MergedDepthOptions } from 'ex-streams';
 *
 * const cents: MergedDepthOptions = { dumpScale: 2 }; // levels merged to 0.01
 * marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' }).mergedDepth('BTCUSDT', cents).subscribe((book) => console.log(book.b[0]));
 * ```
 */
export interface MergedDepthOptions extends TopicOptions {
  /**
   * Decimals the levels are merged to (`params.dumpScale`, required by the service): 2 merges prices to 0.01 (bids
   * rounded down, asks up, quantities summed). An integer from 0 to 18; at most the pair's own price decimals.
   */
  readonly dumpScale: number;
  /** Levels a side (`params.limit`, 1 to 200), `mergedDepth` only. Default: none sent. */
  readonly limit?: number | undefined;
}
