import * as E from 'fp-ts/Either';
import fc from 'fast-check';
import { decodeWith } from '../../lib/codecs/decode';
import { DepthEnvelopeCodec, DepthRecordCodec } from '../../lib/codecs/depth';
import { FAIL, inPlaceCheckOf } from '../../lib/codecs/fastCheck';
import { DecodeError } from '../../lib/errors';
import { parseJsonValue } from '../../lib/frame/json';
import { NOT_SCANNED, parseWithScannedLevels, ScannedLevels } from '../../lib/frame/levelsJson';
import { decodeFrame } from '../../lib/frame/decodeFrame';
import { realFrame } from '../bench/realFrames';

// ---------------------------------------------------------------------------------------------------------
// The oracle: the stand-in against the primitive it replaces.
// ---------------------------------------------------------------------------------------------------------

type Outcome = 'scanned' | 'not scanned';

/**
 * `parseWithScannedLevels(text)` is NOT_SCANNED, or equals `JSON.parse(text)`, and never a value when
 * `JSON.parse` throws. Says which branch was taken, so the runs can be counted.
 */
function agreesWithJsonParse(text: string): Outcome {
  let expected: unknown;
  let threw = false;
  try {
    expected = JSON.parse(text);
  } catch {
    threw = true;
  }
  const got = parseWithScannedLevels(text);
  if (got === NOT_SCANNED) return 'not scanned';
  expect(threw).toBe(false);
  expect(got).toStrictEqual(expected);
  return 'scanned';
}

/** Whether `JSON.parse` accepts `text`. */
const isValidJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

// ---------------------------------------------------------------------------------------------------------
// Generators: JSON texts written by hand (whitespace, escapes and duplicate keys are not JSON.stringify's),
// each fragment tagged with the tricky cases it holds, so the runs can show they reached them.
// ---------------------------------------------------------------------------------------------------------

interface Fragment {
  readonly text: string;
  readonly tags: readonly string[];
  /** A levels array `[[…],…]` (of any levels). */
  readonly levels?: boolean;
}

const fragment = (text: string, ...tags: string[]): Fragment => ({ text, tags });
const tagsOf = (parts: readonly Fragment[]): string[] => parts.flatMap((p) => p.tags);

/** JSON whitespace, mostly none. */
const ws = fc.constantFrom('', '', '', '', ' ', '\n', '\t ', '\r\n');

/** Decimal text as the scanner reads it: `digits[.digits]`. */
const decimal = fc
  .tuple(fc.stringMatching(/^\d{1,6}$/), fc.option(fc.stringMatching(/^\d{1,5}$/), { nil: undefined }))
  .map(([int, frac]) => (frac === undefined ? int : `${int}.${frac}`));

const goodLevel = fc.tuple(decimal, decimal).map(([p, q]) => `["${p}","${q}"]`);

/** A level the scanner must refuse, as JSON text (all valid JSON), with what is tricky about it. */
const badLevel: fc.Arbitrary<Fragment> = fc.oneof(
  fc.constantFrom('[76321.15,"0.1"]', '["1",2]', '[1,2]', '[1e400,"1"]').map((t) => fragment(t, 'number in level')),
  fc.constantFrom('["-1","2"]', '["1","-0.5"]', '["+1","2"]').map((t) => fragment(t, 'sign in level')),
  fc.constantFrom('["1e5","2"]', '["1","2E-3"]').map((t) => fragment(t, 'exponent in level')),
  fc.constantFrom('["","1"]', '["1",""]').map((t) => fragment(t, 'empty string in level')),
  fc
    .constantFrom('["1\\u002e5","2"]', '["\\"1","2"]', '["1\\\\","2"]', '["1","2\\""]', '["\\u0031","2"]', '["1\\/","2"]')
    .map((t) => fragment(t, 'escape in level')),
  fc.constantFrom('[ "1","2"]', '["1", "2"]', '["1","2" ]', '["1"\n,"2"]').map((t) => fragment(t, 'whitespace in level')),
  fc.constantFrom('["1."," 2"]', '[".5","2"]', '["1.","2"]', '["0x1","2"]', '["1,5","2"]').map((t) => fragment(t, 'not decimal text')),
  fc.constantFrom('["1"]', '["1","2","3"]', '[]', 'null', '"1"', '{"p":"1"}', '[["1","2"]]').map((t) => fragment(t, 'other shape')),
);

