import fc from 'fast-check';
import * as t from 'io-ts';
import { EnvelopeParamsCodec } from '../../lib/codecs/envelope';
import { FAIL, inPlaceCheckOf } from '../../lib/codecs/fastCheck';
import { KlineRecordCodec } from '../../lib/codecs/kline';
import { RealtimesRecordCodec } from '../../lib/codecs/realtimes';
import { fieldsOf, struct } from '../../lib/codecs/struct';
import { plainStringEnd, readPrimitive, readText, structReader } from '../../lib/codecs/structReader';
import { TradeRecordCodec } from '../../lib/codecs/trade';
import { DecodeError } from '../../lib/errors';
import { parseJsonValue } from '../../lib/frame/json';
import { marketFrameReader, RawEnvelopeCodec, ReadMessage } from '../../lib/market/internal/marketFrameReader';
import { realFrame } from '../bench/realFrames';
import { damaged, mostly, objectText, primitiveValue } from '../helpers/jsonText';

// ---------------------------------------------------------------------------------------------------------
// The oracle: a reader against what it stands in for, the exact parse followed by the check in place.
// ---------------------------------------------------------------------------------------------------------

/** The exact parse (long integers quoted) of `text`, or `FAIL` when it is not JSON. */
function exactParse(text: string): unknown {
  const value = parseJsonValue(text);
  return value instanceof DecodeError ? FAIL : value;
}

/** The record codecs of the market reader, by response topic. */
const RECORDS: Record<string, t.Decoder<unknown, unknown>> = { trade: TradeRecordCodec, kline: KlineRecordCodec, realtimes: RealtimesRecordCodec };

/** What the general path makes of a market frame's text: the checked envelope (declared keys) and records, or FAIL. */
function generalPath(text: string): { envelope: Record<string, unknown>; data: unknown[] } | typeof FAIL {
  const parsed = exactParse(text);
  if (parsed === FAIL) return FAIL;
  const envelope = inPlaceCheckOf(RawEnvelopeCodec)(parsed) as Record<string, unknown> | typeof FAIL;
  if (envelope === FAIL) return FAIL;
  const codec = RECORDS[envelope.topic as string];
  if (codec === undefined) return FAIL;
  const check = inPlaceCheckOf(codec);
  const data: unknown[] = [];
  for (const record of envelope.data as unknown[]) {
    const checked = check(record);
    if (checked === FAIL) return FAIL;
    data.push(checked);
  }
  return { envelope, data };
}

const ENVELOPE_KEYS = (() => {
  const fields = fieldsOf(RawEnvelopeCodec)!;
  return [...Object.keys(fields.required), ...Object.keys(fields.optional)].filter((k) => k !== 'data');
})();
/** Defined entries only (the reader's envelope, never handed to users, has every declared key). */
const defined = (o: unknown): unknown =>
  typeof o === 'object' && o !== null && !Array.isArray(o) ? Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) : o;
const PARAMS_KEYS = Object.keys(fieldsOf(EnvelopeParamsCodec)!.optional);
/** The declared fields of an envelope (and of its params), the ones the router reads. */
const declaredOf = (o: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    ENVELOPE_KEYS.map((k) => {
      const v = o[k] as Record<string, unknown> | undefined;
      return [k, k === 'params' && v !== undefined ? defined(Object.fromEntries(PARAMS_KEYS.map((p) => [p, v[p]]))) : defined(v)];
    }),
  );

const readMarket = marketFrameReader()!;

type Outcome = 'read' | 'not read';

/**
 * The market reader reads `text` exactly as the general path would (envelope fields, records value for value,
 * no `undefined` field a record did not have), or not at all; never a value for text the general path refuses.
 */
function agrees(text: string): Outcome {
  const expected = generalPath(text);
  const got = readMarket(text);
  if (got === FAIL) return 'not read';
  expect(expected).not.toBe(FAIL);
  if (expected === FAIL) return 'read';
  expect(got).toBeInstanceOf(ReadMessage);
  expect(got.codec).toBe(RECORDS[expected.envelope.topic as string]);
  expect(got.text).toBe(text);
  expect(declaredOf(got.envelope as unknown as Record<string, unknown>)).toStrictEqual(declaredOf(expected.envelope));
  expect(got.envelope.data).toStrictEqual(expected.data);
  return 'read';
}

// ---------------------------------------------------------------------------------------------------------
// Generators: market frames written by hand, with what the service sends and what it should not.
// ---------------------------------------------------------------------------------------------------------

/** Values that fit a record's field, mostly. */
const recordValue = (key: string): fc.Arbitrary<string> => {
  const good: Record<string, fc.Arbitrary<string>> = {
    t: fc.constantFrom('"1731300000123"', '1731300000123', '"1731300060000"', '"007"', '"1234567890123456"', '"-5"', '""'),
    v: fc.constantFrom('"1447335405363150849"', '1447335405363150849', '"1.5"', '"12"'),
    p: fc.constantFrom('"76321.15"', '"76321"', '76321.15'),
    q: fc.constantFrom('"0.00012"', '"1"'),
    m: fc.constantFrom('true', 'false', '"true"', '"false"', '"0.5"'),
    c: fc.constantFrom('"76300.4"', '"007"', '"0.50"', '"1."', '"-1"', '"1e5"', '""'),
    s: fc.constantFrom('"BTCUSDT"', '"ETH-USDT"'),
    sn: fc.constantFrom('"BTCUSDT"'),
  };
  const fitting = (Object.prototype.hasOwnProperty.call(good, key) ? good[key] : undefined) ?? fc.constantFrom('"76300.4"', '"1.5"', '"0"');
  return fc.oneof({ weight: 30, arbitrary: fitting }, { weight: 1, arbitrary: primitiveValue });
};

