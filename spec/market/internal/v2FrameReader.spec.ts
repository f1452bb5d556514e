import fc from 'fast-check';
import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { BboRecordCodec } from '../../../lib/codecs/bbo';
import { FAIL } from '../../../lib/codecs/fastCheck';
import { KlineRecordCodec } from '../../../lib/codecs/kline';
import { RealtimesRecordCodec } from '../../../lib/codecs/realtimes';
import { TradeRecordCodec } from '../../../lib/codecs/trade';
import { DecodeError } from '../../../lib/errors';
import { parseJsonValue } from '../../../lib/frame/json';
import { RawEnvelopeCodec, ReadMessage } from '../../../lib/market/internal/marketFrameReader';
import { type RoutedTopic, TopicRouter } from '../../../lib/market/internal/topicRouter';
import { v2FrameReader } from '../../../lib/market/internal/v2FrameReader';
import { v2Message } from '../../../lib/market/internal/v2Frames';
import { marketStreams } from '../../../lib/market/marketStreams';
import { realFrame } from '../../bench/realFrames';
import { standInSockets } from '../../bench/standInSocket';
import { propertyRuns } from '../../helpers/propertyRuns';

const read = v2FrameReader()!;

const CODECS: Readonly<Record<string, t.Decoder<unknown, unknown>>> = {
  bbo: BboRecordCodec,
  trade: TradeRecordCodec,
  kline: KlineRecordCodec,
  realtimes: RealtimesRecordCodec,
};

/** What the router and the topics read of an envelope. */
const facts = (e: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const k of ['symbol', 'topic', 'symbolName', 'f', 'sendTime', 'shared', 'id']) if (e[k] !== undefined) out[k] = e[k];
  out['klineType'] = (e['params'] as { klineType?: string } | undefined)?.klineType;
  return out;
};

/**
 * The general path of a V2 text: parse (long integers exact), `v2Message`, the envelope's codec, each record's codec;
 * `undefined` when anything fails or the frame is not a data message the router would route as one.
 */
function general(text: string): { readonly envelope: Record<string, unknown>; readonly records: unknown[]; readonly heartbeat: boolean } | undefined {
  const parsed = parseJsonValue(text);
  if (parsed instanceof DecodeError) return undefined;
  const heartbeat = typeof parsed === 'object' && parsed !== null && ('ping' in parsed || 'pong' in parsed);
  const message = v2Message(parsed);
  if (typeof message !== 'object' || message === null || Array.isArray(message) || !('data' in message && 'topic' in message)) return undefined;
  const envelope = RawEnvelopeCodec.decode(message);
  if (E.isLeft(envelope)) return undefined;
  const codec = CODECS[envelope.right.topic];
  if (codec === undefined) return undefined;
  const records: unknown[] = [];
  for (const r of envelope.right.data) {
    const d = codec.decode(r);
    if (E.isLeft(d)) return undefined;
    records.push(d.right);
  }
  return { envelope: envelope.right as unknown as Record<string, unknown>, records, heartbeat };
}

/** Values a field may take on the wire: good ones of every kind, and junk. */
const anyValue = fc.oneof(
  fc.constantFrom('76321.15', '0.00100', '1', '0', '1731300000000', '1447335405363150852', 'true', 'false', 'BTCUSDT', '1m', ''),
  fc.constantFrom('-1', '1e5', '0x10', ' 1', '1.', '.5', '1,5', 'NaN', '\u0000', '"', '\\', 'é', '💥'),
  fc.constantFrom(0, 1, -1, 1.5, 1e21, 1_731_300_000_000, true, false, null),
  fc.string({ maxLength: 8 }),
  fc.constant({ nested: 1 }),
  fc.constant([1, 2]),
);

const decimal = fc.tuple(fc.nat(99_999), fc.nat(99_999)).map(([i, f]) => `${i}.${String(f).padStart(5, '0')}`);
const time = fc.oneof(fc.constant('1731300000000'), fc.nat().map(String), fc.constant(1_731_300_000_000));

/** Mostly nothing (`{}`), sometimes `arbitrary`. */
const rarely = <A>(arbitrary: fc.Arbitrary<Record<string, A>>): fc.Arbitrary<Record<string, A>> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary });

