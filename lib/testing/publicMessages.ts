import type { DepthRecord } from '../codecs/depth';
import type { PublicEnvelope } from '../codecs/envelope';
import type { KlineRecord } from '../codecs/kline';
import type { PublicErrorFrame } from '../codecs/publicErrorFrame';
import type { RealtimesRecord } from '../codecs/realtimes';
import type { TradeRecord } from '../codecs/trade';

/**
 * Builders of public stream messages (records, envelopes, error frames) with realistic defaults, for the
 * values of test exchange scripts. Every builder returns the wire shape, which is also what the codecs
 * decode it to, so the same value serves as the expected value of a marble assertion. Ids are text; prices
 * and quantities are decimal text; times default to 0 (the virtual clock's start).
 *
 * @module
 */

const DEFAULT_SYMBOL = 'BTCUSDT';

/**
 * Options of the envelope builders ({@link tradeEnvelope}, {@link depthEnvelope}, {@link klineEnvelope},
 * {@link realtimesEnvelope}).
 *
 * @example
 * ```ts
 * import { tradeEnvelope, tradeRecord } from 'ex-streams/testing';
 * tradeEnvelope([tradeRecord({ v: '7' })], { symbol: 'ETHUSDT', first: true, sendTime: 1000 });
 * ```
 */
export interface EnvelopeOptions {
  /** `symbol` and `symbolName`. Default `'BTCUSDT'`. */
  readonly symbol?: string | undefined;
  /** `f`: first message of a (re)subscription. Default `false`. */
  readonly first?: boolean | undefined;
  /** `sendTime` (ms). Default: absent. */
  readonly sendTime?: number | undefined;
  /**
   * `id`, the echoed request id (text). Default: absent; the test exchange then fills in the id of the live
   * subscription of the connection it delivers to (routing by `(symbol, topic)` works without it anyway).
   */
  readonly id?: string | undefined;
  /** `params.binary`. Default `false` (the test exchange zips the frame when the subscription asked for binary). */
  readonly binary?: boolean | undefined;
}

function envelope<R>(topic: string, data: readonly R[], options: EnvelopeOptions, klineType?: string): PublicEnvelope<R> {
  const { symbol = DEFAULT_SYMBOL, first = false, sendTime, id, binary = false } = options;
  return {
    symbol,
    symbolName: symbol,
    topic,
    params: { realtimeInterval: '24h', binary, ...(klineType !== undefined && { klineType }) },
    data: [...data],
    f: first,
    ...(sendTime !== undefined && { sendTime }),
    shared: false,
    ...(id !== undefined && { id }),
  };
}

const many = <R>(data: R | readonly R[]): readonly R[] => (Array.isArray(data) ? (data as readonly R[]) : [data as R]);

/**
 * A public trade record: `{ v: '1', t: 0, p: '100', q: '1', m: false }` with `over` applied.
 *
 * @example
 * ```ts
 * import { tradeRecord } from 'ex-streams/testing';
 * tradeRecord({ v: '929681067596857345', p: '34924.15' });
 * // { v: '929681067596857345', t: 0, p: '34924.15', q: '1', m: false }
 * ```
 */
export function tradeRecord(over: Partial<TradeRecord> = {}): TradeRecord {
  return { v: '1', t: 0, p: '100', q: '1', m: false, ...over };
}

/**
 * A depth (order book) record: `{ t: 0, s: 'BTCUSDT', a: [['100.5', '1']], b: [['99.5', '1']] }` with
 * `over` applied (asks ascending, bids descending, as the service sends them).
 *
 * @example
 * ```ts
 * import { depthRecord } from 'ex-streams/testing';
 * depthRecord({ b: [['100', '2']], a: [['101', '1'], ['102', '5']] });
 * ```
 */
export function depthRecord(over: Partial<DepthRecord> = {}): DepthRecord {
  return { t: 0, s: DEFAULT_SYMBOL, a: [['100.5', '1']], b: [['99.5', '1']], ...over };
}

/**
 * A kline (candle) record: open time 0, flat at `'100'`, volume `'0'`, with `over` applied.
 *
 * @example
 * ```ts
 * import { klineRecord } from 'ex-streams/testing';
 * klineRecord({ t: 60_000, o: '100', h: '105', l: '99', c: '104', v: '3.5' });
 * ```
 */
