import { candleEnd, candleStart, isKlineInterval, KLINE_INTERVALS, type KlineInterval } from '../../lib/simulator/market/candles';
import { parseDecimal } from '../../lib/decimal/fixed';
import { klineRecord } from '../../lib/simulator/market/marketRecords';
import { idSource, SymbolMarket } from '../../lib/simulator/market/market';
import { klines } from '../../lib/simulator/market/marketRest';
import { symbolInfo, type SymbolInfo } from '../../lib/simulator/market/symbols';

const at = (iso: string): number => Date.parse(iso);

describe('isKlineInterval', () => {
  it('knows the service intervals, and nothing else', () => {
    for (const interval of KLINE_INTERVALS) expect(isKlineInterval(interval)).toBe(true);
    for (const text of ['1s', '2m', '1H', '1D', '', '1m ']) expect(isKlineInterval(text)).toBe(false);
  });
});

describe('candleStart / candleEnd', () => {
  it.each<[string, string, string, string]>([
    ['1m', '2024-02-29T13:45:59.999Z', '2024-02-29T13:45:00.000Z', '2024-02-29T13:45:59.999Z'],
    ['15m', '2024-02-29T13:45:00.000Z', '2024-02-29T13:45:00.000Z', '2024-02-29T13:59:59.999Z'],
    ['4h', '2024-02-29T13:45:00.000Z', '2024-02-29T12:00:00.000Z', '2024-02-29T15:59:59.999Z'],
    ['1d', '2024-02-29T13:45:00.000Z', '2024-02-29T00:00:00.000Z', '2024-02-29T23:59:59.999Z'],
    // Weeks start on Monday (2024-02-26), months on the 1st (February of a leap year ends on the 29th).
    ['1w', '2024-02-29T13:45:00.000Z', '2024-02-26T00:00:00.000Z', '2024-03-03T23:59:59.999Z'],
    ['1w', '2024-02-26T00:00:00.000Z', '2024-02-26T00:00:00.000Z', '2024-03-03T23:59:59.999Z'],
    ['1w', '1970-01-01T00:00:00.000Z', '1969-12-29T00:00:00.000Z', '1970-01-04T23:59:59.999Z'],
    ['1M', '2024-02-29T13:45:00.000Z', '2024-02-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z'],
    ['1M', '2023-12-31T23:59:59.999Z', '2023-12-01T00:00:00.000Z', '2023-12-31T23:59:59.999Z'],
  ])('%s at %s starts at %s and ends at %s', (interval, t, start, end) => {
    if (!isKlineInterval(interval)) throw new Error(interval);
    const s = candleStart(interval, at(t));
    expect(new Date(s).toISOString()).toBe(start);
    expect(new Date(candleEnd(interval, s)).toISOString()).toBe(end);
  });

  it('tiles time: every interval ends one ms before the next starts', () => {
    for (const interval of KLINE_INTERVALS) {
      const s = candleStart(interval, at('2024-12-31T23:00:00.000Z'));
      const e = candleEnd(interval, s);
      expect(candleStart(interval, e)).toBe(s);
      expect(candleStart(interval, e + 1)).toBe(e + 1);
    }
  });
});

describe('REST candles and live candles', () => {
  const MIN = 60_000;
  const T0 = 1_700_000_040_000;

  it.each<KlineInterval>(['1m', '5m'])('agree for every %s candle with trades: GET /quote/v1/klines shows what the stream showed', (interval) => {
    const m = new SymbolMarket(symbolInfo('BTCUSDT') as SymbolInfo, 1, idSource(5n), T0);
    m.trades.splice(0);
    const from = candleStart(interval, T0 + 10 * MIN);
    // the last state the stream pushed of each candle: a push every 10 s (so a candle is opened flat, at the last
    // price, before its first trade) and a trade every 37 s, at prices that move both ways
    const live = new Map<number, string[]>();
    const prices = ['100', '103', '99', '101', '97', '104', '102', '98'];
    const push = (t: number): void => {
      const c = klineRecord(m, interval, t) as Record<'o' | 'h' | 'l' | 'c' | 'v', string> & { t: number };
      live.set(c.t, [c.o, c.h, c.l, c.c, c.v]);
    };
    for (let s = 0, i = 0; s < 25 * 60; s++) {
      const t = from + s * 1000;
      if (s % 10 === 0) push(t);
      if (s % 37 === 5) {
        m.recordTrade(parseDecimal(prices[i % prices.length] as string) ?? 0n, parseDecimal('0.5') ?? 0n, i % 2 === 0, t);
        i += 1;
        push(t);
      }
    }
    const answer = klines(new Map([['BTCUSDT', m]]), new Map(Object.entries({ symbol: 'BTCUSDT', interval })));
    if (!answer.ok) throw new Error('klines refused');
    const rest = new Map((answer.body as Array<[number, ...string[]]>).map(([t, ...rest]) => [t, rest.slice(0, 5)]));
    expect(live.size).toBeGreaterThan(1);
    // every candle the stream showed, as it showed it (the answer holds the older, synthetic ones too: issue 40)
    expect(new Map([...rest].filter(([t]) => live.has(t)))).toEqual(live);
  });
});