/** `arb`'s value one time in four, else `undefined`. */
const sometimes = <A>(arb: fc.Arbitrary<A>): fc.Arbitrary<A | undefined> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** A levels array: mostly 16+ good levels, sometimes one bad level, a few levels, whitespace between levels. */
const levelsArray: fc.Arbitrary<Fragment> = fc
  .tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.array(goodLevel, { minLength: 16, maxLength: 60 }) },
      { weight: 1, arbitrary: fc.array(goodLevel, { minLength: 0, maxLength: 15 }) },
    ),
    sometimes(fc.tuple(badLevel, fc.nat())),
    sometimes(fc.tuple(fc.constantFrom(' ', '\n', '\t', '\r\n'), fc.nat())),
  )
  .map(([good, bad, spaced]) => {
    const levels: string[] = [...good];
    const tags: string[] = levels.length < 16 ? ['fewer than 16 levels'] : [];
    if (bad !== undefined) {
      levels.splice(bad[1] % (levels.length + 1), 0, bad[0].text);
      tags.push(...bad[0].tags);
    }
    let text = `[${levels.join(',')}]`;
    if (spaced !== undefined && levels.length > 1) {
      // Whitespace inside the array: after the outer `[`, after `[[`, after a comma between levels, before the end.
      const [space, at] = spaced;
      const between = text.indexOf('],[') + 2;
      const positions = [1, 2, between, text.length - 1].filter((i) => i > 0);
      const i = positions[at % positions.length]!;
      text = text.slice(0, i) + space + text.slice(i);
      tags.push('whitespace inside levels');
    }
    return { text, tags, levels: true };
  });

/** 16 or more good levels, nothing tricky: the common case, which the scanner takes. */
const goodLevelsArray: fc.Arbitrary<Fragment> = fc
  .array(goodLevel, { minLength: 16, maxLength: 60 })
  .map((levels) => ({ text: `[${levels.join(',')}]`, tags: [], levels: true }));

/** String pieces that look like what the scanner looks for, or like its placeholders. */
const stringPiece = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom(
      ...['a', 'levels', ' ', ':', '"', '\\', '\\"', ',', ']', 'é', '\n', '\ud83d\ude00'],
      ...['[[', ':[[', '[["1","2"]]', '],['],
    ),
  },
  // Any `\u0000` sends the whole text to JSON.parse: rare, so that the texts around them are still scanned.
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u0000levels:0', '\u0000levels:1') },
);

/** A JSON string literal (by JSON.stringify of tricky pieces), or one of a few written by hand. */
const stringLiteral: fc.Arbitrary<Fragment> = fc.oneof(
  fc.array(stringPiece, { maxLength: 8 }).map((pieces) => {
    const s = pieces.join('');
    const tags: string[] = [];
    if (s.includes('\u0000levels:')) tags.push('placeholder-like string');
    else if (s.includes('\u0000')) tags.push('\\u0000 escape');
    if (s.includes('"') || s.includes('\\')) tags.push('escaped quote or backslash');
    if (s.includes('[[')) tags.push('levels-like text in a string');
    return { text: JSON.stringify(s), tags };
  }),
  fc
    .constantFrom('"\\u0000levels:0"', '"\\\\u0000levels:0"', '"x\\\\"', '"x\\\\\\":[[\\"1\\",\\"2\\"]]"', '"\\"[[\\"1\\",\\"2\\"]]"')
    .map((t) => fragment(t, 'hand-written tricky string')),
);