/** A record of `topic` close to what the service sends, some fields replaced by anything, some extra. */
const recordOf = (topic: string): fc.Arbitrary<Record<string, unknown>> => {
  const good: Record<string, fc.Arbitrary<unknown>> =
    topic === 'bbo'
      ? { s: fc.constantFrom('BTCUSDT', 'ETHUSDT'), t: time, b: decimal, bz: decimal, a: decimal, az: decimal }
      : topic === 'trade'
        ? { v: fc.constantFrom('1447335405363150852', '17', 17), t: time, p: decimal, q: decimal, m: fc.constantFrom(true, false, 'true') }
        : { t: time, s: fc.constant('BTCUSDT'), sn: fc.constant('BTCUSDT'), o: decimal, h: decimal, l: decimal, c: decimal, v: decimal };
  return fc
    .tuple(
      fc.record(good),
      rarely(fc.dictionary(fc.constantFrom(...Object.keys(good)), anyValue, { minKeys: 1, maxKeys: 2 })),
      rarely(fc.dictionary(fc.constantFrom('x', 'qv', 'e', '__proto__', 'code'), anyValue, { minKeys: 1, maxKeys: 2 })),
      fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, fc.subarray(Object.keys(good), { maxLength: 1 })),
    )
    .map(([record, replaced, extra, dropped]) => {
      const out: Record<string, unknown> = { ...record, ...replaced, ...extra };
      for (const k of dropped) delete out[k];
      return out;
    });
};

/** A V2 data message of some topic, keys in any order, and what may be added around it. */
const frameText = fc
  .constantFrom('bbo', 'bbo', 'trade', 'trade', 'kline', 'realtimes', 'depth', 'index')
  .chain((topic) =>
    fc.record({
      topic: fc.oneof({ weight: 9, arbitrary: fc.constant(topic) }, { weight: 1, arbitrary: anyValue }),
      params: fc.oneof(
        { weight: 9, arbitrary: fc.record({ symbol: fc.constantFrom('BTCUSDT', 'ETHUSDT'), klineType: fc.constant('1m'), site: fc.constant('MENA') }, { requiredKeys: [] }) },
        { weight: 1, arbitrary: anyValue },
      ),
      data: topic === 'trade' ? fc.array(recordOf(topic), { maxLength: 3 }) : fc.oneof({ weight: 9, arbitrary: recordOf(topic) }, { weight: 1, arbitrary: fc.array(recordOf(topic), { maxLength: 2 }) }),
      extra: fc.oneof(
        { weight: 2, arbitrary: fc.constant({}) },
        fc.record({ f: fc.boolean(), sendTime: time, id: fc.constantFrom(7, '8'), symbolName: fc.constant('BTCUSDT'), shared: fc.constant('false') }, { requiredKeys: [] }),
        fc.dictionary(fc.constantFrom('f', 'sendTime', 'id', 'symbol', 'symbolName', 'shared', 'code', 'ping', 'event', 'other'), anyValue, { maxKeys: 2 }),
      ),
      order: fc.nat(5),
    }),
  )
  .map(({ topic, params, data, extra, order }) => {
    const parts: [string, unknown][] = [['topic', topic], ['params', params], ['data', data]];
    for (let i = 0; i < order; i++) parts.push(parts.shift()!);
    return JSON.stringify(Object.fromEntries([...parts, ...Object.entries(extra)]));
  });

const CHARS = ['"', '\\', '{', '}', '[', ']', ',', ':', ' ', '0', '9', '-', '.', 'e', 'a', '\u0001'];
/** The text with a few characters changed, deleted or inserted; a time written as a bare long integer. */
const mutated = fc
  .tuple(frameText, fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.constantFrom(...CHARS)), { maxLength: 2 }), fc.boolean())
  .map(([text, edits, bare]) => {
    let s = bare ? text.replace(/"t":"(\d+)"/, '"t":$112345678901234567') : text;
    for (const [at, kind, c] of edits) {
      const i = at % (s.length + 1);
      s = kind === 0 ? s.slice(0, i) + c + s.slice(i + 1) : kind === 1 ? s.slice(0, i) + s.slice(i + 1) : s.slice(0, i) + c + s.slice(i);
    }
    return s;
  });

/** Whatever the reader reads, it reads as the general path does. */
function sameAsGeneral(text: string): void {
  const r = read(text);
  if (r === FAIL) return;
  const g = general(text);
  expect(g).toBeDefined();
  expect(g!.heartbeat).toBe(false);
  expect(r).toBeInstanceOf(ReadMessage);
  const m = r as ReadMessage;
  expect(m.codec).toBe(CODECS[m.envelope.topic]);
  expect(facts(m.envelope as unknown as Record<string, unknown>)).toStrictEqual(facts(g!.envelope));
  expect(m.envelope.data).toStrictEqual(g!.records);
  expect(E.isRight(RawEnvelopeCodec.decode(m.envelope))).toBe(true);
}

