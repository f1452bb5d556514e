import * as E from 'fp-ts/Either';
import fc from 'fast-check';
import { mayHaveLongInteger, parseJson, quoteLongIntegers } from '../../lib/frame/json';
import { propertyRuns } from '../helpers/propertyRuns';

const right = (text: string): unknown => {
  const r = parseJson(text);
  if (E.isLeft(r)) throw r.left;
  return r.right;
};

describe('parseJson', () => {
  it('parses ordinary frames like JSON.parse', () => {
    const text = '{"symbol":"BTCUSDT","data":[{"v":"929681067596857345","t":1625562619577,"p":"34924.15"}],"f":true}';
    expect(right(text)).toStrictEqual(JSON.parse(text));
  });

  it('keeps 19- and 20-digit integer ids exact as text', () => {
    expect(right('{"i":1291488620385157122,"T":[12345678901234567890, -9223372036854775808],"E":1668693440976}')).toStrictEqual({
      i: '1291488620385157122',
      T: ['12345678901234567890', '-9223372036854775808'],
      E: 1668693440976,
    });
  });

  it('quotes from 16 digits on, at any nesting level and with whitespace', () => {
    expect(right('[ 1234567890123456 ,\n\t{"a" : 123456789012345}]')).toStrictEqual(['1234567890123456', { a: 123456789012345 }]);
    expect(right('12345678901234567890')).toBe('12345678901234567890');
  });

  it('leaves numbers with a fraction or an exponent alone', () => {
    expect(right('{"p":12345678901234567.5,"q":12345678901234567e2}')).toStrictEqual({
      p: 12345678901234567.5,
      q: 12345678901234567e2,
    });
  });

  it('never alters digits inside strings', () => {
    const text = '{"msg":"a:12345678901234567890,b","esc":"x\\":12345678901234567890]","k":[",12345678901234567890 "]}';
    expect(right(text)).toStrictEqual(JSON.parse(text));
  });

  it('gives a json DecodeError with a redacted excerpt, never throwing', () => {
    const r = parseJson('{"listenKey":"abcdef123456","x":', ['abcdef123456']);
    if (E.isRight(r)) throw new Error('expected a Left');
    expect(r.left.name).toBe('DecodeError');
    expect(r.left.kind).toBe('json');
    expect(r.left.paths).toEqual([]);
    expect(r.left.raw).not.toContain('abcdef123456');
    expect(r.left.message).not.toContain('abcdef123456');
    expect(r.left.message).toMatch(/not valid JSON/);
  });

  it('reports empty text and truncates long input', () => {
    expect(E.isLeft(parseJson(''))).toBe(true);
    const r = parseJson('x'.repeat(5000));
    if (E.isRight(r)) throw new Error('expected a Left');
    expect(r.left.raw!.length).toBeLessThan(400);
  });

  it('keeps every string and every integer of a generated document exact', () => {
    const long = fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n });
    const item = fc.oneof(
      fc.string({ unit: fc.constantFrom('1', '9', '0', ':', ',', '[', ']', '"', '\\', ' ', '-', '.', 'e') }),
      fc
        .tuple(fc.constantFrom(':', ',', '[', ' ', '\\'), long, fc.constantFrom(',', ']', '}', ' ', ''))
        .map(([before, n, after]) => `${before}${n}${after}`),
      long,
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    fc.assert(
      fc.property(fc.array(item), (items) => {
        const literals = items.map((x) => (typeof x === 'bigint' ? x.toString() : JSON.stringify(x)));
        const expected = literals.map((l) => (/^-?\d{16,}$/.test(l) ? l : JSON.parse(l)));
        expect(right(`[${literals.join(',')}]`)).toStrictEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('quoteLongIntegers', () => {
  it('returns the same string when there is nothing to quote', () => {
    const text = '{"v":"929681067596857345","t":1625562619577}';
    expect(quoteLongIntegers(text)).toBe(text);
  });

  it('quotes bare long integers only', () => {
    expect(quoteLongIntegers('{"i":1291488620385157122,"s":"1291488620385157122"}')).toBe(
      '{"i":"1291488620385157122","s":"1291488620385157122"}',
    );
  });
});

/** The exact question the pre-check answers: a maximal run of 16+ digits standing where a JSON value starts. */
const longRunModel = (text: string): boolean => {
  for (const m of text.matchAll(/\d{16,}/g)) if (/(?:^|[:,[])[ \t\n\r]*-?$/.test(text.slice(0, m.index))) return true;
  return false;
};

/** Text rich in digit runs of every length and in the characters around them that decide a verdict. */
const runText = fc
  .array(
    fc.oneof(
      fc.constantFrom('"', ':', ',', '[', '-', ' ', '\n', '.', 'a', 'é', '€', '𝄞', '}', 'e'),
      fc.integer({ min: 1, max: 40 }).map((n) => '1234567890'.repeat(4).slice(0, n)),
      fc.integer({ min: 14, max: 18 }).map((n) => '9'.repeat(n)),
    ),
    { maxLength: 30 },
  )
  .map((pieces) => pieces.join(''));

/** Layouts where a run spans several 16-character windows, starts or ends on a window boundary, or follows a rejected run. */
const layouts = (pad: string): [string, boolean][] => [
  [`${pad}"1234567890123456789012345678901234567890",1234567890123456`, true],
  [`${pad}"1234567890123456789012345678901234567890","1234567890123456"`, false],
  [`${pad}1.1234567890123456789012345678901234567890,123456789012345`, false],
  [`${pad}1.1234567890123456789012345678901234567890,-1234567890123456`, true],
  [`${pad}"123456789012345":"1234567890123456",1234567890123456]`, true],
  [`${pad}[123456789012345,123456789012345,123456789012345]`, false],
  [`${pad}[12345678901234567890123456789012345678901234567890]`, true],
  [`${pad}x12345678901234567890123456789012345678901234567890,1`, false],
  [`${pad}"é12345678901234567890123456789","€:1234567890123456"`, true],
];

describe('mayHaveLongInteger', () => {
  it('answers exactly the long-run question: generated text, runs across windows and at their boundaries', () => {
    for (let pad = 0; pad < 40; pad++) {
      for (const [text, expected] of layouts('a'.repeat(pad))) {
        expect(longRunModel(text)).toBe(expected);
        expect(mayHaveLongInteger(text)).toBe(expected);
      }
    }
    fc.assert(
      fc.property(runText, (text) => {
        expect(mayHaveLongInteger(text)).toBe(longRunModel(text));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('finds bare long integers wherever the sampled positions fall, and skips quoted ids', () => {
    for (let pad = 0; pad < 40; pad++) {
      const prefix = `{"x":"${'a'.repeat(pad)}",`;
      expect(mayHaveLongInteger(`${prefix}"i":1234567890123456}`)).toBe(true);
      expect(mayHaveLongInteger(`${prefix}"i": -12345678901234567890}`)).toBe(true);
      expect(mayHaveLongInteger(`${prefix}"i":[ 1,\n 1234567890123456]}`)).toBe(true);
      expect(mayHaveLongInteger(`${prefix}"i":"1234567890123456789"}`)).toBe(false);
      expect(mayHaveLongInteger(`${prefix}"t":123456789012345,"u":1625562619577}`)).toBe(false);
    }
    expect(mayHaveLongInteger('1234567890123456')).toBe(true);
    expect(mayHaveLongInteger('')).toBe(false);
  });

  it('never says no when quoteLongIntegers would quote something in a JSON document', () => {
    const ws = fc.string({ unit: fc.constantFrom(' ', '\n', '\t', '\r'), maxLength: 3 });
    const leaf = fc.oneof(
      fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }).map(String),
      fc.string({ unit: fc.constantFrom('1', '9', '0', ':', ',', '[', '"', '\\', ' ', 'a'), maxLength: 20 }).map((x) => JSON.stringify(x)),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
    );
    const member = fc.tuple(ws, fc.boolean(), leaf, ws).map(([w, named, v, w2]) => (named ? `${w}"k"${w2}:${w}${v}${w2}` : `${w}${v}${w2}`));
    const doc = fc.tuple(ws, fc.array(member, { maxLength: 8 }), fc.boolean()).map(([w, members, asObject]) =>
      asObject
        ? `${w}{${members.map((m, i) => (m.includes('"k"') ? m.replace('"k"', `"k${i}"`) : `"k${i}":${m}`)).join(',')}}`
        : `${w}[${members.map((m) => (m.includes('"k"') ? m.slice(m.indexOf(':') + 1) : m)).join(',')}]`,
    );
    fc.assert(
      fc.property(doc, (text) => {
        expect(() => JSON.parse(text)).not.toThrow();
        if (quoteLongIntegers(text) !== text) expect(mayHaveLongInteger(text)).toBe(true);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});

describe('parseJson on hostile input', () => {
  it('parses nesting 100 000 deep (arrays and objects) without recursion in ex-streams code: V8\'s JSON.parse is iterative', () => {
    const depth = 100_000;
    for (const text of ['['.repeat(depth) + ']'.repeat(depth), '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)]) {
      expect(E.isRight(parseJson(text))).toBe(true);
    }
    // The long-integer pre-check and the quoting pass are loops too: a 64-bit id at the bottom stays exact.
    let inner: unknown = right('['.repeat(depth) + '1291488620385157122' + ']'.repeat(depth));
    for (let i = 0; i < depth; i++) inner = (inner as unknown[])[0];
    expect(inner).toBe('1291488620385157122');
    expect(E.isLeft(parseJson('['.repeat(depth)))).toBe(true);
  });

  it('keeps 40-digit ids exact and never leaks part of a signature through the excerpt of invalid JSON', () => {
    expect(right('{"T":1234567890123456789012345678901234567890}')).toEqual({ T: '1234567890123456789012345678901234567890' });
    const signature = '5f2c9a0e7b8d41c3a6f0e9d2b7c4a1f8e3d6b9c0a5f2e7d4c1b8a3f6e9d0c7b2';
    const r = parseJson(`{"msg":"${'x '.repeat(136)}${signature} rejected, and then the frame is cut`);
    if (E.isRight(r)) throw new Error('expected a failure');
    for (let i = 0; i + 8 <= signature.length; i++) expect(r.left.raw).not.toContain(signature.slice(i, i + 8));
  });
});
