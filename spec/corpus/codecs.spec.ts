import * as E from 'fp-ts/Either';
import fc from 'fast-check';
import * as t from 'io-ts';
import * as codecs from '../../lib/codecs';
import { decodeWith } from '../../lib/codecs/decode';
import { CheckedType } from '../../lib/codecs/fastCheck';
import { fieldsOf } from '../../lib/codecs/struct';
import { decodePrivateFrame } from '../../lib/codecs/privateEvents';
import { DecodeError } from '../../lib/errors';

const RUNS = { numRuns: 200 };

/** Every io-ts codec exported by lib/codecs. */
const ALL: Array<[string, t.Decoder<unknown, unknown> & { name: string }]> = Object.entries(codecs).flatMap(
  ([name, value]: [string, unknown]): Array<[string, t.Type<unknown, unknown, unknown>]> => (value instanceof t.Type ? [[name, value]] : []),
);

const T = 1_700_000_000_000;
const VALID: Record<string, unknown> = {
  trade: { v: '2300000000000000001', t: T, p: '30000.1', q: '0.5', m: true },
  kline: { t: T, s: 'BTCUSDT', sn: 'BTCUSDT', c: '1', h: '2', l: '0.5', o: '1', v: '10' },
  realtimes: { t: T, s: 'BTCUSDT', sn: 'BTCUSDT', c: '1', h: '2', l: '0.5', o: '1', v: '10', qv: '10', m: '0.01', e: 301 },
  depth: { e: 301, s: 'BTCUSDT', t: T, v: '1_301', o: 0, a: [['1.1', '2']], b: [['1', '3']] },
  executionReport: {
    e: 'executionReport', E: T, s: 'BTCUSDT', c: '1700000000000123', S: 'BUY', o: 'LIMIT', f: 'GTC', q: '1', p: '1', reqAmt: '0',
    X: 'NEW', d: '', i: '1900000000000000001', l: '0', r: '1', z: '0', L: '0', V: '0', n: '0', N: null, u: true, w: true, m: false,
    O: T, U: T, Z: '0', x: '', M: '0', F: '0', A: '0', C: false, v: '0', rt: '', T: '0',
  },
  ticketInfo: { e: 'ticketInfo', E: `${T}`, s: 'BTCUSDT', q: '1', t: `${T}`, p: '1', T: '1950000000000000001', o: '1', c: '1', O: '1', a: '1', A: 0, m: true, S: 'BUY' },
  outboundAccountInfo: { e: 'outboundAccountInfo', E: T, T: true, W: true, D: true, B: [{ a: 'BTC', f: '1', l: '0' }] },
};
/** The record codec of each sample. */
const RECORD_CODECS: Record<string, t.Mixed> = {
  trade: codecs.TradeRecordCodec,
  kline: codecs.KlineRecordCodec,
  realtimes: codecs.RealtimesRecordCodec,
  depth: codecs.DepthRecordCodec,
  executionReport: codecs.ExecutionReportCodec,
  ticketInfo: codecs.TicketInfoCodec,
  outboundAccountInfo: codecs.OutboundAccountInfoCodec,
};
const envelope = (topic: string, record: unknown): unknown => ({
  symbol: 'BTCUSDT', symbolName: 'BTCUSDT', topic, params: { realtimeInterval: '24h', binary: 'false' }, data: [record], f: true, sendTime: T, shared: false, id: '1',
});

/** Junk of every kind, including the edge numbers and long strings of the corpus. */
const junk = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.constantFrom(Infinity, -Infinity, NaN, -0, Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 64, -1, 1e21, '1e400', '', ' ', '-', '0x10', 'NaN'),
  fc.string({ minLength: 1000, maxLength: 5000 }),
  fc.bigInt().map(String),
);

/** The codec's combinator alone (no fast check in front): same name, errors and paths. */
function combinatorOf(codec: t.Mixed): t.Decoder<unknown, unknown> & { name: string } {
  if (!(codec instanceof CheckedType)) throw new Error(`${codec.name} carries no fast check`);
  return new t.Type(codec.name, codec.is, (codec as CheckedType<unknown>).fallback, codec.encode);
}

/** Decodes without throwing; a failure becomes a DecodeError through decodeWith. */
function safe(codec: t.Decoder<unknown, unknown> & { name: string }, input: unknown): E.Either<DecodeError, unknown> {
  let r: E.Either<DecodeError, unknown> | undefined;
  expect(() => (r = decodeWith(codec, input))).not.toThrow();
  if (E.isLeft(r!)) expect(r!.left).toBeInstanceOf(DecodeError);
  return r!;
}

