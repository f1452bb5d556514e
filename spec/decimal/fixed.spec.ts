import fc from 'fast-check';
import { formatDecimal, formatFixed, formatUnits, MAX_UNITS, mul, parseDecimal } from '../../lib/decimal/fixed';
import { RawNumber, rawJson } from '../../lib/simulator/orders/rawJson';
import { signedPayload } from '../../lib/simulator/http/auth';
import { propertyRuns } from '../helpers/propertyRuns';

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

describe('formatFixed', () => {
  /** The former arithmetic (integer part by division, decimals by remainder), the reference the text cut must equal. */
  const byDivision = (value: bigint, decimals: number): string => {
    const one = 10n ** 18n;
    const neg = value < 0n;
    const abs = neg ? -value : value;
    const frac = (abs % one).toString().padStart(18, '0').slice(0, decimals);
    return `${neg ? '-' : ''}${abs / one}${decimals > 0 ? `.${frac}` : ''}`;
  };

  it('writes what division and remainder write, for values of every size and sign and 0-18 decimals', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const values = [0n, 1n, -1n, 10n ** 18n, -(10n ** 18n), 10n ** 18n - 1n, 10n ** 17n, 999n * 10n ** 30n];
    for (let i = 0; i < 3000; i++) {
      const digits = 1 + Math.floor(random() * 30);
      let v = 0n;
      for (let d = 0; d < digits; d++) v = v * 10n + BigInt(Math.floor(random() * 10));
      values.push(random() < 0.2 ? -v : v);
    }
    let checked = 0;
    for (const v of values) {
      for (let decimals = 0; decimals <= 18; decimals++) {
        expect(formatFixed(v, decimals)).toBe(byDivision(v, decimals));
        checked++;
      }
    }
    expect(checked).toBe(values.length * 19);
  });
});

describe('formatUnits', () => {
  it('writes what formatFixed writes for the same value, for whole units below 2^52 (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_UNITS - 1 }), fc.integer({ min: 0, max: 18 }), (units, decimals) => {
        expect(formatUnits(units, decimals)).toBe(formatFixed(BigInt(units) * 10n ** BigInt(18 - decimals), decimals));
      }),
      { numRuns: propertyRuns(5000) },
    );
    for (const [units, decimals] of [[0, 2], [5, 2], [MAX_UNITS - 1, 8], [MAX_UNITS - 1, 18], [7632115, 2], [1, 18]] as const) {
      expect(formatUnits(units, decimals)).toBe(formatFixed(BigInt(units) * 10n ** BigInt(18 - decimals), decimals));
    }
  });
});
