import { candleEnd, candleStart, isKlineInterval, KLINE_INTERVALS } from '../../lib/simulator/candles';

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
