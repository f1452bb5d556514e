import { formatDecimal, formatFixed, mul, parseDecimal } from '../../lib/simulator/decimal';
import { RawNumber, rawJson } from '../../lib/simulator/rawJson';
import { signedPayload } from '../../lib/simulator/auth';

describe('simulator internals', () => {
  it('does decimal arithmetic exactly (0.1 × 3 = 0.3, no float drift)', () => {
    const p = parseDecimal('0.1')!;
    expect(formatDecimal(mul(p, parseDecimal('3')!))).toBe('0.3');
    expect(formatDecimal(parseDecimal('29999.97')! * 3n)).toBe('89999.91');
    expect(formatFixed(parseDecimal('1.5')!, 2)).toBe('1.50');
    expect(parseDecimal('1e3')).toBeUndefined();
    expect(parseDecimal('0.0000000001', 9)).toBeUndefined();
  });

  it('writes raw number literals for 64-bit ids', () => {
    expect(rawJson({ i: new RawNumber('1900000000000000001'), s: 'x', a: [1, null, true] })).toBe('{"i":1900000000000000001,"s":"x","a":[1,null,true]}');
  });

  it('removes only the signature pair from totalParams, byte-exact otherwise', () => {
    expect(signedPayload({ query: 'a=1&signature=ff&b=%20x', body: 'c=2' })).toBe('a=1&b=%20xc=2');
    expect(signedPayload({ query: 'a=1', body: 'signature=ff' })).toBe('a=1');
    expect(signedPayload({ query: '', body: 'signature=ff&x=+y' })).toBe('x=+y');
  });
});
