import * as E from 'fp-ts/Either';
import { DepthEnvelopeCodec } from '../../codecs/depth';
import { KlineEnvelopeCodec } from '../../codecs/kline';
import { RealtimesEnvelopeCodec } from '../../codecs/realtimes';
import { TradeEnvelopeCodec } from '../../codecs/trade';
import { isRecord } from '../../internal/guards';
import { binaryFrameText } from '../../testing/internal/recordedFrame';
import type { RecordedEvent, Recording } from '../../testing/recording';
import { isKlineInterval } from './candles';
import { decimalsOf, parseDecimal, SCALE } from '../../decimal/fixed';
import type { Level } from './market';

/** A recorded public trade, scaled decimals; `id` the recorded id when it is numeric text. @internal */
export interface RecordedTrade {
  readonly id: bigint | undefined;
  readonly t: number;
  readonly price: bigint;
  readonly qty: bigint;
  readonly m: boolean;
}

/**
 * A recorded public data message, read: a trade message's trades, a depth message's book (bids descending, asks
 * ascending), or a kline / realtimes message's records as received (`topic` as subscribed: `kline_1m`, `realtimes`).
 * @internal
 */
export type RecordedMessage =
  | { readonly symbol: string; readonly topic: 'trade'; readonly trades: readonly RecordedTrade[] }
  | { readonly symbol: string; readonly topic: 'depth'; readonly bids: Level[]; readonly asks: Level[] }
  | { readonly symbol: string; readonly topic: string; readonly records: ReadonlyArray<Record<string, unknown>> };

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** The JSON value of a recorded frame (`f` text, `b` zipped binary), undefined for other lines or unreadable frames. */
const frameValue = (event: RecordedEvent): unknown => {
  if (event.k === 'f') return parseJson(event.d);
  if (event.k === 'b') {
    const text = binaryFrameText(event.d);
    return text === undefined ? undefined : parseJson(text);
  }
  return undefined;
};

const levels = (raw: ReadonlyArray<readonly [string, string]>, descending: boolean): Level[] => {
  const out: Level[] = [];
  for (const [p, q] of raw) {
    const price = parseDecimal(p);
    const qty = parseDecimal(q);
    if (price !== undefined && qty !== undefined && price > 0n && qty > 0n) out.push({ price, qty });
  }
  return out.sort((a, b) => (a.price === b.price ? 0 : (a.price < b.price) !== descending ? -1 : 1));
};

/**
 * Reads one recorded line as a public data message (decoded with the library's own envelope codecs), or undefined:
 * lines that are no frame, frames that are no topic's data (pongs, error frames), frames that do not decode. Prices
 * or quantities that are not plain decimal text (a sign, an exponent) drop their trade or level. Never throws.
 * @internal
 */
export function readRecordedMessage(event: RecordedEvent): RecordedMessage | undefined {
  const value = frameValue(event);
  if (!isRecord(value) || typeof value['topic'] !== 'string') return undefined;
  switch (value['topic']) {
    case 'trade': {
      const decoded = TradeEnvelopeCodec.decode(value);
      if (E.isLeft(decoded)) return undefined;
      const trades: RecordedTrade[] = [];
      for (const r of decoded.right.data) {
        const price = parseDecimal(r.p);
        const qty = parseDecimal(r.q);
        if (price === undefined || qty === undefined || price <= 0n || qty <= 0n) continue;
        trades.push({ id: /^\d{1,20}$/.test(r.v) ? BigInt(r.v) : undefined, t: r.t, price, qty, m: r.m });
      }
      return { symbol: decoded.right.symbol, topic: 'trade', trades };
    }
    case 'depth': {
      const decoded = DepthEnvelopeCodec.decode(value);
      const book = E.isRight(decoded) ? decoded.right.data[decoded.right.data.length - 1] : undefined;
      if (E.isLeft(decoded) || book === undefined) return undefined;
      return { symbol: decoded.right.symbol, topic: 'depth', bids: levels(book.b, true), asks: levels(book.a, false) };
    }
    case 'realtimes':
      return E.isRight(RealtimesEnvelopeCodec.decode(value)) ? rawRecords(value, 'realtimes') : undefined;
    case 'kline': {
      const interval = isRecord(value['params']) ? value['params']['klineType'] : undefined;
      if (typeof interval !== 'string' || !isKlineInterval(interval) || E.isLeft(KlineEnvelopeCodec.decode(value))) return undefined;
      return rawRecords(value, `kline_${interval}`);
    }
    default:
      return undefined;
  }
}

/** The records of a decoded kline / realtimes message, as received (so every field the service sent is replayed). */
const rawRecords = (value: Record<string, unknown>, topic: string): RecordedMessage => ({
  symbol: value['symbol'] as string,
  topic,
  records: (value['data'] as unknown[]).filter(isRecord),
});

/** What a recording holds for the simulator: its start time, its public lines, and the pairs with their decimals. @internal */
export interface RecordedMarketData {
  /** Receive time of the recording's first line: recorded time `t` plays at `start + (t - t0) / speed`. */
  readonly t0: number;
  /** The recording's lines of public streams (the lines after a private `start` line are left out), in order. */
  readonly events: readonly RecordedEvent[];
  /** Each pair with data in the recording, and the most decimals its recorded prices and quantities have. */
  readonly symbols: ReadonlyMap<string, { readonly priceDecimals: number; readonly qtyDecimals: number }>;
}

/**
 * Scans a recording once: its public lines, the pairs their data messages name and the decimals of their trade
 * prices and quantities and depth levels (the most decimals a recorded value needs, a trailing zero not counted,
 * so the pair's tick and step hold every recorded value; together at most 18, the price's first). Never throws.
 * @internal
 */
export function readRecordedMarket(recording: Recording): RecordedMarketData {
  const events: RecordedEvent[] = [];
  const symbols = new Map<string, { priceDecimals: number; qtyDecimals: number }>();
  let isPublic = true;
  for (const event of recording.events) {
    if (event.k === 'start') isPublic = event.stream === 'public';
    if (!isPublic) continue;
    events.push(event);
    const message = event.k === 'f' || event.k === 'b' ? readRecordedMessage(event) : undefined;
    if (message === undefined) continue;
    const d = symbols.get(message.symbol) ?? { priceDecimals: 0, qtyDecimals: 0 };
    symbols.set(message.symbol, d);
    const note = (price: bigint, qty: bigint): void => {
      d.priceDecimals = Math.max(d.priceDecimals, decimalsOf(price));
      d.qtyDecimals = Math.max(d.qtyDecimals, decimalsOf(qty));
    };
    if ('trades' in message) for (const t of message.trades) note(t.price, t.qty);
    if ('bids' in message) for (const l of [...message.bids, ...message.asks]) note(l.price, l.qty);
  }
  for (const d of symbols.values()) {
    d.priceDecimals = Math.min(d.priceDecimals, SCALE);
    d.qtyDecimals = Math.min(d.qtyDecimals, SCALE - d.priceDecimals);
  }
  return { t0: recording.events[0]?.t ?? 0, events, symbols };
}
