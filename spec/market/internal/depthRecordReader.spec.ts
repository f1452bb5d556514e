import fc from 'fast-check';
import * as E from 'fp-ts/Either';
import { DepthRecordCodec } from '../../../lib/codecs/depth';
import { FAIL } from '../../../lib/codecs/fastCheck';
import { readText } from '../../../lib/codecs/structReader';
import { DecodeError } from '../../../lib/errors';
import { parseJsonValue } from '../../../lib/frame/json';
import { depthRecordReader } from '../../../lib/market/internal/depthRecordReader';
import { marketFrameReader, ReadMessage } from '../../../lib/market/internal/marketFrameReader';
import { marketStreams } from '../../../lib/market/marketStreams';
import { incrementalBook } from '../../../lib/operators/incrementalBook';
import type { OrderBook } from '../../../lib/operators/orderBook';
import { diffMergedDepthFrame, realFrame } from '../../bench/realFrames';
import { standInSockets } from '../../bench/standInSocket';

const compiledReader = depthRecordReader();
if (compiledReader === undefined) throw new Error('the depth record reader did not compile');
const reader = compiledReader;
const read = (text: string): unknown => readText(text, reader);

/** The general path of a record's text: the exact parse (long integers quoted), then the record's codec. */
function general(text: string): { readonly value: unknown } | undefined {
  const parsed = parseJsonValue(text);
  if (parsed instanceof DecodeError) return undefined;
  const decoded = DepthRecordCodec.decode(parsed);
  return E.isRight(decoded) ? { value: decoded.right } : undefined;
}

/** Whatever the reader reads, it reads as the general path does. */
function sameAsGeneral(text: string): boolean {
  const r = read(text);
  if (r === FAIL) return false;
  const g = general(text);
  expect(g).toBeDefined();
  expect(r).toStrictEqual(g!.value);
  return true;
}

const decimal = fc.oneof(
  fc.tuple(fc.nat(99_999), fc.nat(999)).map(([i, f]) => `${i}.${String(f).padStart(3, '0')}`),
  fc.nat(1000).map(String),
  fc.constantFrom('0', '00.5', '007'),
);
const junk = fc.oneof(
  fc.constantFrom('-1', '1e5', '.5', '1.', ' 1', '', 'x', '1,5', '\u0000', '"', '\\', 'é'),
  fc.constantFrom(0, 1, -1, 1.5, 1e21, true, null),
);
const level = fc.oneof({ weight: 12, arbitrary: fc.tuple(decimal, decimal) }, { weight: 1, arbitrary: fc.array(fc.oneof(decimal, junk), { maxLength: 3 }) });
const levels = fc.array(level, { maxLength: 6 });
const anyValue = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(0, 7, -1, 1.5, true, false, null, '1447335405363150852'), fc.constant({ x: 1 }), fc.constant([1]));

/** Mostly `good`, now and then anything. */
const often = (good: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> => fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: anyValue });

/** A depth record close to what the service sends: fields replaced by anything now and then, extras, keys in any order. */
const recordText = fc
  .record({
    t: fc.oneof({ weight: 3, arbitrary: fc.oneof(fc.constant('1731300000000'), fc.nat().map(String), fc.nat()) }, { weight: 1, arbitrary: junk }),
    s: often(fc.constant('BTCUSDT')),
    e: often(fc.constantFrom(301, '301')),
    v: often(fc.constant('6583_18')),
    // numbers near the reader's 15-digit form and past it, signed, with a fraction or in exponent form
    o: often(fc.oneof(fc.nat(), fc.nat().map(String), fc.constantFrom(0, 123456789012345, 999999999999999, 1e15, 9007199254740993, 1e21, -7, 1.5))),
    a: fc.oneof({ weight: 9, arbitrary: levels }, { weight: 1, arbitrary: anyValue }),
    b: fc.oneof({ weight: 9, arbitrary: levels }, { weight: 1, arbitrary: anyValue }),
    extra: fc.oneof({ weight: 2, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('x', 'y', '__proto__', 'a', 't'), anyValue, { maxKeys: 2 }) }),
    drop: fc.oneof({ weight: 4, arbitrary: fc.constant<string[]>([]) }, { weight: 1, arbitrary: fc.subarray(['t', 's', 'e', 'v', 'o', 'a', 'b'], { maxLength: 1 }) }),
    order: fc.nat(6),
  })
  .map(({ extra, drop, order, ...fields }) => {
    const entries = Object.entries(fields).filter(([k]) => !drop.includes(k));
    for (let i = 0; i < order; i++) entries.push(entries.shift()!);
    // `__proto__` and repeated keys are written by hand (an object literal cannot hold them)
    const text = entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    for (const [k, v] of Object.entries(extra)) text.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
    return `{${text.join(',')}}`;
  });

const CHARS = ['"', '\\', '[', ']', '{', '}', ',', ':', ' ', '0', '5', '.', '-', 'e'];
const mutated = fc
  .tuple(recordText, fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.constantFrom(...CHARS)), { minLength: 1, maxLength: 2 }), fc.boolean())
  .map(([text, edits, bare]) => {
    let s = bare ? text.replace(/"o":(\d+)/, '"o":$112345678901234567') : text;
    for (const [at, kind, c] of edits) {
      const i = at % (s.length + 1);
      s = kind === 0 ? s.slice(0, i) + c + s.slice(i + 1) : kind === 1 ? s.slice(0, i) + s.slice(i + 1) : s.slice(0, i) + c + s.slice(i);
    }
    return s;
  });

