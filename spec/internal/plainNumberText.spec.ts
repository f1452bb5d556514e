import fc from 'fast-check';
import { DecimalString } from '../../lib/codecs/primitives';
import { isDecimalGrammar } from '../../lib/decimal/grammar';
import { plainNumberText } from '../../lib/internal/plainNumberText';
import { propertyRuns } from '../helpers/propertyRuns';

const PLAIN = /^-?\d+(?:\.\d+)?$/;

describe('plainNumberText', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [1, '1'],
    [0.5, '0.5'],
    [-3, '-3'],
    [34924.15, '34924.15'],
    [1e-6, '0.000001'],
    [1e-7, '0.0000001'],
    [1.5e-7, '0.00000015'],
    [-2.5e-7, '-0.00000025'],
    [123e-20, '0.00000000000000000123'],
    [1e20, '100000000000000000000'],
    [1e21, '1000000000000000000000'],
    [-1e21, '-1000000000000000000000'],
    [1.2345e22, '12345000000000000000000'],
    [5e-324, `0.${'0'.repeat(323)}5`],
    [Number.MAX_VALUE, `17976931348623157${'0'.repeat(292)}`],
    [-Number.MAX_VALUE, `-17976931348623157${'0'.repeat(292)}`],
  ])('writes %p as %j', (n, expected) => {
    expect(plainNumberText(n)).toBe(expected);
    expect(Number(expected)).toBe(n === 0 ? 0 : n);
  });

  it('keeps the digits of the shortest text: a finite double reads back as itself, in positional decimal text', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = plainNumberText(n);
        expect(text).toMatch(PLAIN);
        expect(Object.is(Number(text), n === 0 ? 0 : n)).toBe(true);
        expect(DecimalString.is(text)).toBe(true);
        expect(isDecimalGrammar(text)).toBe(true);
        // same significant digits as String(n): nothing added but zeros
        const significant = (s: string): string => s.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
        expect(significant(text)).toBe(significant(String(n)));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('is String(n) for numbers JS already writes without an exponent', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e21, maxExcluded: true }), fc.boolean(), (abs, negative) => {
        const n = negative ? -abs : abs;
        expect(plainNumberText(n)).toBe(String(n));
      }),
    );
  });
});