describe('v2FrameReader', () => {
  it('reads the V2 data frames the simulator and the documentation show into V1 envelopes of checked records', () => {
    const bbo = read(realFrame('bbo', 3).toString()) as ReadMessage;
    expect(bbo).toBeInstanceOf(ReadMessage);
    expect(bbo.codec).toBe(BboRecordCodec);
    expect(bbo.envelope).toStrictEqual({
      symbol: 'BTCUSDT',
      topic: 'bbo',
      params: {},
      data: [{ s: 'BTCUSDT', t: 1_731_300_000_003, b: '76320.77', bz: '0.76028', a: '76321.18', az: '0.67903' }],
    });
    const kline = read('{"topic":"kline","params":{"symbol":"ETHUSDT","klineType":"1m"},"data":{"t":1700000000000,"s":"ETHUSDT","o":"1","h":"2","l":"0.5","c":"1.5","v":"10"}}') as ReadMessage;
    expect(kline.codec).toBe(KlineRecordCodec);
    expect(kline.envelope.params).toEqual({ klineType: '1m' });
    const trades = read('{"topic":"trade","params":{"symbol":"BTCUSDT"},"data":[{"v":"1447335405363150852","t":"1","p":"1","q":"2","m":true},{"v":3,"t":2,"p":"1","q":"2","m":"false"}],"f":true}') as ReadMessage;
    expect(trades.envelope).toMatchObject({ symbol: 'BTCUSDT', topic: 'trade', f: true });
    expect(trades.envelope.data).toStrictEqual([
      { v: '1447335405363150852', t: 1, p: '1', q: '2', m: true },
      { v: '3', t: 2, p: '1', q: '2', m: false },
    ]);
    expect(read('{"topic":"realtimes","params":{"symbol":"BTCUSDT"},"data":{"t":1,"s":"BTCUSDT","o":"1","h":"2","l":"0.5","c":"1.5","v":"10","qv":"3","m":"0.1"}}')).toBeInstanceOf(ReadMessage);
    // no params.symbol: the record's s names the pair
    expect((read('{"topic":"bbo","params":{},"data":{"s":"ETHUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1"}}') as ReadMessage).envelope.symbol).toBe('ETHUSDT');
  });

  it('leaves books, answers, heartbeats, unknown topics and anything its checks refuse to the general path', () => {
    expect(read(realFrame('depthV2', 1).toString())).toBe(FAIL);
    for (const text of [
      '{"topic":"bbo","event":"sub","params":{"symbol":"BTCUSDT"},"code":"0","msg":"Success"}',
      '{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1"},"code":"0"}',
      '{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1"},"ping":1}',
      '{"topic":"index","params":{"symbol":"BTCUSDT"},"data":{"t":1}}',
      '{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT","t":1,"b":"x","bz":"1","a":"2","az":"1"}}',
      '{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2"}}',
      '{"topic":"bbo","params":"BTCUSDT","data":{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1"}}',
      '{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1"},"topic":"trade"}',
      '{"topic":"trade","params":{},"data":[]}',
      ' {"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1"}}',
      '{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1"}',
      '{"topic":"bbo',
      '',
    ]) {
      expect([text, read(text)]).toEqual([text, FAIL]);
    }
  });

  it('reads what it reads as the general path does (parse, v2Message, envelope and record codecs), on generated and mutated frames', () => {
    fc.assert(fc.property(frameText, sameAsGeneral), { numRuns: propertyRuns(2_000) });
    fc.assert(fc.property(mutated, sameAsGeneral), { numRuns: propertyRuns(4_000) });
  });

  it('a read message for a subscription of another codec is read the general way (parsed, then into V1 shapes)', () => {
    const issues: DecodeError[] = [];
    const got: unknown[][] = [];
    const router = new TopicRouter((issue) => issues.push(issue));
    const raw: RoutedTopic = { symbol: 'BTCUSDT', topic: 'bbo', codec: { name: 'unknown', decode: E.right } as never, check: undefined, deliver: (_e, records) => got.push([...records]) };
    router.add(raw);
    router.dispatch(read(realFrame('bbo', 1).toString()));
    expect(issues).toEqual([]);
    expect(got).toEqual([[{ s: 'BTCUSDT', t: '1731300000001', b: '76320.79', bz: '0.92277', a: '76321.16', az: '0.84152' }]]);
  });
});