describe('depthRecordReader', () => {
  it('reads a delta of diffMergedDepth into the checked record the codec gives', () => {
    const text = '{"e":301,"s":"BTCUSDT","t":"1731300000002","v":"6585_18","o":2,"a":[["76329.29","0.31193"],["76323.37","0"]],"b":[]}';
    expect(read(text)).toStrictEqual({ e: '301', s: 'BTCUSDT', t: 1_731_300_000_002, v: '6585_18', o: '2', a: [['76329.29', '0.31193'], ['76323.37', '0']], b: [] });
    // an undeclared primitive is kept, a long integer exactly
    expect(read('{"t":1,"a":[],"b":[],"x":12345678901234567890,"o":12345678901234567890}')).toStrictEqual({ t: 1, a: [], b: [], x: '12345678901234567890', o: '12345678901234567890' });
  });

  it('leaves anything else to the general path', () => {
    for (const text of [
      '{"t":1,"a":[]}',
      '{"t":1,"a":[[1,2]],"b":[]}',
      '{"t":1,"a":[["1","2","3"]],"b":[]}',
      '{"t":1,"a":[["-1","2"]],"b":[]}',
      '{"t":1,"a":[],"b":[],"x":{"y":1}}',
      '{"t":1,"a":[],"b":[],"__proto__":1}',
      '{"t":1,"a":[],"b":[],"s":"B\\u0054C"}',
      '{"t":"x","a":[],"b":[]}',
      '{ "t":1,"a":[],"b":[]}',
      '{"t":1,"a":[],"b":[]',
    ]) {
      expect([text, read(text)]).toEqual([text, FAIL]);
    }
  });

  it('reads what it reads as the exact parse and the record codec do, on generated and mutated records', () => {
    let readCount = 0;
    fc.assert(fc.property(recordText, (text) => void (sameAsGeneral(text) && readCount++)), { numRuns: 3_000 });
    expect(readCount).toBeGreaterThan(300); // the property is not vacuous
    fc.assert(fc.property(mutated, (text) => void sameAsGeneral(text)), { numRuns: 5_000 });
  });

  it('the market frame reader reads diffMergedDepth deltas with it, and leaves full books to the levels scanner', () => {
    const delta = marketFrameReader()!(diffMergedDepthFrame(5).toString());
    expect(delta).toBeInstanceOf(ReadMessage);
    expect((delta as ReadMessage).codec).toBe(DepthRecordCodec);
    expect((delta as ReadMessage).envelope.data).toHaveLength(1);
    expect(marketFrameReader()!(diffMergedDepthFrame(0).toString())).toBeInstanceOf(ReadMessage); // the snapshot too
    expect(marketFrameReader()!(realFrame('depth', 1).toString())).toBe(FAIL);
  });
});

/** The books and errors of `marketStreams(...).diffMergedDepth(...).pipe(incrementalBook())` for `frames`. */
function throughMarket(frames: readonly string[]): Promise<{ readonly books: OrderBook[]; readonly errors: unknown[] }> {
  const sockets = standInSockets();
  const market = marketStreams({ url: 'ws://127.0.0.1:1/quote/ws/v1', WebSocketCtor: sockets.Ctor });
  const errors: unknown[] = [];
  const books: OrderBook[] = [];
  const a = market.errors$.subscribe((e) => errors.push(e instanceof DecodeError ? { name: e.name, kind: e.kind, message: e.message, paths: e.paths, raw: e.raw } : e));
  const b = market.diffMergedDepth('BTCUSDT', { dumpScale: 2 }).pipe(incrementalBook()).subscribe((book) => books.push(book));
  return new Promise((resolve) =>
    setImmediate(() => {
      const listener = sockets.listener();
      for (const f of frames) listener(Buffer.from(f), false);
      a.unsubscribe();
      b.unsubscribe();
      resolve({ books, errors });
    }),
  );
}

describe('diffMergedDepth deltas through marketStreams', () => {
  it('give the same books and the same typed DecodeErrors as the general path, for good and hostile deltas', async () => {
    const good = (n: number): string => diffMergedDepthFrame(n).toString();
    const withRecord = (n: number, record: string): string => good(n).replace(/"data":\[.*\],"f"/, `"data":[${record}],"f"`);
    const frames = [
      good(0),
      good(1),
      withRecord(2, '{"s":"BTCUSDT","t":"1","o":2,"a":[["x","1"]],"b":[]}'),
      withRecord(3, '{"s":"BTCUSDT","t":"1","o":3,"a":[[1.5,"1"]],"b":[["76000.1","2","extra"]]}'),
      withRecord(4, '{"s":"BTCUSDT","t":"1","o":4,"a":[],"b":[],"x":{"deep":[[[1]]]}}'),
      withRecord(5, '{"s":"BTCUSDT","o":5,"a":[],"b":[]}'),
      withRecord(6, '{"s":"BTCUSDT","t":"1","o":12345678901234567890,"a":[],"b":[]}'),
      withRecord(7, '"garbage"'),
      '{"symbol":"BTCUSDT","topic":"diffMergedDepth","data":[{"o":8,"a":[["1"',
      good(9),
      good(0), // a fresh snapshot heals the book
      good(1),
    ];
    const fast = await throughMarket(frames);
    const slow = await throughMarket(frames.map((f) => ` ${f}`));
    expect(fast.books.length).toBeGreaterThanOrEqual(4);
    expect(fast.books).toStrictEqual(slow.books);
    const unspaced = (errors: unknown[]): unknown[] =>
      errors.map((e) =>
        JSON.parse(
          JSON.stringify(e)
            .replace(/"raw":" /g, '"raw":"')
            .replace(/\((\d+) characters, error at position (\d+)\)/, (_, n: string, at: string) => `(${Number(n) - 1} characters, error at position ${Number(at) - 1})`),
        ),
      );
    expect(fast.errors.length).toBeGreaterThanOrEqual(4);
    expect(fast.errors).toStrictEqual(unspaced(slow.errors));
  });
});
