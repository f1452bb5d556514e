import { compareDecimal, parseDecimal } from '../../../lib/user/internal/decimal';

describe('compareDecimal', () => {
  it('compares by value, not by text or float', () => {
    expect(compareDecimal('1.0', '1')).toBe(0);
    expect(compareDecimal('0.1', '0.09')).toBeGreaterThan(0);
    expect(compareDecimal('10', '9.999999999999999999999')).toBeGreaterThan(0);
    // floats cannot tell these apart
    expect(compareDecimal('0.30000000000000000001', '0.3')).toBeGreaterThan(0);
    expect(compareDecimal('-2', '1')).toBeLessThan(0);
    expect(compareDecimal('1e-7', '0.0000001')).toBe(0);
    expect(compareDecimal('1.5E+2', '150')).toBe(0);
  });

  it('sorts text that is not a decimal below every decimal', () => {
    expect(parseDecimal('abc')).toBeUndefined();
    expect(parseDecimal('.')).toBeUndefined();
    expect(compareDecimal('abc', '0')).toBeLessThan(0);
    expect(compareDecimal('0', 'abc')).toBeGreaterThan(0);
    expect(compareDecimal('abc', 'abc')).toBe(0);
  });
});
