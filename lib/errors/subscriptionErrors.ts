/**
 * The service answered one subscription with an error frame (unknown symbol or topic). Only the
 * observable of that subscription errors; every other topic keeps flowing.
 *
 * @example
 * ```ts
 * import { SubscriptionRejectedError } from 'ex-streams';
 * new SubscriptionRejectedError('NOPE', 'trade', '-100010', 'Invalid Symbols!').message;
 * // 'subscription NOPE trade rejected: code -100010: Invalid Symbols!'
 * ```
 */
export class SubscriptionRejectedError extends Error {
  override readonly name = 'SubscriptionRejectedError';
  constructor(
    readonly symbol: string,
    readonly topic: string,
    readonly code?: number | string,
    readonly msg?: string,
  ) {
    super(
      `subscription ${symbol} ${topic} rejected` +
        (code !== undefined ? `: code ${code}` : '') +
        (msg !== undefined ? `: ${msg}` : ''),
    );
  }
}

/**
 * What kind of refusal a {@link SubscriptionRetriedError} reports (the service's code, read with the table in
 * docs/market-streams.md, "When the service says no"): a rate limit (`-1003`, `-1015`), a busy or failing service (`-1000`,
 * `-1001`, `-1006`, `-1007`, `-1016`), or a code the library does not know.
 *
 * @example
 * ```ts
 * import { SubscriptionRetriedError, type SubscriptionRetryKind } from 'ex-streams';
 *
 * const kindOf = (e: Error): SubscriptionRetryKind | undefined => (e instanceof SubscriptionRetriedError ? e.kind : undefined);
 * kindOf(new SubscriptionRetriedError(['BTCUSDT'], 'trade', '-1003', 'Too many requests', 'rate-limit')); // 'rate-limit'
 * ```
 */
export type SubscriptionRetryKind = 'rate-limit' | 'busy' | 'unknown';

const RETRY_WORDS: Readonly<Record<SubscriptionRetryKind, string>> = {
  'rate-limit': 'a rate limit',
  busy: 'the service is busy or failing',
  unknown: 'a code the library does not know',
};

/** `A, B, C and 17 more`. */
function symbolList(symbols: readonly string[]): string {
  const shown = symbols.slice(0, 3).join(', ');
  return symbols.length > 3 ? `${shown} and ${symbols.length - 3} more` : shown;
}

/**
 * The service refused subscriptions for now: a rate limit, a busy or failing service, or a code the library does
 * not know. Reported on `errors$`; the topics do not end: each is subscribed again after a jittered backoff
 * (1 s, doubling, capped at 30 s). `symbols` are the topics it applied to (empty when the frame named nothing
 * and no subscription was waiting for an answer).
 *
 * @example
 * ```ts
 * import { SubscriptionRetriedError } from 'ex-streams';
 * new SubscriptionRetriedError(['BTCUSDT'], 'trade', '-1003', 'Too many requests', 'rate-limit').message;
 * // 'subscription BTCUSDT trade refused for now: code -1003: Too many requests (a rate limit); sent again after a backoff'
 * ```
 */
export class SubscriptionRetriedError extends Error {
  override readonly name = 'SubscriptionRetriedError';
  constructor(
    /** The symbols of the topics sent again. */
    readonly symbols: readonly string[],
    /** Their request topic (`trade`, `kline_1m`, …), when known. */
    readonly topic: string | undefined,
    /** The service's code, as sent. */
    readonly code: number | string,
    /** The service's words (`desc` or `msg`), redacted and cut short. */
    readonly msg: string | undefined,
    /** What the code says. */
    readonly kind: SubscriptionRetryKind,
  ) {
    super(
      (symbols.length === 0 ? 'a request refused for now' : `subscription ${symbolList(symbols)}${topic === undefined ? '' : ` ${topic}`} refused for now`) +
        `: code ${code}${msg !== undefined ? `: ${msg}` : ''} (${RETRY_WORDS[kind]})` +
        (symbols.length === 0 ? '; nothing was waiting for an answer' : '; sent again after a backoff'),
    );
  }
}

/**
 * A topic whose `sub` the connection did not survive: it closed right after that `sub` (before any data) several
 * times in a row (`quarantineAfterCloses`, default 3), the topic alone waiting for an answer each time. The topic
 * ends with this error so that the other topics of the connection keep flowing; `closeCode` is the last close's
 * code (`undefined` when the socket was lost without one).
 *
 * @example
 * ```ts
 * import { TopicQuarantinedError, marketStreams } from 'ex-streams';
 *
 * const market = marketStreams({ url: 'wss://stream.example.com/quote/ws/v1' });
 * market.trades('BADPAIR').subscribe({
 *   error: (e) => {
 *     if (e instanceof TopicQuarantinedError) console.warn(e.symbol, e.topic, e.closeCode, e.closes); // 'BADPAIR' 'trade' 1008 3
 *   },
 * });
 * new TopicQuarantinedError('BADPAIR', 'trade', 1008, 3).message;
 * // 'topic BADPAIR trade quarantined: the connection closed (code 1008) right after its sub 3 times in a row, before any data'
 * ```
 */
export class TopicQuarantinedError extends Error {
  override readonly name = 'TopicQuarantinedError';
  constructor(
    readonly symbol: string,
    readonly topic: string,
    /** The close code of the last of those closes, `undefined` without one. */
    readonly closeCode: number | undefined,
    /** How many closes in a row followed its `sub`. */
    readonly closes: number,
  ) {
    super(
      `topic ${symbol} ${topic} quarantined: the connection closed${closeCode === undefined ? '' : ` (code ${closeCode})`} ` +
        `right after its sub ${closes} times in a row, before any data`,
    );
  }
}
