import fc from 'fast-check';
import { formEncode } from '../../lib/auth/formEncode';

describe('formEncode', () => {
  it('keeps the order of a pair list, repeated names included', () => {
    expect(formEncode([['b', '2'], ['a', '1'], ['b', '3']])).toBe('b=2&a=1&b=3');
  });

  it('keeps the insertion order of a record and skips undefined values', () => {
    expect(formEncode({ symbol: 'LTCBTC', side: 'BUY', note: undefined, type: 'LIMIT' })).toBe(
      'symbol=LTCBTC&side=BUY&type=LIMIT',
    );
  });

  it('writes numbers and booleans as their text', () => {
    expect(formEncode({ quantity: 1, price: 0.1, flag: true, off: false })).toBe('quantity=1&price=0.1&flag=true&off=false');
  });

  it('is empty for no parameters', () => {
    expect(formEncode({})).toBe('');
    expect(formEncode([])).toBe('');
  });

  it.each([
    ['&', '%26'],
    ['=', '%3D'],
    ['+', '%2B'],
    ['%', '%25'],
    [' ', '+'],
    ['a b&c=d+e%f', 'a+b%26c%3Dd%2Be%25f'],
    ['é', '%C3%A9'],
    ['日本', '%E6%97%A5%E6%9C%AC'],
    ['💹', '%F0%9F%92%B9'],
    ["!'()~", '%21%27%28%29%7E'],
    ['*-._', '*-._'],
  ])('encodes %j as %s (in names too)', (raw, encoded) => {
    expect(formEncode([['v', raw]])).toBe(`v=${encoded}`);
    expect(formEncode([[raw, 'x']])).toBe(`${encoded}=x`);
  });

  it('equals URLSearchParams and round-trips through it for any text', () => {
    const pair = fc.tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }));
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 6 }), (pairs) => {
        const encoded = formEncode(pairs);
        expect(encoded).toBe(new URLSearchParams(pairs).toString());
        expect([...new URLSearchParams(encoded)]).toEqual(pairs);
        expect(encoded).toMatch(/^[A-Za-z0-9*\-._+%=&]*$/);
      }),
    );
  });
});