const scalar: fc.Arbitrary<Fragment> = fc.oneof(
  stringLiteral,
  fc.constantFrom('true', 'false', 'null', '0', '-0', '1e5', '-12.5E-3', '123456789012345678901').map((t) => fragment(t)),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => fragment(JSON.stringify(d))),
);

/** An object key: a few names so that duplicates are common, `__proto__`, tricky strings. */
const key: fc.Arbitrary<Fragment> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('a', 'b', 'x', 'data', 's', 't', 'e', 'v', 'o', '__proto__').map((k) => fragment(JSON.stringify(k))),
  },
  { weight: 1, arbitrary: stringLiteral },
);

const { value } = fc.letrec<{ value: Fragment; array: Fragment; object: Fragment }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    levelsArray,
    scalar,
    tie('array'),
    tie('object'),
  ),
  array: fc.tuple(fc.array(fc.tuple(ws, tie('value'), ws), { maxLength: 4 }), ws).map(([items, inner]) => {
    const tags = tagsOf(items.map(([, v]) => v));
    if (items.some(([, v]) => v.levels === true)) tags.push('levels in an array');
    return {
      text: items.length === 0 ? `[${inner}]` : `[${items.map(([a, v, b]) => a + v.text + b).join(',')}]`,
      tags,
    };
  }),
  object: fc.array(fc.tuple(ws, key, ws, ws, tie('value'), ws), { maxLength: 5 }).map((entries) => objectText(entries)),
}));

type Entry = readonly [string, Fragment, string, string, Fragment, string];

/** `{ k: v, … }` with its tags: duplicate keys, `__proto__` holding levels, whitespace around levels. */
function objectText(entries: readonly Entry[]): Fragment {
  const tags = tagsOf(entries.flatMap(([, k, , , v]) => [k, v]));
  const keys = entries.map(([, k]) => k.text);
  if (new Set(keys).size < keys.length) tags.push('duplicate keys');
  for (const [, k, , before, v, after] of entries) {
    if (v.levels !== true) continue;
    tags.push('levels as an object value');
    if (k.text === '"__proto__"') tags.push('__proto__ holding levels');
    if (k.text !== '"a"' && k.text !== '"b"') tags.push('levels under another key');
    if (before !== '' || after !== '') tags.push('whitespace around levels');
  }
  return { text: `{${entries.map(([a, k, b, c, v, d]) => `${a}${k.text}${b}:${c}${v.text}${d}`).join(',')}}`, tags };
}

/** A padding entry, so that texts pass the scanner's 1 024 characters. */
const padding = fc.integer({ min: 0, max: 1200 }).map((n) => `"pad":"${'p'.repeat(n)}"`);

/** A whole JSON text (≥ 1 024 characters most of the time), its tags, and the tags of nesting. */
const document: fc.Arbitrary<Fragment> = fc.oneof(
  // A book-like object: big levels arrays as values next to anything, optionally nested.
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        fc.array(fc.tuple(ws, key, ws, ws, fc.oneof(levelsArray, value), ws), { minLength: 1, maxLength: 5 }),
        fc.tuple(fc.constantFrom('a', 'b'), fc.oneof({ weight: 3, arbitrary: goodLevelsArray }, levelsArray)),
        padding,
        fc.nat(2),
      )
      .map(([entries, [k, levels], pad, nesting]) => {
        const inner = objectText([['', fragment(`"${k}"`), '', '', levels, ''], ...entries]);
        const text = `{${pad},${inner.text.slice(1)}`;
        const wrapped =
          nesting === 0
            ? text
            : nesting === 1
              ? `{"symbol":"BTCUSDT","data":[${text}],"f":false}`
              : `{"x":{"y":${text}},"z":[${text}]}`;
        return { text: wrapped, tags: nesting === 0 ? inner.tags : [...inner.tags, 'levels in a nested object'] };
      }),
  },
  // Levels at the top level, or in a top-level array.
  {
    weight: 1,
    arbitrary: fc
      .tuple(levelsArray, ws, ws)
      .map(([levels, a, b]) => fragment(`${a}${levels.text}${b}`, ...levels.tags, 'levels at the top level')),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.array(levelsArray, { minLength: 1, maxLength: 3 }), value)
      .map(([levels, v]) =>
        fragment(`[${[...levels.map((l) => l.text), v.text].join(',')}]`, ...tagsOf([...levels, v]), 'levels in an array'),
      ),
  },
  // Anything.
  { weight: 1, arbitrary: value },
);

