import { averagePrice, decimalToNumber } from '../../lib/codecs/decimal';

describe('decimalToNumber', () => {
  it('converts decimal text to the nearest number', () => {
    expect(decimalToNumber('34924.15')).toBe(34924.15);
    expect(decimalToNumber('1e-7')).toBe(1e-7);
    expect(decimalToNumber('-0.5')).toBe(-0.5);
  });

  it('gives NaN for text that is not a number, including empty text', () => {
    expect(decimalToNumber('12a')).toBeNaN();
    expect(decimalToNumber('')).toBeNaN();
    expect(decimalToNumber('  ')).toBeNaN();
    // the one grammar of decimal text (DecimalString's), not Number()'s: these were numbers before
    for (const text of [' 1', '0x10', 'Infinity', '+1', '.5', '1.']) expect(decimalToNumber(text)).toBeNaN();
  });
});

describe('averagePrice', () => {
  it('divides Z by z exactly', () => {
    expect(averagePrice('15000.05', '0.5')).toBe('30000.1');
    expect(averagePrice('10', '4')).toBe('2.5');
    expect(averagePrice('0.30', '0.1')).toBe('3');
    expect(averagePrice('34924.15', '1')).toBe('34924.15');
  });

  it('truncates to 18 fraction digits by default, or to the digits asked for', () => {
    expect(averagePrice('10', '3')).toBe('3.333333333333333333');
    expect(averagePrice('2', '3', 4)).toBe('0.6666');
    expect(averagePrice('2', '3', 0)).toBe('0');
  });

  it('is exact where floats are not', () => {
    expect(0.3 / 0.1).not.toBe(3);
    expect(averagePrice('0.3', '0.1')).toBe('3');
    expect(averagePrice('123456789012345678.9', '0.1')).toBe('1234567890123456789');
  });

  it('accepts exponents and signs', () => {
    expect(averagePrice('1e-7', '1e-8')).toBe('10');
    expect(averagePrice('-1', '3', 2)).toBe('-0.33');
  });

  it('is undefined when nothing is filled or the text is not decimal', () => {
    expect(averagePrice('0', '0')).toBeUndefined();
    expect(averagePrice('0.00000000', '0.00000000')).toBeUndefined();
    expect(averagePrice('1', 'x')).toBeUndefined();
    expect(averagePrice('1e99999', '1')).toBeUndefined();
  });

  it('is zero when the quote amount is zero', () => {
    expect(averagePrice('0', '1')).toBe('0');
  });
});
