import { symbolInfo } from '../../lib/simulator/symbols';

describe('symbolInfo', () => {
  it('splits a pair by its quote and gives the known start price and precisions', () => {
    expect(symbolInfo('BTCUSDT')).toEqual({ symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', priceDecimals: 2, qtyDecimals: 4, startPrice: expect.any(BigInt) });
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

  it.each(['BTCEUR', 'btcusdt', 'USDT', 'B', 'BTC-USDT', 'A'.repeat(21) + 'USDT', ''])('rejects %p', (symbol) => {
    expect(symbolInfo(symbol)).toBeUndefined();
  });
});
