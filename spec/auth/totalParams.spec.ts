import { totalParams } from '../../lib/auth/totalParams';

describe('totalParams', () => {
  it('joins query and body with no separator', () => {
    expect(totalParams('symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC', 'quantity=1&price=0.1')).toBe(
      'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTCquantity=1&price=0.1',
    );
  });

  it('is the one non-empty part when all parameters are on one side', () => {
    expect(totalParams('a=1', '')).toBe('a=1');
    expect(totalParams('', 'b=2')).toBe('b=2');
    expect(totalParams('', '')).toBe('');
  });
});