/** How a valid text is broken: cut short, a character removed, inserted or replaced. */
const mutation = fc.tuple(
  fc.constantFrom('truncate', 'delete', 'insert', 'replace'),
  fc.nat(),
  fc.constantFrom('"', '\\', '[', ']', ',', ':', '{', '}', ' ', '0', '.', '-', 'x', '\u0000'),
);

function mutate(text: string, [kind, at, c]: [string, number, string]): string {
  const i = at % (text.length + 1);
  switch (kind) {
    case 'truncate':
      return text.slice(0, i);
    case 'delete':
      return text.slice(0, i) + text.slice(i + 1);
    case 'insert':
      return text.slice(0, i) + c + text.slice(i);
    default:
      return text.slice(0, i) + c + text.slice(i + 1);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Fixed texts.
// ---------------------------------------------------------------------------------------------------------

/** `n` good levels as a JSON array. */
const levelsText = (n: number): string =>
  `[${Array.from({ length: n }, (_, i) => `["${76321 + i}.15","0.00${100 + i}"]`).join(',')}]`;
const LEVELS = levelsText(60);
const pad = (n: number): string => `"pad":"${'p'.repeat(n)}"`;

describe('parseWithScannedLevels', () => {
  it('equals JSON.parse on generated texts, or leaves them to it, and takes the scanned branch often', () => {
    const counts = { runs: 0, scanned: 0, long: 0 };
    const tagCounts = new Map<string, number>();
    const scannedTags = new Map<string, number>();
    fc.assert(
      fc.property(document, (doc) => {
        counts.runs++;
        if (doc.text.length >= 1024) counts.long++;
        const outcome = agreesWithJsonParse(doc.text);
        if (outcome === 'scanned') counts.scanned++;
        for (const tag of new Set(doc.tags)) {
          tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
          if (outcome === 'scanned') scannedTags.set(tag, (scannedTags.get(tag) ?? 0) + 1);
        }
      }),
      { numRuns: 1000 },
    );
    // Not vacuous: most texts are long enough, a good share took the scanned branch, and every tricky case
    // was generated many times, most of them also in texts that were scanned (the trick beside scanned levels).
    expect(counts.long).toBeGreaterThan(counts.runs * 0.6);
    expect(counts.scanned).toBeGreaterThan(counts.runs * 0.2);
    const tricky = [
      'levels at the top level',
      'levels in an array',
      'levels in a nested object',
      'levels under another key',
      'whitespace around levels',
      'whitespace inside levels',
      'whitespace in level',
      'number in level',
      'sign in level',
      'exponent in level',
      'empty string in level',
      'escape in level',
      'not decimal text',
      'other shape',
      'fewer than 16 levels',
      'escaped quote or backslash',
      'levels-like text in a string',
      'hand-written tricky string',
      'duplicate keys',
      '__proto__ holding levels',
      '\\u0000 escape',
      'placeholder-like string',
    ];
    for (const tag of tricky) expect({ tag, runs: (tagCounts.get(tag) ?? 0) >= 10 }).toEqual({ tag, runs: true });
    // These sit next to good levels in a text that is still scanned (the scanner must step over them).
    const besideScanned = [
      'levels in a nested object',
      'levels under another key',
      'escaped quote or backslash',
      'levels-like text in a string',
      'duplicate keys',
      'number in level',
      'whitespace inside levels',
    ];
    for (const tag of besideScanned) {
      expect({ tag, scanned: (scannedTags.get(tag) ?? 0) >= 5 }).toEqual({ tag, scanned: true });
    }
  });

  it('never gives a value for a broken text (truncated or mutated), and agrees when the break leaves it valid', () => {
    const counts = { invalid: 0, invalidFromScanned: 0, validScanned: 0 };
    fc.assert(
      fc.property(document, mutation, (doc, m) => {
        const text = mutate(doc.text, m);
        const outcome = agreesWithJsonParse(text);
        if (isValidJson(text)) {
          if (outcome === 'scanned') counts.validScanned++;
          return;
        }
        counts.invalid++;
        if (parseWithScannedLevels(doc.text) !== NOT_SCANNED) counts.invalidFromScanned++;
      }),
      { numRuns: 1000 },
    );
    // Not vacuous: many broken texts came from texts the scanner takes, so its checks were what stood.
    expect(counts.invalid).toBeGreaterThan(300);
    expect(counts.invalidFromScanned).toBeGreaterThan(80);
    expect(counts.validScanned).toBeGreaterThan(20);
  });

  it('scans valid texts whose strings hold quotes, backslashes and `[[` before or between the levels', () => {
    const texts = [
      `{${pad(1000)},"__proto__":1,"a":${LEVELS}}`,
      `{${pad(1000)},"s":"x:[[","a":${LEVELS}}`,
      `{${pad(1000)},"s:[[":"\\\\","a":${LEVELS}}`,
      `{${pad(1000)},"s":"\\":${LEVELS.replace(/"/g, '\\"')}","a":${LEVELS}}`,
      `{${pad(1000)},"s":"\\\\\\":[[","a":${LEVELS}}`,
      `{${pad(1000)},"a":${LEVELS},"s":"\\"","b":${LEVELS}}`,
      `{${pad(1000)},"a" : ${LEVELS} ,"b":\n${LEVELS}\n}`,
      `{${pad(1000)},"a":${LEVELS},"x":{"y":[{"b":${LEVELS}}]},"z":[[1,2]]}`,
    ];
    for (const text of texts) expect(agreesWithJsonParse(text)).toBe('scanned');
  });

  it('agrees on duplicate keys, __proto__, placeholder-like strings and levels it must refuse', () => {
    const texts = [
      `{${pad(1000)},"a":${LEVELS},"a":1}`,
      `{${pad(1000)},"a":1,"a":${LEVELS}}`,
      `{${pad(1000)},"a":${LEVELS},"a":${LEVELS}}`,
      `{${pad(1000)},"x":{"a":${LEVELS}},"x":{"b":${LEVELS}}}`,
      `{${pad(1000)},"__proto__":${LEVELS}}`,
      `{${pad(1000)},"__proto__":{"a":${LEVELS}}}`,
      `{${pad(1000)},"s":"\\u0000levels:0","a":${LEVELS}}`,
      `{${pad(1000)},"s":"\\\\u0000levels:0","a":${LEVELS}}`,
      `{${pad(1000)},"\\u0000levels:0":${LEVELS},"a":${LEVELS}}`,
      `{${pad(1000)},"a":[${LEVELS}],"b":[[${LEVELS}]]}`,
      `[${pad(1000).replace(':', ',')},${LEVELS}]`,
      `${LEVELS}`,
      `{${pad(1000)},"a":${LEVELS.replace('"76321.15"', '76321.15')}}`,
      `{${pad(1000)},"a":${LEVELS.replace('"0.00100"', '"1e-3"')}}`,
      `{${pad(1000)},"a":${LEVELS.replace('[["', '[[ "')}}`,
      `{${pad(1000)},"a":${LEVELS.replace('],[', '], [')}}`,
      `{${pad(1000)},"a":${LEVELS.replace('"76321.15"', '"7632\\u0031.15"')}}`,
    ];
    for (const text of texts) agreesWithJsonParse(text);
  });

  it('gives no value for texts broken around the levels', () => {
    const texts = [
      `{${pad(1000)},"a":${LEVELS}`,
      `{${pad(1000)},"a":${LEVELS}}}`,
      `{${pad(1000)},"a":${LEVELS},}`,
      `{${pad(1000)},"a":${LEVELS}]`,
      `{${pad(1000)},"a":${LEVELS.slice(0, -1)}}`,
      `{${pad(1000)},"a"${LEVELS}}`,
      `{${pad(1000)},"a"::${LEVELS}}`,
      `{${pad(1000)},:${LEVELS}}`,
      `{${pad(1000)},${LEVELS}:1}`,
      `{${pad(1000)},"a":${LEVELS}${LEVELS}}`,
      `{${pad(1000)},"a":${LEVELS},"s":"unterminated}`,
      `{${pad(1000)},"a":${LEVELS},"s":"\u0001"}`,
      `{${pad(1000)},"s":"x:\\${LEVELS}"}`,
    ];
    for (const text of texts) {
      expect(isValidJson(text)).toBe(false);
      expect(agreesWithJsonParse(text)).toBe('not scanned');
    }
  });

  it('keeps __proto__ an own property and the prototype untouched', () => {
    const value = parseWithScannedLevels(`{${pad(1000)},"__proto__":{"p":1},"a":${LEVELS}}`) as Record<string, unknown>;
    expect(value).not.toBe(NOT_SCANNED);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ p: 1 });
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });

  it('scans a real-shaped depth frame, and the result equals JSON.parse', () => {
    const text = realFrame('depth', 1).toString();
    const value = parseWithScannedLevels(text);
    expect(value).not.toBe(NOT_SCANNED);
    expect(value).toStrictEqual(JSON.parse(text));
  });

  it('leaves texts under 1 024 characters and arrays of fewer than 16 levels to JSON.parse', () => {
    const short = `{"a":${levelsText(16)}}`;
    expect(short.length).toBeLessThan(1024);
    expect(parseWithScannedLevels(short)).toBe(NOT_SCANNED);
    const fifteen = `{${pad(1000)},"a":${levelsText(15)},"b":${levelsText(15)}}`;
    expect(fifteen.length).toBeGreaterThanOrEqual(1024);
    expect(parseWithScannedLevels(fifteen)).toBe(NOT_SCANNED);
    // One level more, or the same text made longer, and it is scanned: the bounds are where they say.
    expect(parseWithScannedLevels(`{${pad(1000)},"a":${levelsText(16)}}`)).not.toBe(NOT_SCANNED);
    expect(parseWithScannedLevels(`{${pad(1024)},${short.slice(1)}`)).not.toBe(NOT_SCANNED);
  });

  it('survives nesting 100 000 deep around big levels arrays, without throwing', () => {
    const deep = 100_000;
    const arrays = `${'['.repeat(deep)}{${pad(1000)},"a":${LEVELS}}${']'.repeat(deep)}`;
    const objects = `${'{"x":'.repeat(deep)}{"a":${LEVELS}}${'}'.repeat(deep)}`;
    const beside = `{"a":${LEVELS},"d":${'['.repeat(deep)}${']'.repeat(deep)}}`;
    const unclosed = `{"a":${LEVELS},"d":${'['.repeat(deep)}`;
    for (const text of [arrays, objects, beside, unclosed]) {
      expect(() => parseWithScannedLevels(text)).not.toThrow();
      // Deeper than the walk that puts the arrays back: left to JSON.parse.
      expect(parseWithScannedLevels(text)).toBe(NOT_SCANNED);
      expect(() => parseJsonValue(text)).not.toThrow();
    }
    // Within the walk's depth, nesting is scanned.
    const shallow = `${'{"x":'.repeat(30)}{"a":${LEVELS}}${'}'.repeat(30)}`;
    expect(agreesWithJsonParse(shallow)).toBe('scanned');
  });
});