/** The bbo records and errors a V2 `marketStreams` gives for `frames`, each handed to its socket as `ws` would. */
async function throughMarket(frames: readonly string[]): Promise<{ readonly records: unknown[]; readonly errors: unknown[] }> {
  const sockets = standInSockets();
  const market = marketStreams({ url: 'ws://127.0.0.1:1/quote/ws/v2', WebSocketCtor: sockets.Ctor });
  const errors: unknown[] = [];
  const records: unknown[] = [];
  const errorSubscription = market.errors$.subscribe((e) => errors.push(e instanceof DecodeError ? { name: e.name, kind: e.kind, message: e.message, paths: e.paths, raw: e.raw } : e));
  const subscription = market.bbo('BTCUSDT').subscribe((r) => records.push(r));
  await new Promise<void>((resolve) => setImmediate(resolve));
  const listener = sockets.listener();
  for (const f of frames) listener(Buffer.from(f), false);
  subscription.unsubscribe();
  errorSubscription.unsubscribe();
  return { records, errors };
}

const BBO = (record: string): string => `{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":${record}}`;

describe('V2 frames through marketStreams', () => {
  // A leading space makes every frame take the general path (the readers read compact frames only): the typed
  // records and DecodeErrors of the fast path must be exactly those.
  const hostile = [
    realFrame('bbo', 1).toString(),
    BBO('{"s":"BTCUSDT","t":1,"b":"x","bz":"1","a":"2","az":"1"}'),
    BBO('{"s":"BTCUSDT","t":"99999999999999999999","b":"1","bz":"1","a":"2","az":"1"}'),
    BBO('{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2"}'),
    BBO('[{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1"},{"s":"BTCUSDT","t":2,"b":"1","bz":"-1","a":"2","az":"1"}]'),
    BBO('{"s":"BTCUSDT","t":12345678901234567890,"b":"1","bz":"1","a":"2","az":"1"}'),
    BBO('{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1","__proto__":{"b":"x"}}'),
    BBO('{"s":"BTCUSDT","t":1,"b":1.5,"bz":"1","a":"2","az":"1","b":"1e3"}'),
    BBO('"garbage"'),
    BBO('null'),
    '{"topic":"bbo","params":{"symbol":"BTCUSDT"}}',
    '{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1"}',
    '{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT\\u0000","t":1,"b":"1","bz":"1","a":"2","az":"1"}}',
    '{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"BTCUSDT","t":1,"b":"1","bz":"1","a":"2","az":"1"},"extra":{"deep":[[[[1]]]]}}',
    '[' + '['.repeat(5000) + ']'.repeat(5000) + ']',
    `{"topic":"bbo","params":{"symbol":"BTCUSDT"},"data":{"s":"${'A'.repeat(100_000)}","t":1,"b":"1","bz":"1","a":"2","az":"1"}}`,
    realFrame('bbo', 2).toString(),
  ];

  it('gives the same records and the same typed DecodeErrors as the general path, for good and hostile frames', async () => {
    const fast = await throughMarket(hostile);
    const slow = await throughMarket(hostile.map((f) => ` ${f}`));
    expect(fast.records.length).toBeGreaterThanOrEqual(3);
    expect(fast.records).toStrictEqual(slow.records);
    expect(fast.errors.length).toBeGreaterThanOrEqual(8);
    // a frame that is not JSON is told by its text (here one leading space longer): its length, its position, its excerpt
    const unspaced = (errors: unknown[]): unknown[] =>
      errors.map((e) =>
        JSON.parse(
          JSON.stringify(e)
            .replace(/"raw":" /g, '"raw":"')
            .replace(/\((\d+) characters, error at position (\d+)\)/, (_, n: string, at: string) => `(${Number(n) - 1} characters, error at position ${Number(at) - 1})`),
        ),
      );
    expect(fast.errors).toStrictEqual(unspaced(slow.errors));
    for (const e of fast.errors) expect(e).toMatchObject({ name: 'DecodeError' });
  });

  it('reads bbo records on the fast path with their exact values', async () => {
    const { records, errors } = await throughMarket([realFrame('bbo', 4).toString(), BBO('{"s":"BTCUSDT","t":"5","b":"1","bz":2,"a":"2","az":"1","x":1}')]);
    expect(errors).toEqual([]);
    expect(records).toStrictEqual([
      { s: 'BTCUSDT', t: 1_731_300_000_004, b: '76320.76', bz: '0.67903', a: '76321.19', az: '0.59779' },
      { s: 'BTCUSDT', t: 5, b: '1', bz: '2', a: '2', az: '1', x: 1 },
    ]);
  });
});

