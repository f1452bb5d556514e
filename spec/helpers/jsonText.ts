/**
 * Generators of JSON text for the struct readers' property tests (`spec/codecs/structReader.spec.ts`, the market
 * frames; `spec/user/internal/privateFrameReader.spec.ts`, the private stream's): objects with the declared keys in
 * the service's order or not, tricky primitives, and damage (cut short, a character changed, whitespace, an escape).
 */
import fc from 'fast-check';

/** A JSON value as text, tricky for the reader: each is valid JSON unless said otherwise. */
export const primitiveValue = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('"76321.15"', '"0.001"', '"1"', '"0"', '"1731300000123"', '"BTCUSDT"', '"24h"', '"1m"', '""') },
  { weight: 2, arbitrary: fc.constantFrom('"true"', '"false"', 'true', 'false', 'null') },
  {
    weight: 3,
    arbitrary: fc.constantFrom('1731300000123', '0', '-0', '12', '-5', '1.5', '1e3', '2E-2', '1447335405363150849', '-1447335405363150849', '9007199254740993', '1234567890123456', '1.0000000000000001', '1e400'),
  },
  { weight: 1, arbitrary: fc.constantFrom('"76321.1\\u0035"', '"a\\"b"', '"a\\\\"', '"\\/"', '"tab\there"', '"new\nline"', '"é"', '"\ud83d\ude00"') },
  { weight: 1, arbitrary: fc.constantFrom('{}', '[]', '{"a":1}', '[1,"2"]') },
  // not JSON
  { weight: 1, arbitrary: fc.constantFrom('01', '1.', '.5', '-', '+1', 'tru', 'nul', "'x'", '"open', '1e', 'NaN', 'truee', 'falsey', 'fals', 'tRue', 'true1') },
);

/** A key: a declared one mostly, sometimes another or a tricky one. */
export const keyOf = (declared: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...declared) },
    { weight: 2, arbitrary: fc.constantFrom('site', 'channelId', 'x', '', 'vv', 'ping', 'pong', '__proto__', 'constructor', '0', 't\\u0041', 'a\tb') },
    // Prefixes and extensions of declared keys (the key trie must end each key at its quote).
    { weight: 1, arbitrary: fc.constantFrom('s', 'sy', 'symbo', 'symbolN', 'symbolNames', 'symbol2', 'sendTim', 'sendTimes', 'shared2', 'top', 'topics', 'dat', 'f2', 'id2', 'sn2', 'tt', 'v2', 'mm') },
  );

/** An object: a declared key set (in the service's order, shuffled, some missing, some twice), its values. */
export function objectText(declared: readonly string[], value: (key: string) => fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: fc.constant([...declared]) }, { weight: 1, arbitrary: fc.shuffledSubarray([...declared], { minLength: Math.max(0, declared.length - 2) }) }),
      fc.boolean(),
      fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(keyOf(declared), { maxLength: 2 }) }),
    )
    .chain(([keys, inOrder, extra]) => {
      const ordered = inOrder ? declared.filter((k) => keys.includes(k)) : keys;
      const all = [...ordered, ...extra];
      return fc.tuple(...all.map((k) => value(k).map((v) => `${JSON.stringify(k).replace('\\\\u0041', '\\u0041')}:${v}`))).map((pairs) => `{${pairs.join(',')}}`);
    });
}

/** `good` mostly, `bad` one time in `1 + weight`. */
export const mostly = (good: fc.Arbitrary<string>, bad: fc.Arbitrary<string>, weight = 15): fc.Arbitrary<string> =>
  fc.oneof({ weight, arbitrary: good }, { weight: 1, arbitrary: bad });

/** `text`, sometimes damaged: cut short, a character changed, whitespace or an escape put in. */
export function damaged(frames: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(frames, fc.nat(), fc.constantFrom('none', 'none', 'none', 'none', 'none', 'none', 'cut', 'char', 'space', 'escape', 'control'))
    .map(([text, at, damage]) => {
      const i = at % (text.length + 1);
      switch (damage) {
        case 'cut':
          return text.slice(0, i);
        case 'char':
          return text.slice(0, i) + '"}],:0x\\'.charAt(at % 9) + text.slice(i + 1);
        case 'space':
          return text.slice(0, i) + ' ' + text.slice(i);
        case 'escape':
          return text.slice(0, i) + '\\' + text.slice(i);
        case 'control':
          return text.slice(0, i) + '\u0001' + text.slice(i);
        default:
          return text;
      }
    });
}