const TRADE_KEYS = ['v', 't', 'p', 'q', 'm'];
const KLINE_KEYS = ['t', 's', 'sn', 'c', 'h', 'l', 'o', 'v'];
const REALTIMES_KEYS = ['t', 's', 'sn', 'c', 'h', 'l', 'o', 'v', 'qv', 'm', 'e'];

const recordsOf = (keys: readonly string[]): fc.Arbitrary<string> =>
  fc.array(objectText(keys, recordValue), { maxLength: 3 }).map((records) => `[${records.join(',')}]`);

/** A market data frame: the envelope in the service's order (or not), records of its topic (or another's). */
const marketFrame: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('trade', 'kline', 'realtimes', 'trade', 'kline', 'realtimes', 'depth', 'other'),
    fc.constantFrom(TRADE_KEYS, KLINE_KEYS, REALTIMES_KEYS),
    mostly(
      fc.constantFrom('{"binary":"false","realtimeInterval":"24h"}', '{"klineType":"1m","binary":false}', '{}', '{"extra":1,"binary":true}'),
      fc.constantFrom('{"binary":"no"}', '[]', 'null', '{"a":{}}', '{"klineType":1}'),
      6,
    ),
    fc.integer({ min: 0, max: 3 }),
  )
  .chain(([topic, recordKeys, params, same]) =>
    objectText(['symbol', 'symbolName', 'topic', 'params', 'data', 'f', 'sendTime', 'shared', 'id'], (key) => {
      switch (key) {
        case 'topic':
          return fc.oneof({ weight: 20, arbitrary: fc.constant(`"${topic}"`) }, { weight: 1, arbitrary: primitiveValue });
        case 'params':
          return fc.oneof({ weight: 20, arbitrary: fc.constant(params) }, { weight: 1, arbitrary: primitiveValue });
        case 'data':
          // mostly the topic's own records
          return recordsOf(same > 0 ? (topic === 'kline' ? KLINE_KEYS : topic === 'realtimes' ? REALTIMES_KEYS : TRADE_KEYS) : recordKeys);
        case 'f':
        case 'shared':
          return mostly(fc.constantFrom('false', 'true', '"false"', '"true"'), fc.constantFrom('null', '1', '"no"'));
        case 'sendTime':
          return mostly(fc.constantFrom('"1731300000123"', '1731300000123'), fc.constantFrom('"x"', '1.5', '12345678901234567'));
        case 'id':
          // an id as a number: the reader's form (at most 15 digits) and the forms it leaves to the general path
          return mostly(
            fc.constantFrom('"7"', '7', '0', '123456789012345', '1447335405363150849'),
            fc.constantFrom('""', '-1.5', 'null', '-7', '1e3', '1E3', '1.0', '01', '1234567890123456', '0.5'),
          );
        default:
          return fc.oneof({ weight: 20, arbitrary: fc.constant('"BTCUSDT"') }, { weight: 1, arbitrary: primitiveValue });
      }
    }),
  );

/** A frame, sometimes damaged. */
const anyFrame: fc.Arbitrary<string> = damaged(marketFrame);

// ---------------------------------------------------------------------------------------------------------

describe('structReader: the market frame reader against the exact parse and the checks', () => {
  test('reads what the general path reads, value for value, and nothing it refuses (generated frames)', () => {
    const outcomes: Record<Outcome, number> = { read: 0, 'not read': 0 };
    fc.assert(
      fc.property(anyFrame, (text) => {
        outcomes[agrees(text)]++;
      }),
      { numRuns: 4000 },
    );
    // both branches are taken, so the property cannot pass by never reading
    expect(outcomes.read).toBeGreaterThan(200);
    expect(outcomes['not read']).toBeGreaterThan(200);
  });

  test('reads the real-shaped frames of trades and candles, 64-bit ids exact', () => {
    for (const shape of ['trade', 'kline'] as const) {
      for (let n = 0; n < 50; n++) {
        const text = realFrame(shape, n).toString();
        expect(agrees(text)).toBe('read');
      }
    }
    const read = readMarket('{"symbol":"BTCUSDT","topic":"trade","data":[{"v":1447335405363150849,"t":"1","p":"1","q":"1","m":true}]}');
    expect(read).not.toBe(FAIL);
    expect((read as ReadMessage).envelope.data).toStrictEqual([{ v: '1447335405363150849', t: 1, p: '1', q: '1', m: true }]);
  });

  test('a record keeps its undeclared fields; an absent optional field is absent, not undefined', () => {
    const read = readMarket('{"symbol":"A","topic":"kline","data":[{"t":1,"o":"1","h":"1","l":"1","c":"1","v":"1","extra":"x","n":2}]}') as ReadMessage;
    expect(read.envelope.data).toStrictEqual([{ t: 1, o: '1', h: '1', l: '1', c: '1', v: '1', extra: 'x', n: 2 }]);
    expect(Object.keys(read.envelope.data[0] as object)).not.toContain('s');
  });

  test('not read: books, batches, heartbeats, error frames, whitespace, escapes, a key __proto__', () => {
    for (const text of [
      realFrame('depth', 1).toString(),
      `[${realFrame('trade', 1).toString()}]`,
      '{"pong":1731300000000}',
      '{"ping":1731300000000,"symbol":"A","topic":"trade","data":[]}',
      '{"code":"-100010","desc":"Invalid Symbols!"}',
      '{"symbol": "A","topic":"trade","data":[]}',
      '{"symbol":"A\\u0042","topic":"trade","data":[]}',
      '{"symbol":"A","topic":"trade","data":[{"v":"1","t":1,"p":"1","q":"1","m":true,"__proto__":"x"}]}',
      '{"symbol":"A","topic":"trade","data":[]} ',
    ]) {
      expect(readMarket(text)).toBe(FAIL);
    }
  });
});