describe('ScannedLevels', () => {
  it('takes each levels array scanned once, then no more; nothing else', () => {
    const text = realFrame('depth', 1).toString();
    const scanned = new ScannedLevels();
    const value = parseWithScannedLevels(text, scanned) as { data: { a: unknown[]; b: unknown[] }[] };
    const record = value.data[0]!;
    expect(scanned.any).toBe(true);
    expect(scanned.take(value)).toBe(false);
    expect(scanned.take(value.data)).toBe(false);
    expect(scanned.take(record)).toBe(false);
    expect(scanned.take(record.a[0])).toBe(false);
    expect(scanned.take(record.a)).toBe(true);
    expect(scanned.take(record.a)).toBe(false);
    expect(scanned.take(record.b)).toBe(true);
    expect(scanned.take(record.b)).toBe(false);
    const parsed = JSON.parse(text) as { data: { a: unknown[] }[] };
    expect(scanned.take(parsed.data[0]!.a)).toBe(false);
    for (const other of [null, undefined, 0, 'x', true, [], {}]) expect(scanned.take(other)).toBe(false);
  });

  it('does not take arrays the scanner refused in a text it scanned', () => {
    const text = `{${pad(1000)},"a":${LEVELS},"b":${LEVELS.replace('[["', '[[ "')},"c":${levelsText(15)}}`;
    const scanned = new ScannedLevels();
    const value = parseWithScannedLevels(text, scanned) as Record<string, unknown>;
    expect(value).not.toBe(NOT_SCANNED);
    expect(scanned.take(value.b)).toBe(false);
    expect(scanned.take(value.c)).toBe(false);
    expect(scanned.take(value.a)).toBe(true);
  });

  it('holds the arrays of the parse it was handed to only, and none once cleared or refilled', () => {
    const text = realFrame('depth', 1).toString();
    const scanned = new ScannedLevels();
    const unmarked = parseWithScannedLevels(text) as { data: { a: unknown[]; b: unknown[] }[] };
    expect(scanned.any).toBe(false);
    expect(scanned.take(unmarked.data[0]!.a)).toBe(false);
    expect(parseJsonValue(text)).toStrictEqual(unmarked);
    const fromJson = parseJsonValue(text, [], false) as typeof unmarked;
    expect(scanned.take(fromJson.data[0]!.a)).toBe(false);
    const marked = parseJsonValue(text, [], false, scanned) as typeof unmarked;
    expect(marked).toStrictEqual(unmarked);
    scanned.clear();
    expect(scanned.any).toBe(false);
    expect(scanned.take(marked.data[0]!.a)).toBe(false);
    const first = parseWithScannedLevels(text, scanned) as typeof unmarked;
    const second = parseWithScannedLevels(realFrame('depth', 2).toString(), scanned) as typeof unmarked;
    expect(scanned.take(first.data[0]!.b)).toBe(false);
    expect(scanned.take(second.data[0]!.b)).toBe(true);
    // Two frames' parses, each with its own: neither takes the other's.
    const other = new ScannedLevels();
    const third = parseWithScannedLevels(text, other) as typeof unmarked;
    expect(scanned.take(third.data[0]!.a)).toBe(false);
    expect(other.take(second.data[0]!.a)).toBe(false);
    expect(other.take(third.data[0]!.a)).toBe(true);
  });
});

