import fc from 'fast-check';
import { propertyRuns } from '../helpers/propertyRuns';
import { compareDecimal, compareDigits, isDecimal, isNonNegativeDecimal } from '../../lib/decimal/compare';
import { isDecimalGrammar, PLAIN_CODE_CHARS, plainTextCode, quotedDecimalEnd, readDecimal } from '../../lib/decimal/grammar';
import { addDecimal, midDecimal, parseScaled, subtractDecimal } from '../../lib/decimal/scaled';
import { divideSmall, exactQuotient } from '../../lib/decimal/small';

/** The grammar, as the `DecimalString` codec has always stated it. */
const GRAMMAR = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Text made of the characters decimal text is made of, and a few others. */
const candidates = fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', 'E', ' ', 'x'), maxLength: 10 });

describe('decimal grammar', () => {
  it.each(['0', '27000.50', '0.0001', '-3.5', '1e-7', '1.5E+3', '007', '-0', '929681067596857345'])('accepts %j', (text) => {
    expect(isDecimalGrammar(text)).toBe(true);
    expect(readDecimal(text)).toBeDefined();
  });

  it.each(['', ' 1', '1 ', '+1', '.5', '5.', '1.', '-', '.', '1,000', '1.2.3', 'NaN', 'Infinity', '0x10', '1e', '1e+', '--1', '1_000'])(
    'refuses %j',
    (text) => {
      expect(isDecimalGrammar(text)).toBe(false);
      expect(readDecimal(text)).toBeUndefined();
      expect(isDecimal(text)).toBe(false);
    },
  );

  it('isDecimalGrammar and readDecimal agree with the grammar (property)', () => {
    fc.assert(
      fc.property(candidates, (s) => {
        expect(isDecimalGrammar(s)).toBe(GRAMMAR.test(s));
        expect(readDecimal(s) !== undefined).toBe(GRAMMAR.test(s));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('reads the parts as written', () => {
    expect(readDecimal('-012.340e-5')).toEqual({ negative: true, int: '012', frac: '340', exponent: -5 });
    expect(readDecimal('7')).toEqual({ negative: false, int: '7', frac: '', exponent: undefined });
  });

  it('gives no value to exponents beyond ±1000 (grammar text still)', () => {
    expect(isDecimalGrammar('1e99999')).toBe(true);
    expect(isDecimal('1e99999')).toBe(false);
    expect(parseScaled('1e99999')).toBeUndefined();
    expect(isDecimal('1e1000')).toBe(true);
  });

  it('tells non-negative decimals ("-0" is zero)', () => {
    expect(isNonNegativeDecimal('0.5')).toBe(true);
    expect(isNonNegativeDecimal('-0.000')).toBe(true);
    expect(isNonNegativeDecimal('-0.1')).toBe(false);
    expect(isNonNegativeDecimal('abc')).toBe(false);
  });
});

describe('compareDecimal', () => {
  it.each([
    ['1', '2', -1],
    ['10', '9.99', 1],
    ['1.50', '01.5', 0],
    ['0.5', '0.49', 1],
    ['0.0001', '0.001', -1],
    ['27000.10', '27000.1', 0],
    ['000', '0.000', 0],
    ['-0', '0', 0],
    ['1e-7', '0.0000001', 0],
    ['1.5e3', '1500', 0],
    ['1.5E+2', '150', 0],
    ['-2', '1', -1],
    ['-2', '-10', 1],
    ['-0.5', '-0.49', -1],
    ['0.30000000000000000001', '0.3', 1], // floats cannot tell these apart
    ['10', '9.999999999999999999999', 1],
    ['929681067596857345', '929681067596857344', 1],
    ['9007199254740993', '9007199254740992', 1],
  ])('%s vs %s → %d', (a, b, expected) => {
    expect(compareDecimal(a, b)).toBe(expected);
    expect(compareDecimal(b, a)).toBe(-expected || 0);
  });

  it('is a total order: text that is not a decimal sorts below every decimal, by its code units, never NaN', () => {
    for (const bad of ['', 'abc', '1.2.3', '1e99999', '.', 'NaN', ' 1', '+1', '.5']) {
      expect(compareDecimal(bad, '-1000')).toBe(-1);
      expect(compareDecimal('0', bad)).toBe(1);
      expect(compareDecimal(bad, bad)).toBe(0);
    }
    expect(compareDecimal('abc', 'abd')).toBe(-1);
    expect(compareDecimal('abd', 'abc')).toBe(1);
  });

  it('is antisymmetric and transitive over any text (property)', () => {
    const text = fc.oneof(candidates, fc.constantFrom('1', '1.0', '-1', '0', '-0', '1e0', '10e-1', 'abc'));
    fc.assert(
      fc.property(text, text, text, (a, b, c) => {
        const ab = compareDecimal(a, b);
        expect([-1, 0, 1]).toContain(ab);
        expect(compareDecimal(b, a)).toBe(-ab || 0);
        if (ab <= 0 && compareDecimal(b, c) <= 0) expect(compareDecimal(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('agrees with exact BigInt comparison, signs and exponents included (property)', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 3 }))
      .map(([units, scale, pad]) => {
        const sign = units < 0n ? '-' : '';
        const digits = (units < 0n ? -units : units).toString();
        const padded = digits.padStart(scale + 1, '0');
        const body = scale === 0 ? padded : `${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
        const plain = sign + '0'.repeat(pad) + body + (scale > 0 ? '0'.repeat(pad) : '');
        // the same value written with exponents
        const texts = [plain, `${plain}e0`, `${sign}${digits}e-${scale}`, `${sign}${digits}${'0'.repeat(pad)}E-${scale + pad}`];
        return { texts, units, scale };
      });
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const x = a.units * 10n ** BigInt(b.scale);
        const y = b.units * 10n ** BigInt(a.scale);
        const expected = x < y ? -1 : x > y ? 1 : 0;
        for (const ta of a.texts) for (const tb of b.texts) expect(compareDecimal(ta, tb)).toBe(expected);
      }),
    );
  });
});

describe('compareDecimal on plain text (the market form, compared without parsing)', () => {
  it('agrees with the parsing comparison written with an exponent (property)', () => {
    // digits[.digits], trailing zeros and one-digit integer parts included; `${x}e0` takes the parsing path.
    const plain = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 3 }))
      .map(([units, scale, zeros]) => {
        const padded = units.toString().padStart(scale + 1, '0');
        return scale === 0 ? padded : `${padded.slice(0, -scale)}.${padded.slice(-scale)}${'0'.repeat(zeros)}`;
      });
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        expect(compareDecimal(a, b)).toBe(compareDecimal(`${a}e0`, `${b}e0`));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it.each([
    ['1.50', '1.5', 0],
    ['1', '1.000', 0],
    ['1', '1.5', -1],
    ['10', '9.99', 1],
    ['0.001', '0.0009', 1],
    ['76321.15', '76321.150001', -1],
    ['1447335405363150849', '1447335405363150850', -1],
    ['007', '10', -1], // leading zeros: the parsing path
  ] as const)('%s vs %s is %d', (a, b, expected) => {
    expect(compareDecimal(a, b)).toBe(expected);
    expect(compareDecimal(b, a)).toBe(-expected || 0);
  });
});

describe('compareDigits', () => {
  it('agrees with compareDecimal on digit-only text, leading zeros included (property)', () => {
    const digits = fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), minLength: 1, maxLength: 22 });
    fc.assert(
      fc.property(digits, digits, (a, b) => {
        expect(compareDigits(a, b)).toBe(compareDecimal(a, b));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });
});

describe('parseScaled', () => {
  it('gives the exact value at the written scale', () => {
    expect(parseScaled('1.50')).toEqual({ units: 150n, scale: 2 });
    expect(parseScaled('-1e-7')).toEqual({ units: -1n, scale: 7 });
    expect(parseScaled('1.5e3')).toEqual({ units: 1500n, scale: 0 });
    expect(parseScaled('007')).toEqual({ units: 7n, scale: 0 });
    expect(parseScaled('x')).toBeUndefined();
  });
});

describe('decimal arithmetic', () => {
  it('subtracts exactly, keeping the written scale', () => {
    expect(subtractDecimal('100.50', '100.40')).toBe('0.10');
    expect(subtractDecimal('0.3', '0.1')).toBe('0.2');
    expect(subtractDecimal('1', '1.25')).toBe('-0.25');
    expect(subtractDecimal('-1', '0.5')).toBe('-1.5');
    expect(subtractDecimal('x', '1')).toBeUndefined();
  });

  it('adds exactly', () => {
    expect(addDecimal('0.1', '0.2')).toBe('0.3');
    expect(addDecimal('99999999999999999.9', '0.1')).toBe('100000000000000000.0');
    expect(addDecimal('1e-7', '1')).toBe('1.0000001');
  });

  it('adds and subtracts zero, trailing zeros and long fractions exactly', () => {
    expect(addDecimal('0', '0')).toBe('0');
    expect(subtractDecimal('0', '0')).toBe('0');
    expect(subtractDecimal('0.10', '0.1')).toBe('0.00');
    expect(subtractDecimal('-0', '0')).toBe('0');
    expect(addDecimal('1.50', '1')).toBe('2.50');
    expect(addDecimal('29999.99', '0.01')).toBe('30000.00');
    expect(subtractDecimal('30000.10', '0.01')).toBe('30000.09');
    const long = `0.${'0'.repeat(80)}1`;
    expect(addDecimal(long, '1')).toBe(`1.${'0'.repeat(80)}1`);
    expect(subtractDecimal(long, long)).toBe(`0.${'0'.repeat(81)}`);
    expect(addDecimal('0.000000000000000000001', '1')).toBe('1.000000000000000000001');
    expect(addDecimal('123456789012345678901234567890.5', '0.5')).toBe('123456789012345678901234567891.0');
  });

  it('crosses zero both ways, never writing -0', () => {
    expect(subtractDecimal('0.01', '0.02')).toBe('-0.01');
    expect(addDecimal('-0.01', '0.02')).toBe('0.01');
    expect(addDecimal('-2', '0.5')).toBe('-1.5');
    expect(addDecimal('-0.5', '0.5')).toBe('0.0');
    expect(subtractDecimal('-1', '-1')).toBe('0');
  });

  it.each(['', 'x', '1,5', ' 1', '+1', '.5', '5.', 'NaN', 'Infinity', '0x10', '1e1001'])('gives undefined for %j', (bad) => {
    expect(addDecimal(bad, '1')).toBeUndefined();
    expect(addDecimal('1', bad)).toBeUndefined();
    expect(subtractDecimal(bad, '1')).toBeUndefined();
    expect(subtractDecimal('1', bad)).toBeUndefined();
  });

  it('agrees with BigInt arithmetic on scaled integers, signs and long fractions included (property)', () => {
    /** A decimal `units / 10^scale` as written texts of the same value and scale: plain, padded, with an exponent. */
    const decimal = fc
      .tuple(fc.oneof(fc.bigInt({ min: -1000n, max: 1000n }), fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n })), fc.integer({ min: 0, max: 30 }))
      .map(([units, scale]) => {
        const sign = units < 0n ? '-' : '';
        const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
        const plain = sign + (scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`);
        return { plain, units, scale };
      });
    /** What a scaled integer reads as, exactly: `units / 10^scale` written with `scale` fraction digits. */
    const written = (units: bigint, scale: number): string => {
      const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
      const body = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
      return units < 0n ? `-${body}` : body;
    };
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const scale = Math.max(a.scale, b.scale);
        const x = a.units * 10n ** BigInt(scale - a.scale);
        const y = b.units * 10n ** BigInt(scale - b.scale);
        expect(addDecimal(a.plain, b.plain)).toBe(written(x + y, scale));
        expect(subtractDecimal(a.plain, b.plain)).toBe(written(x - y, scale));
        // a − b + b is a, at the common scale; a + b = b + a
        expect(compareDecimal(addDecimal(subtractDecimal(a.plain, b.plain)!, b.plain)!, a.plain)).toBe(0);
        expect(addDecimal(a.plain, b.plain)).toBe(addDecimal(b.plain, a.plain));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('halves with one more digit only when needed', () => {
    expect(midDecimal('100.40', '100.50')).toBe('100.45');
    expect(midDecimal('1', '2')).toBe('1.5');
    expect(midDecimal('27000.1', '27000.3')).toBe('27000.2');
    expect(midDecimal('0.00000001', '0.00000002')).toBe('0.000000015');
    expect(midDecimal('-1', '-2')).toBe('-1.5');
  });
});

describe('quotedDecimalEnd', () => {
  it('finds the closing quote of digits[.digits] text, and only of that form', () => {
    expect(quotedDecimalEnd('"76321.15"', 1)).toBe(9);
    expect(quotedDecimalEnd('x"007"', 2)).toBe(5);
    for (const text of ['""', '"1."', '".5"', '"-1"', '"1e5"', '"1 "', '"1', '"1.5.2"']) expect(quotedDecimalEnd(text, 1)).toBe(-1);
  });

  it('is digits[.digits]" from where it starts, exactly (generated: any text, any start)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('0', '7', '9', '.', '"', 'e', '-', ' ', '/', ':'), maxLength: 14 }), fc.nat(15), (text, at) => {
        const i = Math.min(at, text.length);
        const m = /^\d+(\.\d+)?"/.exec(text.slice(i));
        expect(quotedDecimalEnd(text, i)).toBe(m === null ? -1 : i + m[0].length - 1);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('what it accepts is decimal text (generated)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9.e-]{0,8}$/), (body) => {
        const end = quotedDecimalEnd(`"${body}"`, 1);
        if (end >= 0) {
          expect(end).toBe(body.length + 1);
          expect(isDecimalGrammar(body)).toBe(true);
        }
      }),
    );
  });
});

describe('plainTextCode', () => {
  const plain = fc.string({ unit: fc.constantFrom('0', '1', '5', '9', '.'), maxLength: PLAIN_CODE_CHARS });

  it('gives distinct texts distinct exact integers (digits and dots, up to 14 characters), and is the same for equal text', () => {
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        const ca = plainTextCode(a, 0, a.length);
        const cb = plainTextCode(b, 0, b.length);
        expect(Number.isSafeInteger(ca) && ca >= 0).toBe(true);
        expect(Number.isSafeInteger(ca * 6 + 5)).toBe(true); // room for the status folded on top
        expect(ca === cb).toBe(a === b);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('codes text, not value, and reads only [from, to)', () => {
    expect(plainTextCode('0.1', 0, 3)).not.toBe(plainTextCode('0.10', 0, 4));
    expect(plainTextCode('1', 0, 1)).not.toBe(plainTextCode('01', 0, 2));
    expect(plainTextCode('', 0, 0)).toBe(0);
    expect(plainTextCode('x12y', 1, 3)).toBe(plainTextCode('12', 0, 2));
    expect(plainTextCode('99999999999999', 0, 14)).toBe(12 ** 14 - 1 - (12 ** 14 - 1) / 11); // all 10s in base 12
  });

  it('refuses other characters and longer text (-1)', () => {
    for (const text of ['-1', '1e5', '1E5', '+1', ' 1', '1,0', '١']) expect(plainTextCode(text, 0, text.length)).toBe(-1);
    expect(plainTextCode('1'.repeat(PLAIN_CODE_CHARS + 1), 0, PLAIN_CODE_CHARS + 1)).toBe(-1);
  });
});

describe('divideSmall (the double long division behind divideDecimal)', () => {
  /** The model: BigInt division truncated to `digits` fraction digits, trailing zeros removed. */
  const model = (a: { units: bigint; scale: number }, b: { units: bigint; scale: number }, digits: number): string => {
    const shift = digits - a.scale + b.scale;
    const num = shift >= 0 ? a.units * 10n ** BigInt(shift) : a.units;
    const den = shift >= 0 ? b.units : b.units * 10n ** BigInt(-shift);
    const q = (num / den).toString().padStart(digits + 1, '0');
    const text = digits === 0 ? q : `${q.slice(0, -digits)}.${q.slice(-digits)}`;
    return digits === 0 ? text : text.replace(/\.?0+$/, '');
  };
  const text = ({ units, scale }: { units: bigint; scale: number }, pad: number): string => {
    const digits = units.toString().padStart(scale + 1, '0');
    const plain = scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
    return '0'.repeat(pad) + plain;
  };
  const small = fc.record({
    units: fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 8n }), fc.bigInt({ min: 0n, max: 2n ** 53n + 10n })),
    scale: fc.integer({ min: 0, max: 18 }),
  });

  it('answers exactly what the BigInt division answers, or leaves it to BigInt (property)', () => {
    let answered = 0;
    fc.assert(
      fc.property(small, small.filter((d) => d.units > 0n), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 2 }), (a, b, digits, pad) => {
        const got = divideSmall(text(a, pad), text(b, 0), digits);
        if (got === undefined) return;
        answered++;
        expect(got).toBe(model(a, b, digits));
      }),
      { numRuns: propertyRuns(5000) },
    );
    expect(answered).toBeGreaterThan(propertyRuns(5000) / 5); // most runs are answered here, not left to BigInt
  });

  it('answers for the average prices of real fills, and leaves signs, exponents and zero divisors to BigInt', () => {
    expect(divideSmall('0.05132205', '0.50000000', 18)).toBe('0.1026441');
    expect(divideSmall('15000.05', '0.5', 18)).toBe('30000.1');
    expect(divideSmall('10', '3', 18)).toBe('3.333333333333333333');
    expect(divideSmall('0', '3', 18)).toBe('0');
    expect(divideSmall('1', '8', 2)).toBe('0.12');
    expect(divideSmall('1', '3', 0)).toBe('0');
    // At the edge of the exact range (2^53 - 1).
    expect(divideSmall('9007199254740991', '2', 0)).toBe('4503599627370495');
    expect(divideSmall('9007199254740991', '2', 18)).toBe('4503599627370495.5');
    for (const [a, b] of [['-1', '3'], ['1e2', '3'], ['1', '0'], ['1', '0.000'], ['.5', '1'], ['5.', '1'], ['', '1'], ['1', '9007199254740993']]) {
      expect([a, b, divideSmall(a!, b!, 18)]).toEqual([a, b, undefined]);
    }
  });

  describe('exactQuotient (an average price checked by one multiplication)', () => {
    const decimal = fc.record({ units: fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 6n }), fc.bigInt({ min: 0n, max: 2n ** 54n })), scale: fc.integer({ min: 0, max: 20 }) });
    /** b × c exactly, as a decimal. */
    const times = (b: { units: bigint; scale: number }, c: { units: bigint; scale: number }) => ({ units: b.units * c.units, scale: b.scale + c.scale });

    it('answers what the division answers, or nothing (property: random candidates and exact ones)', () => {
      let answered = 0;
      fc.assert(
        fc.property(
          decimal,
          decimal.filter((d) => d.units > 0n),
          decimal,
          fc.boolean(),
          fc.integer({ min: 0, max: 24 }),
          fc.integer({ min: 0, max: 2 }),
          fc.integer({ min: 0, max: 2 }),
          (x, b, c, exact, digits, padC, padA) => {
            // `a` is b × c (so c is the quotient, when c has no more than `digits` fraction digits) or any number
            const a = exact ? times(b, c) : x;
            const got = exactQuotient(text(a, padA), text(b, 0), text(c, padC), digits);
            if (got === undefined) return;
            answered++;
            expect(got).toBe(model(a, b, digits));
          },
        ),
        { numRuns: propertyRuns(5000) },
      );
      expect(answered).toBeGreaterThan(propertyRuns(5000) / 20); // about 10 % of the runs
    });

    it("answers a fill's average at its price, and leaves the rest to the division", () => {
      expect(exactQuotient('0.05132205', '0.50000000', '0.10264410', 18)).toBe('0.1026441');
      expect(exactQuotient('15000.05', '0.5', '30000.10', 18)).toBe('30000.1');
      expect(exactQuotient('76321.5', '1.000', '076321.500', 18)).toBe('76321.5');
      expect(exactQuotient('300', '10', '30.0', 18)).toBe('30');
      expect(exactQuotient('0', '3', '0.000', 18)).toBe('0');
      expect(exactQuotient('1', '8', '0.125', 2)).toBeUndefined(); // truncated to 0.12: the division says so
      // not the quotient, or not plain text
      for (const [a, b, c] of [['10', '3', '3.333333333333333333'], ['1', '1', '1.1'], ['1', '0', '1'], ['-1', '1', '-1'], ['1', '1', '1e0'], ['1', '1', ''], ['1', '1', '.5']]) {
        expect([a, b, c, exactQuotient(a!, b!, c!, 18)]).toEqual([a, b, c, undefined]);
      }
    });
  });
});
