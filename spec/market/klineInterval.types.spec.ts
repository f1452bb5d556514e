import { customKlineInterval, type KlineInterval } from '../../lib/market/klineInterval';
import { marketStreams } from '../../lib/market/marketStreams';

describe('kline intervals (types)', () => {
  // marketStreams opens nothing until subscribed: building the observables checks the types only
  const market = marketStreams({ url: 'ws://127.0.0.1:1/quote/ws/v1' });

  it("accepts every interval the service serves, and refuses '1min' at compile time", () => {
    const all: KlineInterval[] = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '1w', '1M'];
    for (const interval of all) expect(market.klines('BTCUSDT', interval)).toBeDefined();
    // @ts-expect-error '1min' is not an interval of the service
    market.klines('BTCUSDT', '1min');
    // @ts-expect-error neither is a plain string
    market.klineMessages('BTCUSDT', String('1m'));
    // @ts-expect-error the month is a capital M
    const month: KlineInterval = '1mo';
    expect(month).toBe('1mo');
  });

  it('lets customKlineInterval pass an interval the list does not know, unchanged', () => {
    const twoWeeks = customKlineInterval('2w');
    expect(twoWeeks).toBe('2w');
    expect(market.klines('BTCUSDT', twoWeeks)).toBeDefined();
    expect(market.klineMessages('BTCUSDT', customKlineInterval('2w'))).toBeDefined();
  });
});