export function klineRecord(over: Partial<KlineRecord> = {}): KlineRecord {
  return { t: 0, s: DEFAULT_SYMBOL, sn: DEFAULT_SYMBOL, o: '100', h: '100', l: '100', c: '100', v: '0', ...over };
}

/**
 * A 24-hour ticker record of the `realtimes` topic: flat at `'100'`, no volume, exchange id `'301'`, with
 * `over` applied.
 *
 * @example
 * ```ts
 * import { realtimesRecord } from 'ex-streams/testing';
 * realtimesRecord({ c: '101.5', h: '102', m: '0.015' });
 * ```
 */
export function realtimesRecord(over: Partial<RealtimesRecord> = {}): RealtimesRecord {
  return {
    t: 0,
    s: DEFAULT_SYMBOL,
    sn: DEFAULT_SYMBOL,
    o: '100',
    h: '100',
    l: '100',
    c: '100',
    v: '0',
    qv: '0',
    m: '0',
    e: '301',
    ...over,
  };
}

/**
 * A `trade` data message carrying `trades` (one record or several; default one {@link tradeRecord}).
 *
 * @example
 * ```ts
 * import { tradeEnvelope, tradeRecord, type TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.public('-a-b', {
 *   a: tradeEnvelope([tradeRecord({ v: '1' }), tradeRecord({ v: '2' })], { first: true }),
 *   b: tradeEnvelope(tradeRecord({ v: '3', p: '101' })),
 * });
 * ```
 */
export function tradeEnvelope(
  trades: TradeRecord | readonly TradeRecord[] = tradeRecord(),
  options: EnvelopeOptions = {},
): PublicEnvelope<TradeRecord> {
  return envelope('trade', many(trades), options);
}

/**
 * A `depth` data message carrying one order book snapshot (default {@link depthRecord}).
 *
 * @example
 * ```ts
 * import { depthEnvelope, depthRecord, type TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.public('-a', { a: depthEnvelope(depthRecord({ b: [['99', '1']], a: [['101', '1']] })) });
 * ```
 */
export function depthEnvelope(book: DepthRecord = depthRecord(), options: EnvelopeOptions = {}): PublicEnvelope<DepthRecord> {
  return envelope('depth', [book], options);
}

/**
 * A kline data message: response topic `kline` with `params.klineType` = `interval` (default `'1m'`), as the
 * service answers a `kline_1m` subscription.
 *
 * @example
 * ```ts
 * import { klineEnvelope, klineRecord, type TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.public('-a', { a: klineEnvelope(klineRecord({ c: '104' }), { interval: '5m' }) });
 * // routed to market.klines('BTCUSDT', '5m')
 * ```
 */
export function klineEnvelope(
  candles: KlineRecord | readonly KlineRecord[] = klineRecord(),
  options: EnvelopeOptions & { readonly interval?: string | undefined } = {},
): PublicEnvelope<KlineRecord> {
  return envelope('kline', many(candles), options, options.interval ?? '1m');
}

/**
 * A `realtimes` (24-hour ticker) data message carrying one record (default {@link realtimesRecord}).
 *
 * @example
 * ```ts
 * import { realtimesEnvelope, realtimesRecord, type TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.public('-a', { a: realtimesEnvelope(realtimesRecord({ c: '101' }), { symbol: 'ETHUSDT' }) });
 * ```
 */
export function realtimesEnvelope(
  ticker: RealtimesRecord = realtimesRecord(),
  options: EnvelopeOptions = {},
): PublicEnvelope<RealtimesRecord> {
  return envelope('realtimes', [ticker], options);
}

/**
 * The error frame the public stream sends for a refused subscription (unknown symbol or topic):
 * `{ id?, code: '-100010', desc: 'Invalid Symbols!', symbol: 'BTCUSDT', topic: 'trade' }` with `over` applied.
 * `marketStreams` errors that topic's observable with a `SubscriptionRejectedError`.
 *
 * @example
 * ```ts
 * import { subscriptionError, type TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.public('-e', { e: subscriptionError({ symbol: 'NOPE', topic: 'depth' }) });
 * ```
 */
export function subscriptionError(over: Partial<PublicErrorFrame> = {}): PublicErrorFrame {
  return { code: '-100010', desc: 'Invalid Symbols!', symbol: DEFAULT_SYMBOL, topic: 'trade', ...over };
}
