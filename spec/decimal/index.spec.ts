import fc from 'fast-check';
import { averagePrice, decimalToNumber, divideDecimal, isDecimalText, multiplyDecimal, toDecimalText } from '../../lib/decimal';
import { ConfigError } from '../../lib/errors';
import { thrown } from '../helpers/thrown';

/** Plain decimal text, by the book: digits, optionally a point and digits, at most 64 characters. */
const PLAIN = /^\d+(?:\.\d+)?$/;
const isPlain = (s: string): boolean => PLAIN.test(s) && s.length <= 64;


describe('isDecimalText', () => {
  it('accepts plain decimal text only', () => {
    for (const text of ['0', '0.10', '30000.5', '007', '1.000', '9'.repeat(64)]) expect([text, isDecimalText(text)]).toEqual([text, true]);
    const refused = ['1e-7', '1E5', '-0.01', '0x10', ' 1', '1 ', '', 'NaN', 'Infinity', '-Infinity', '+1', '.5', '5.', '1,5', '1.2.3', '١', '1_000', '9'.repeat(65)];
    for (const text of refused) expect([text, isDecimalText(text)]).toEqual([text, false]);
  });

  it('agrees with the plain pattern (property)', () => {
    const near = fc.stringMatching(/^[-+ .,eE0-9x]{0,8}$/);
    const plain = fc.tuple(fc.stringMatching(/^\d{1,40}$/), fc.option(fc.stringMatching(/^\d{1,40}$/))).map(([i, f]) => (f === null ? i : `${i}.${f}`));
    fc.assert(fc.property(fc.oneof(near, plain, fc.string()), (s) => expect(isDecimalText(s)).toBe(isPlain(s))), { numRuns: 3000 });
  });
});

describe('toDecimalText', () => {
  it('returns plain decimal text as it is', () => {
    expect(toDecimalText('0.10')).toBe('0.10');
    expect(toDecimalText('30000.5', 'price')).toBe('30000.5');
  });

  it('throws a ConfigError saying why, naming the value', () => {
    const cases: [string, string][] = [
      ['1e-7', 'price has an exponent (write 0.0000001, not 1e-7): "1e-7"'],
      ['-0.01', 'price has a sign: "-0.01"'],
      ['+1', 'price has a sign: "+1"'],
      ['', 'price is empty: ""'],
      ['.5', 'price starts with a point (write 0.5, not .5): ".5"'],
      ['5.', 'price ends with a point (write 5, not 5.): "5."'],
      ['1.2.3', 'price has more than one point: "1.2.3"'],
      [' 1', 'price has a character other than digits and one point: " 1"'],
      ['1,5', 'price has a character other than digits and one point: "1,5"'],
      ['NaN', 'price has a character other than digits and one point: "NaN"'],
      ['0x10', 'price has a character other than digits and one point: "0x10"'],
      ['1e', 'price has a character other than digits and one point: "1e"'],
    ];
    for (const [text, message] of cases) {
      const error = thrown(() => toDecimalText(text, 'price'));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toMatchObject({ option: 'price', message });
    }
    expect(thrown(() => toDecimalText('abc'))).toMatchObject({ message: 'decimal text has a character other than digits and one point: "abc"' });
  });

  it('quotes at most a short, redacted excerpt of the input', () => {
    const secret = 'Ab3'.repeat(15); // a key-like run: redacted whole, never cut into a readable part
    expect(thrown(() => toDecimalText(`12.5 ${secret}`))).toMatchObject({ message: 'decimal text has a character other than digits and one point: "12.5 ***"' });
    expect(thrown(() => toDecimalText(secret.repeat(4)))).toMatchObject({ message: 'decimal text is longer than 64 characters: "***"' });
    const long = thrown(() => toDecimalText('9'.repeat(1000))) as Error;
    expect(long.message).toBe('decimal text is longer than 64 characters: "999999999999…"');
    const control = thrown(() => toDecimalText('1\n\u0000x')) as Error;
    expect(control.message).toBe('decimal text has a character other than digits and one point: "1\\n\\u0000x"');
  });
});

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

describe('multiplyDecimal / divideDecimal', () => {
  /** An exact decimal as text from integer units and a scale (the model: BigInt, no float). */
  const decimalArb = fc.record({ units: fc.bigInt({ min: 0n, max: 10n ** 20n }), scale: fc.integer({ min: 0, max: 12 }) });
  const text = ({ units, scale }: { units: bigint; scale: number }): string => {
    const digits = units.toString().padStart(scale + 1, '0');
    return scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  };

  it('multiplies exactly, in canonical text', () => {
    expect(multiplyDecimal('30000.02', '0.99')).toBe('29700.0198');
    expect(multiplyDecimal('0.1', '3')).toBe('0.3');
    expect(multiplyDecimal('1e-7', '10')).toBe('0.000001');
    expect(multiplyDecimal('1', 'x')).toBeUndefined();
    fc.assert(
      fc.property(decimalArb, decimalArb, (a, b) => {
        const product = multiplyDecimal(text(a), text(b))!;
        const [whole, fraction = ''] = product.split('.');
        // Read back at scale a.scale + b.scale, the product's units are the product of the units.
        const scale = a.scale + b.scale;
        expect(BigInt(whole! + fraction.padEnd(scale, '0'))).toBe(a.units * b.units);
        expect(fraction.endsWith('0')).toBe(false);
      }),
    );
  });

  it('divides exactly, truncated toward zero; averagePrice is the same division', () => {
    expect(divideDecimal('20', '30000')).toBe('0.000666666666666666');
    expect(divideDecimal('10', '3', 2)).toBe('3.33');
    expect(divideDecimal('1', '0')).toBeUndefined();
    fc.assert(
      fc.property(decimalArb, decimalArb.filter((d) => d.units > 0n), (a, b) => {
        const quotient = divideDecimal(text(a), text(b), 6)!;
        const [whole, fraction = ''] = quotient.split('.');
        // q = floor(a / b × 10^6): q × b ≤ a × 10^6 < (q + 1) × b, at a common scale.
        const q = BigInt(whole! + fraction.padEnd(6, '0'));
        const left = a.units * 10n ** BigInt(6 + b.scale);
        const right = b.units * 10n ** BigInt(a.scale);
        expect(q * right <= left && left < (q + 1n) * right).toBe(true);
        expect(averagePrice(text(a), text(b), 6)).toBe(quotient);
      }),
    );
  });
});
