import fc from 'fast-check';
import { addDecimal, compareDecimal, isDecimal, midDecimal, subtractDecimal } from '../../lib/internal/decimal';

describe('compareDecimal', () => {
  it.each([
    ['1', '2', -1],
    ['10', '9.99', 1],
    ['1.50', '01.5', 0],
    ['0.5', '0.49', 1],
    ['0.0001', '0.001', -1],
    ['27000.10', '27000.1', 0],
    ['000', '0.000', 0],
    ['1e-7', '0.0000001', 0],
    ['1.5e3', '1500', 0],
    ['929681067596857345', '929681067596857344', 1],
    ['9007199254740993', '9007199254740992', 1],
  ])('%s vs %s → %d', (a, b, expected) => {
    expect(compareDecimal(a, b)).toBe(expected);
    expect(compareDecimal(b, a)).toBe(-expected || 0);
  });

  it('gives NaN for malformed text and never throws', () => {
    for (const bad of ['', '-1', 'abc', '1.2.3', '1e99999', '.', 'NaN', ' 1']) {
      expect(isDecimal(bad)).toBe(false);
      expect(compareDecimal(bad, '1')).toBeNaN();
    }
  });

  it('agrees with exact BigInt comparison', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 3 }))
      .map(([units, scale, pad]) => {
        const digits = units.toString().padStart(scale + 1, '0');
        const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
        return { text: '0'.repeat(pad) + text + (scale > 0 ? '0'.repeat(pad) : ''), units, scale };
      });
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const x = a.units * 10n ** BigInt(b.scale);
        const y = b.units * 10n ** BigInt(a.scale);
        expect(compareDecimal(a.text, b.text)).toBe(x < y ? -1 : x > y ? 1 : 0);
      }),
    );
  });
});

describe('decimal arithmetic', () => {
  it('subtracts exactly, keeping the written scale', () => {
    expect(subtractDecimal('100.50', '100.40')).toBe('0.10');
    expect(subtractDecimal('0.3', '0.1')).toBe('0.2');
    expect(subtractDecimal('1', '1.25')).toBe('-0.25');
    expect(subtractDecimal('x', '1')).toBeUndefined();
  });

  it('adds exactly', () => {
    expect(addDecimal('0.1', '0.2')).toBe('0.3');
    expect(addDecimal('99999999999999999.9', '0.1')).toBe('100000000000000000.0');
  });

  it('halves with one more digit only when needed', () => {
    expect(midDecimal('100.40', '100.50')).toBe('100.45');
    expect(midDecimal('1', '2')).toBe('1.5');
    expect(midDecimal('27000.1', '27000.3')).toBe('27000.2');
    expect(midDecimal('0.00000001', '0.00000002')).toBe('0.000000015');
  });
});