describe('the scanned levels through the depth codec', () => {
  const text = realFrame('depth', 1).toString();
  /** The same frame with a space after each `[[`: JSON.parse alone parses it. */
  const fallback = text.replace('"a":[[', '"a":[ [').replace('"b":[[', '"b":[ [');

  const decoded = (t: string): E.Either<DecodeError, unknown> => {
    const value = decodeFrame(t);
    if (E.isLeft(value)) throw value.left;
    return decodeWith(DepthEnvelopeCodec, value.right);
  };

  it('decodes a real-shaped depth frame to the same record as when the levels are not scanned', () => {
    expect(parseWithScannedLevels(fallback)).toBe(NOT_SCANNED);
    const scanned = decodeFrame(text);
    if (E.isLeft(scanned)) throw scanned.left;
    const message = scanned.right as { data: { a: unknown[]; b: unknown[] }[] };
    const r = decodeWith(DepthEnvelopeCodec, message);
    expect(r).toStrictEqual(decoded(fallback));
    expect(E.isRight(r)).toBe(true);
  });

  it('decodes levels the codec takes but the scanner refuses (sign, exponent, number) as when nothing is scanned', () => {
    for (const level of ['["-1","2"]', '["1e-3","2"]', '[0.5,"2"]', '["1",2]']) {
      const other = text.replace('"a":[[', `"a":[${level},[`);
      // `a` refused by the scanner, `b` still scanned.
      expect(parseWithScannedLevels(other)).not.toBe(NOT_SCANNED);
      const r = decoded(other);
      expect(E.isRight(r)).toBe(true);
      expect(r).toStrictEqual(decodeWith(DepthEnvelopeCodec, JSON.parse(other)));
    }
  });

  it('gives the same record through the router’s in-place check, with the frame’s scanned levels or without', () => {
    const check = inPlaceCheckOf(DepthRecordCodec);
    const value = parseJsonValue(text) as { data: unknown[] };
    const record = value.data[0];
    const result = check(record);
    expect(result).not.toBe(FAIL);
    expect(result).toStrictEqual(check((JSON.parse(fallback) as { data: unknown[] }).data[0]));
    const scanned = new ScannedLevels();
    const marked = (parseJsonValue(text, [], false, scanned) as { data: { a: unknown[]; b: unknown[] }[] }).data[0]!;
    expect(check(marked, scanned)).toStrictEqual(result);
    // The check took both arrays: it skipped the scans the JSON step made.
    expect(scanned.take(marked.a)).toBe(false);
    expect(scanned.take(marked.b)).toBe(false);
  });

  it('checks in full a level changed after the parse when the check is handed no scanned levels, or another frame’s', () => {
    const scanned = new ScannedLevels();
    const record = (parseJsonValue(text, [], false, scanned) as { data: { a: unknown[][] }[] }).data[0]!;
    record.a[0]![0] = 'abc';
    const check = inPlaceCheckOf(DepthRecordCodec);
    expect(check(record)).toBe(FAIL);
    expect(check(record, new ScannedLevels())).toBe(FAIL);
  });

  it('fails a frame with a level "abc" with the same paths as when nothing is scanned', () => {
    const cases = [
      text.replace('"a":[["76321.15"', '"a":[["abc"'),
      text.replace(/\]\]\}\],"f":false/, '],["abc","1"]]}],"f":false'),
      text.replace('"a":[["76321.15"', '"a":[["76321.15","0.1"],[" 1"'),
    ];
    for (const bad of cases) {
      expect(bad === text).toBe(false);
      // One array refused by the scanner, the other still scanned.
      expect(parseWithScannedLevels(bad)).not.toBe(NOT_SCANNED);
      const r = decoded(bad);
      const plain = decodeWith(DepthEnvelopeCodec, JSON.parse(bad));
      if (E.isRight(r) || E.isRight(plain)) throw new Error('expected both to fail');
      expect(r.left.paths).toEqual(plain.left.paths);
      expect(r.left.paths.join('\n')).toMatch(/DepthRecord\/[ab]: Array<DepthLevel>\/\d+: DepthLevel\/0: DecimalString/);
    }
  });

  // `decodeFrame` is public (`ex-streams/codecs`): a level changed by the caller before decoding is checked (the
  // marks are kept to the socket session's own frame handling: decodeFrame asks for none).
  it('checks levels changed after decodeFrame in full (no mark outlives the JSON step)', () => {
    const value = decodeFrame(text);
    if (E.isLeft(value)) throw value.left;
    const message = value.right as { data: { a: unknown[][] }[] };
    message.data[0]!.a[0]![0] = 'abc';
    expect(E.isLeft(decodeWith(DepthEnvelopeCodec, message))).toBe(true);
  });
});
