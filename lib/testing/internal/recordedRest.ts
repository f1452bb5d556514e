import { type Observable, of } from 'rxjs';
import type { KlineRecord } from '../../codecs/kline';
import type { RestKline } from '../../codecs/rest/marketData';
import type { ExchangeInfo } from '../../codecs/rest/exchangeInfo';
import type { RestCalls } from '../../rest/callTypes';
import { type CorruptLine, isCorruptLine, type LazyRecording, type RecordedEvent, type Recording } from '../recording';

/** A lazy recording's REST lines are looked for in its first minute (the recorder writes them at its start) … */
const SCAN_MS = 60_000;
/** … and its first lines, at most. */
const SCAN_LINES = 100_000;

/** The REST answers a recording kept (`recordMarket({ rest })`): its pairs' rules and its candles before the start. @internal */
export interface RecordedRest {
  /** The last `exchangeInfo` line's rules, if any. */
  readonly exchangeInfo: ExchangeInfo | undefined;
  /** `GET /quote/v1/klines` over the recorded candles: open times in `[startTime, endTime]`, the latest `limit` (500). */
  readonly klines: RestCalls['klines'];
}

/**
 * The REST answers of a recording: its `exchangeInfo` and `klines` lines (all of a recording in memory; those of a
 * lazy one's first minute, read ahead once, as the recorder writes them at its start). `klines` answers at once
 * (on subscription), with what the recording holds: fewer candles than asked when it holds fewer (the history then
 * says so: a `KlineGap` with `fault: 'short'` on `klineGaps$`). @internal
 */
export function recordedRest(recording: Recording | LazyRecording): RecordedRest {
  let exchangeInfo: ExchangeInfo | undefined;
  const candles = new Map<string, Map<number, KlineRecord>>();
  const read = (event: RecordedEvent): void => {
    if (event.k === 'exchangeInfo') exchangeInfo = event.info;
    if (event.k !== 'klines') return;
    const key = `${event.symbol}|${event.interval}`;
    const byTime = candles.get(key) ?? new Map<number, KlineRecord>();
    candles.set(key, byTime);
    for (const candle of event.candles) byTime.set(candle.t, candle);
  };
  if ('lines' in recording) {
    let first: number | undefined;
    let n = 0;
    for (const line of recording.lines as Iterable<RecordedEvent | CorruptLine>) {
      if (isCorruptLine(line)) continue;
      first ??= line.t;
      if (line.t > first + SCAN_MS || ++n > SCAN_LINES) break;
      read(line);
    }
  } else {
    for (const event of recording.events) read(event);
  }
  const sorted = new Map([...candles].map(([key, byTime]) => [key, [...byTime.values()].sort((a, b) => a.t - b.t)] as const));
  return {
    exchangeInfo,
    klines: ({ symbol, interval, startTime = 0, endTime = Infinity, limit = 500 }): Observable<RestKline[]> =>
      of((sorted.get(`${symbol}|${interval}`) ?? []).filter((c) => c.t >= startTime && c.t <= endTime).slice(-limit).map(({ t, o, h, l, c, v }) => ({ t, o, h, l, c, v }))),
  };
}