describe('codecs (bad-input corpus)', () => {
  it(`has found the exported codecs (${ALL.length})`, () => {
    expect(ALL.length).toBeGreaterThan(30);
    expect(ALL.map(([n]) => n)).toEqual(expect.arrayContaining(['TradeRecordCodec', 'PrivateEventCodec', 'DepthEnvelopeCodec']));
  });

  it.each(Object.keys(VALID))('%s: the valid sample carries every field its codec declares (so each is mutated below)', (kind) => {
    const codec = RECORD_CODECS[kind]!;
    const declared = fieldsOf(codec);
    expect(declared).toBeDefined();
    const keys = [...Object.keys(declared!.required), ...Object.keys(declared!.optional)];
    expect(Object.keys(VALID[kind] as object)).toEqual(expect.arrayContaining(keys));
  });

  it.each(ALL)('%s: random input is a typed error or a value, never a throw', (_name, codec) => {
    fc.assert(fc.property(junk, (input) => void safe(codec, input)), RUNS);
  });

  it.each(Object.keys(VALID))('%s: a valid value with one field replaced by junk never throws; the combinator and the codec (fast check first) agree', (kind) => {
    const valid = VALID[kind] as Record<string, unknown>;
    const isPrivate = 'e' in valid && typeof valid.e === 'string';
    const pairs: Array<[t.Decoder<unknown, unknown> & { name: string }, t.Decoder<unknown, unknown> & { name: string }, (r: unknown) => unknown]> = isPrivate
      ? [[combinatorOf(codecs.PrivateEventCodec), codecs.PrivateEventCodec, (r) => r]]
      : kind === 'trade'
        ? [[combinatorOf(codecs.TradeEnvelopeCodec), codecs.TradeEnvelopeCodec, (r) => envelope('trade', r)]]
        : kind === 'kline'
          ? [[combinatorOf(codecs.KlineEnvelopeCodec), codecs.KlineEnvelopeCodec, (r) => envelope('kline', r)]]
          : kind === 'depth'
            ? [[combinatorOf(codecs.DepthEnvelopeCodec), codecs.DepthEnvelopeCodec, (r) => envelope('depth', r)]]
            : [[combinatorOf(codecs.RealtimesRecordCodec), codecs.RealtimesRecordCodec, (r) => r]];
    for (const [slow, , wrap] of pairs) expect(E.isRight(safe(slow, wrap(valid)))).toBe(true);
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(valid)), junk, (field, value) => {
        const mutated = { ...valid, [field]: value };
        for (const [slow, quick, wrap] of pairs) {
          const a = safe(slow, wrap(mutated));
          const b = safe(quick, wrap(mutated));
          expect(E.isRight(b)).toBe(E.isRight(a));
          if (E.isRight(a)) expect(b).toEqual(a);
        }
      }),
      RUNS,
    );
  });
});

describe('decodePrivateFrame (bad-input corpus)', () => {
  const good = [VALID.executionReport, VALID.ticketInfo, VALID.outboundAccountInfo];
  const bad = fc.oneof(
    junk,
    fc.constantFrom('executionReport', 'ticketInfo', 'outboundAccountInfo', 'marginCall', '').map((e) => ({ e, E: T })),
    fc.record({ e: fc.constantFrom('executionReport', 'ticketInfo', 'outboundAccountInfo'), E: junk }, { requiredKeys: [] }),
  );

  it.each([['decodePrivateFrame', decodePrivateFrame]])('%s: an array mixing good and bad events gives one result per element, the good ones intact', (_name, decode) => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...good).map((g) => ({ good: true, value: g })), bad.map((b) => ({ good: false, value: b }))), { maxLength: 12 }), (items) => {
        let results: ReturnType<typeof decodePrivateFrame> = [];
        expect(() => (results = decode(items.map((i) => i.value)))).not.toThrow();
        expect(results).toHaveLength(items.length);
        results.forEach((r, k) => {
          if (items[k]!.good) expect(E.isRight(r)).toBe(true);
          if (E.isLeft(r)) expect(r.left).toBeInstanceOf(DecodeError);
        });
      }),
      RUNS,
    );
  });

  it('any non-array value: one result, a typed error unless it is an object with a text `e` of a type not modelled (an other event)', () => {
    fc.assert(
      fc.property(junk, (value) => {
        fc.pre(!Array.isArray(value));
        const results = decodePrivateFrame(value);
        expect(results).toHaveLength(1);
        const r = results[0]!;
        if (E.isLeft(r)) return expect(r.left).toBeInstanceOf(DecodeError);
        expect(r.right.e).toBe('other');
        expect(typeof (value as { e?: unknown }).e).toBe('string');
      }),
      RUNS,
    );
  });

  it('events of types the library does not model arrive as other events; an event without a text `e` is a typed error naming it', () => {
    const [other, bad] = decodePrivateFrame([{ e: 'marginCall', E: T }, { e: 12, E: T }]);
    expect(E.isRight(other!) && other.right).toMatchObject({ e: 'other', type: 'marginCall', E: T, raw: { e: 'marginCall', E: T } });
    expect(E.isLeft(bad!) && bad.left.paths.join()).toMatch(/PrivateEvent/);
  });
});
