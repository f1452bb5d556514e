import {
  BooleanFromStringOrBoolean,
  DecimalOrEmptyString,
  DecimalString,
  IdFromNumberOrString,
  IntFromNumberOrString,
  TextFromNumberOrString,
} from '../../lib/codecs/primitives';
import fc from 'fast-check';
import { assertDecodes, assertFails } from '../helpers/codecs';

describe('IntFromNumberOrString', () => {
  it.each([
    [1625562619577, 1625562619577],
    ['1625562619577', 1625562619577],
    [0, 0],
    ['-42', -42],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
    [String(Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER],
  ])('decodes %j to %j', (input, expected) => {
    assertDecodes(IntFromNumberOrString, input, expected);
  });

  it.each([1.5, NaN, Infinity, -Infinity, 2 ** 53, 1e21, '12a', '', ' 12', '12 ', '1.0', '1e3', '+1', '9007199254740993', null, true, {}, []])(
    'rejects %j',
    (input) => {
      assertFails(IntFromNumberOrString, input, [': IntFromNumberOrString']);
    },
  );

  it('decodes integer text as /^-?\\d{1,16}$/ and Number() would, leading zeros and the digit-by-digit case included (property)', () => {
    const text = fc.oneof(
      fc.string({ unit: fc.constantFrom('0', '1', '7', '9'), minLength: 0, maxLength: 18 }),
      fc.string({ unit: fc.constantFrom('0', '5', '9', '-', '.', 'e', ' '), maxLength: 17 }),
    );
    fc.assert(
      fc.property(text, (u) => {
        const n = Number(u);
        const expected = /^-?\d{1,16}$/.test(u) && Number.isSafeInteger(n) ? n : undefined;
        const r = IntFromNumberOrString.decode(u);
        expect(r._tag === 'Right' ? r.right : undefined).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('is() accepts decoded values only', () => {
    expect(IntFromNumberOrString.is(5)).toBe(true);
    expect(IntFromNumberOrString.is('5')).toBe(false);
    expect(IntFromNumberOrString.encode(5)).toBe(5);
  });
});

describe('IdFromNumberOrString', () => {
  it.each([
    ['929681067596857345', '929681067596857345'],
    [1470000001, '1470000001'],
    [0, '0'],
    ['c-1', 'c-1'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
  ])('decodes %j to %j', (input, expected) => {
    assertDecodes(IdFromNumberOrString, input, expected);
  });

  it.each(['', 929681067596857345, 1e21, 1.5, NaN, null, undefined, false, {}])('rejects %j', (input) => {
    assertFails(IdFromNumberOrString, input, [': IdFromNumberOrString']);
  });
});

describe('TextFromNumberOrString', () => {
  it.each([
    ['', ''],
    ['c-1', 'c-1'],
    [1000087761, '1000087761'],
    [-0, '0'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
  ])('decodes %j to %j', (input, expected) => {
    assertDecodes(TextFromNumberOrString, input, expected);
  });

  it.each([929681067596857345, 1e21, 1.5, NaN, Infinity, null, undefined, true, {}])('rejects %j', (input) => {
    assertFails(TextFromNumberOrString, input, [': TextFromNumberOrString']);
  });
});

describe('BooleanFromStringOrBoolean', () => {
  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['false', false],
  ])('decodes %j to %j', (input, expected) => {
    assertDecodes(BooleanFromStringOrBoolean, input, expected);
  });

  it.each(['TRUE', 'yes', '1', 1, 0, null, ''])('rejects %j', (input) => {
    assertFails(BooleanFromStringOrBoolean, input, [': BooleanFromStringOrBoolean']);
  });
});

describe('DecimalString', () => {
  it.each(['34924.15', '0.00027', '-1', '0', '0.10', '1e-7', '1.5E+3', '00012'])('keeps %j unchanged', (input) => {
    assertDecodes(DecimalString, input, input);
  });

  it.each([
    [0.5, '0.5'],
    [1e-7, '0.0000001'],
    [1.5e-7, '0.00000015'],
    [123e-20, '0.00000000000000000123'],
    [34924.15, '34924.15'],
    [-3, '-3'],
    [-2.5e-7, '-0.00000025'],
    [0, '0'],
    [-0, '0'],
    [2 ** 53 - 1, '9007199254740991'],
    [-(2 ** 53 - 1), '-9007199254740991'],
    [123456789.5, '123456789.5'],
    [5e-324, `0.${'0'.repeat(323)}5`],
  ])('turns the number %j into %j', (input, expected) => {
    assertDecodes(DecimalString, input, expected);
  });

  it.each(['', ' 1', '+1', '.5', '1.', 'NaN', 'Infinity', '1,000', '12a', '0x10', NaN, Infinity, null, true])(
    'rejects %j',
    (input) => {
      assertFails(DecimalString, input, [': DecimalString']);
    },
  );

  it.each([2 ** 53, -(2 ** 53), 929681067596857345, 1e21, -1e21, Number.MAX_VALUE, -Number.MAX_VALUE])(
    'rejects the unsafe integer %j: its digits were lost in JSON.parse, and its text would invent them',
    (input) => {
      assertFails(DecimalString, input, [': DecimalString']);
      assertFails(DecimalOrEmptyString, input, [': DecimalOrEmptyString']);
    },
  );

  it('keeps the text of a long integer exactly (what parseJson hands over for 16+ digits)', () => {
    assertDecodes(DecimalString, '929681067596857345', '929681067596857345');
  });
});