describe('structReader parts', () => {
  test('readPrimitive reads JSON numbers and literals as JSON.parse does, long integers as their text', () => {
    for (const text of ['0', '-0', '12', '-5', '1.5', '1e3', '2E-2', '1e+2', '1e400', 'true', 'false', 'null', '123456789012345']) {
      const p = { i: 0 };
      expect(readPrimitive(text, p)).toStrictEqual(JSON.parse(text));
      expect(p.i).toBe(text.length);
    }
    expect(readPrimitive('1447335405363150849', { i: 0 })).toBe('1447335405363150849');
    expect(readPrimitive('-1447335405363150849', { i: 0 })).toBe('-1447335405363150849');
    for (const text of ['01', '1.', '.5', '-', '+1', 'tru', 'nul', '1e', '"1"', '']) {
      const p = { i: 0 };
      const value = readPrimitive(text, p);
      // `01` reads as 0 and stops before the 1: the caller then finds no `,` or `}` there
      if (value !== FAIL) expect(p.i).toBeLessThan(text.length);
    }
  });

  test('plainStringEnd finds the closing quote of plain text, refuses control characters and backslashes only', () => {
    expect(plainStringEnd('"abc é 😀"', 1)).toBe(9);
    expect(plainStringEnd('""', 1)).toBe(1);
    expect(plainStringEnd('"a\\b"', 1)).toBe(-1);
    expect(plainStringEnd('"a\\"b"', 1)).toBe(-1);
    expect(plainStringEnd('"a\tb"', 1)).toBe(-1);
    expect(plainStringEnd('"a\tb"', 3)).toBe(4);
    expect(plainStringEnd('"open', 1)).toBe(-1);
  });

  test('a struct with a nested struct and an array of structs is read; other codecs have no reader', () => {
    const Inner = struct('Inner', { a: t.string }, {});
    const Outer = struct('Outer', { inner: Inner, list: t.array(Inner) }, { n: t.number });
    const reader = structReader(Outer)!;
    expect(readText('{"inner":{"a":"x"},"list":[{"a":"y"},{"a":"z","b":1}],"n":2}', reader)).toStrictEqual({ inner: { a: 'x' }, list: [{ a: 'y' }, { a: 'z', b: 1 }], n: 2 });
    expect(readText('{"inner":{"a":"x"},"list":[]}', reader)).toStrictEqual({ inner: { a: 'x' }, list: [] });
    expect(readText('{"inner":{"a":1},"list":[]}', reader)).toBe(FAIL);
    expect(readText('{"list":[]}', reader)).toBe(FAIL);
    expect(structReader(t.string)).toBeUndefined();
  });

  test('keys: shared prefixes and a key that is a prefix of another are told apart; keys JSON escapes get no reader', () => {
    const Keys = struct('Keys', { ab: t.string, abc: t.string, b: t.string }, {});
    const reader = structReader(Keys)!;
    expect(readText('{"abc":"3","ab":"2","b":"1"}', reader)).toStrictEqual({ ab: '2', abc: '3', b: '1' });
    expect(readText('{"abc":"3","ab":"2","b":"1","abcd":"4","a":"0"}', reader)).toStrictEqual({ ab: '2', abc: '3', b: '1', abcd: '4', a: '0' });
    expect(structReader(Keys, { refuse: ['abcd'] })).toBeDefined();
    expect(readText('{"abc":"3","ab":"2","b":"1","abcd":"4"}', structReader(Keys, { refuse: ['abcd'] })!)).toBe(FAIL);
    expect(structReader(struct('Quote', { 'a"b': t.string }, {}))).toBeUndefined();
    expect(structReader(struct('Slash', { 'a\\b': t.string }, {}))).toBeUndefined();
    expect(structReader(struct('Tab', { 'a\tb': t.string }, {}))).toBeUndefined();
  });
});
