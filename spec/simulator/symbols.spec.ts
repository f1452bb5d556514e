import { unit } from '../../lib/decimal/fixed';
import { symbolInfo } from '../../lib/simulator/market/symbols';

describe('symbolInfo', () => {
  it('splits a pair by its quote and gives the known start price and precisions', () => {
    expect(symbolInfo('BTCUSDT')).toEqual({
      symbol: 'BTCUSDT',
      base: 'BTC',
      quote: 'USDT',
      priceDecimals: 2,
      qtyDecimals: 4,
      startPrice: expect.any(BigInt),
      rules: expect.objectContaining({ tickSize: unit(2), stepSize: unit(4) }),
    });
    expect(symbolInfo('ETHBTC')).toMatchObject({ base: 'ETH', quote: 'BTC', priceDecimals: 6 });
  });

  it('starts an unknown pair at 100 in USDT, else at 0.05', () => {
    const usdt = symbolInfo('DOGEUSDT')!;
    const eth = symbolInfo('DOGEETH')!;
    expect([usdt.quote, usdt.priceDecimals, eth.quote, eth.priceDecimals]).toEqual(['USDT', 2, 'ETH', 6]);
    expect(usdt.startPrice).not.toBe(eth.startPrice);
  });

  it('orders the start prices as the texts say', () => {
    expect(symbolInfo('BTCUSDT')!.startPrice > symbolInfo('ETHUSDT')!.startPrice).toBe(true);
    expect(symbolInfo('ETHUSDT')!.startPrice > symbolInfo('XRPUSDT')!.startPrice).toBe(true);
  });

  it('takes its precisions from overridden tick and step sizes', () => {
    const info = symbolInfo('BTCUSDT', { tickSize: '0.5', stepSize: '0.001' })!;
    expect([info.priceDecimals, info.qtyDecimals, info.rules.tickSize, info.rules.stepSize]).toEqual([1, 3, unit(1) * 5n, unit(3)]);
    expect(symbolInfo('BTCUSDT', { tickSize: '5' })!.priceDecimals).toBe(0);
  });

  it.each(['BTCEUR', 'btcusdt', 'USDT', 'B', 'BTC-USDT', 'A'.repeat(21) + 'USDT', ''])('rejects %p', (symbol) => {
    expect(symbolInfo(symbol)).toBeUndefined();
  });
});
