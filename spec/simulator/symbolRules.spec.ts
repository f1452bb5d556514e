import { parseDecimal, unit } from '../../lib/decimal/fixed';
import { rejections } from '../../lib/simulator/http/httpErrors';
import { amountRejection, limitRejection, quantityRejection, symbolFilters, symbolRules } from '../../lib/simulator/market/symbolRules';

const d = (text: string): bigint => parseDecimal(text) ?? -1n;

describe('symbolRules', () => {
  it('defaults to the pair precisions: the tick and the step are the minimums, 10^8 the maximums, no minimum notional', () => {
    expect(symbolFilters(symbolRules('BTCUSDT', 2, 4))).toEqual([
      { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '100000000', tickSize: '0.01' },
      { filterType: 'LOT_SIZE', minQty: '0.0001', maxQty: '100000000', stepSize: '0.0001' },
      { filterType: 'MIN_NOTIONAL', minNotional: '0' },
      { filterType: 'TRADE_AMOUNT', minAmount: '0', maxAmount: '100000000' },
    ]);
  });

  it('takes overrides; minPrice and minQty follow an overridden tick and step, minAmount the minimum notional', () => {
    const rules = symbolRules('BTCUSDT', 2, 4, { tickSize: '0.5', stepSize: '0.001', minNotional: '5', maxAmount: '1000' });
    expect(symbolFilters(rules)).toEqual([
      { filterType: 'PRICE_FILTER', minPrice: '0.5', maxPrice: '100000000', tickSize: '0.5' },
      { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '100000000', stepSize: '0.001' },
      { filterType: 'MIN_NOTIONAL', minNotional: '5' },
      { filterType: 'TRADE_AMOUNT', minAmount: '5', maxAmount: '1000' },
    ]);
  });

  it.each<[object, string]>([
    [{ tickSize: 'x' }, "symbolRules.BTCUSDT.tickSize must be plain decimal text (at most 18 decimals), got 'x'"],
    [{ minNotional: '-1' }, "symbolRules.BTCUSDT.minNotional must be plain decimal text (at most 18 decimals), got '-1'"],
    [{ stepSize: '0' }, 'symbolRules.BTCUSDT: tickSize and stepSize must be positive'],
    [{ minQty: '0' }, 'symbolRules.BTCUSDT: minPrice and minQty must be positive'],
    [{ minPrice: '10', maxPrice: '9' }, 'symbolRules.BTCUSDT: each minimum must be at most its maximum'],
    [{ minAmount: '10', maxAmount: '9' }, 'symbolRules.BTCUSDT: each minimum must be at most its maximum'],
    [{ tickSize: '0.000000000000001' }, 'symbolRules.BTCUSDT: the decimals of tickSize and stepSize must add up to at most 18'],
  ])('refuses %j', (options, message) => {
    expect(() => symbolRules('BTCUSDT', 2, 4, options)).toThrow(message);
  });
});

describe('the checks of a rule set', () => {
  const rules = symbolRules('BTCUSDT', 2, 4, {
    minPrice: '100',
    maxPrice: '100000',
    minQty: '0.001',
    maxQty: '5',
    minNotional: '10',
    minAmount: '20',
    maxAmount: '50000',
  });

  it.each<[string, string, string, unknown]>([
    ['on the tick', '30000.01', '0.01', undefined],
    ['one digit beyond the tick', '30000.001', '0.01', rejections.priceTooPrecise],
    ['exactly the minimum price', '100', '0.1', undefined],
    ['one tick below the minimum price', '99.99', '0.2', rejections.priceTooLow],
    ['exactly the maximum price', '100000', '0.001', undefined],
    ['one tick above the maximum price', '100000.01', '0.001', rejections.priceTooHigh],
    ['a quantity half a step off', '30000', '0.00105', rejections.quantityTooPrecise],
    ['exactly the minimum quantity', '30000', '0.001', undefined],
    ['one step below the minimum quantity', '30000', '0.0009', rejections.quantityTooSmall],
    ['exactly the maximum quantity', '30000', '5', undefined],
    ['one step above the maximum quantity', '30000', '5.0001', rejections.quantityTooLarge],
    ['exactly the minimum notional', '100', '0.1', undefined],
    ['one step below the minimum notional', '100', '0.0999', rejections.notionalTooSmall],
    ['the price checked before the quantity', '30000.001', '0.00001', rejections.priceTooPrecise],
  ])('limit order, %s (%s × %s)', (_, price, qty, rejection) => {
    expect(limitRejection(rules, d(price), d(qty))).toEqual(rejection);
  });

  it('a market quantity meets LOT_SIZE only', () => {
    expect(quantityRejection(rules, d('0.001'))).toBeUndefined();
    expect(quantityRejection(rules, d('0.0009'))).toEqual(rejections.quantityTooSmall);
    expect(quantityRejection(rules, d('0.00011'))).toEqual(rejections.quantityTooPrecise);
  });

  it.each<[string, unknown]>([
    ['20', undefined],
    ['19.99', rejections.notionalTooSmall],
    ['50000', undefined],
    ['50000.01', rejections.amountTooLarge],
    ['20.001', rejections.amountTooPrecise],
  ])('market amount %s', (amount, rejection) => {
    expect(amountRejection(rules, d(amount))).toEqual(rejection);
  });

  it('a tick that is not a power of ten: prices are its multiples, amounts have its decimals', () => {
    const half = symbolRules('BTCUSDT', 2, 4, { tickSize: '0.5' });
    expect(limitRejection(half, d('30000.5'), d('1'))).toBeUndefined();
    expect(limitRejection(half, d('30000.2'), d('1'))).toEqual(rejections.priceTooPrecise);
    expect(amountRejection(half, d('100.5'))).toBeUndefined();
    expect(amountRejection(half, d('100.25'))).toEqual(rejections.amountTooPrecise);
    expect(half.minPrice).toBe(unit(1) * 5n);
  });
});
