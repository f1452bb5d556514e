import * as E from 'fp-ts/Either';
import fc from 'fast-check';
import * as t from 'io-ts';
import { PathReporter } from 'io-ts/PathReporter';
import { DepthEnvelopeCodec, DepthRecordCodec } from '../../lib/codecs/depth';
import { PublicEnvelopeCodec } from '../../lib/codecs/envelope';
import { ExecutionReportCodec } from '../../lib/codecs/executionReport';
import { KlineEnvelopeCodec, KlineRecordCodec } from '../../lib/codecs/kline';
import { OutboundAccountInfoCodec } from '../../lib/codecs/outboundAccountInfo';
import {
  BooleanFromStringOrBoolean,
  DecimalOrEmptyString,
  DecimalString,
  IdFromNumberOrString,
  IntFromNumberOrString,
  TextFromNumberOrString,
} from '../../lib/codecs/primitives';
import { decodePrivateFrame, PrivateEventCodec } from '../../lib/codecs/privateEvents';
import { RealtimesRecordCodec } from '../../lib/codecs/realtimes';
import { TicketInfoCodec } from '../../lib/codecs/ticketInfo';
import { TradeEnvelopeCodec, TradeRecordCodec } from '../../lib/codecs/trade';
import {
  decodePrivateFrameFast,
  FastDepthEnvelopeCodec,
  FastDepthRecordCodec,
  FastExecutionReportCodec,
  FastKlineEnvelopeCodec,
  FastKlineRecordCodec,
  FastOutboundAccountInfoCodec,
  FastPrivateEventCodec,
  FastRawEnvelopeCodec,
  FastRealtimesRecordCodec,
  FastTicketInfoCodec,
  FastTradeEnvelopeCodec,
  FastTradeRecordCodec,
} from '../../lib/codecs/fast';
import { fastCheckOf } from '../../lib/codecs/fast/fastCodec';
import { fastBoolean, fastDecimal, fastDecimalOrEmpty, fastId, fastInt, fastText, FAIL, isIntText } from '../../lib/codecs/fast/scalars';
import { isDecimalText } from '../../lib/internal/decimal';

const RUNS = { numRuns: 400 };

/** Both codecs give the same result: equal values (and the input itself in both or neither), or the same PathReporter lines. */
function expectSame(fast: t.Decoder<unknown, unknown>, slow: t.Decoder<unknown, unknown>, u: unknown): void {
  const a = fast.decode(u);
  const b = slow.decode(u);
  if (E.isRight(b)) {
    expect(a).toStrictEqual(b);
    expect(E.isRight(a) && a.right === u).toBe(b.right === u);
  } else {
    expect(E.isLeft(a)).toBe(true);
    expect(PathReporter.report(a)).toEqual(PathReporter.report(b));
  }
}

// ---- arbitraries -----------------------------------------------------------------------------------------

const numericChars = fc.string({ unit: fc.constantFrom(...'0123456789.-+eE x'.split('')), maxLength: 12 });
const decimalText = fc.stringMatching(/^-?\d{1,8}(\.\d{1,8})?([eE][+-]?\d{1,3})?$/);
const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  numericChars,
  fc.constantFrom(undefined, null, NaN, Infinity, -Infinity, -0, 1.5, 2 ** 53, -(2 ** 53), 1e21, -1.5e-7, 5e-324, Number.MAX_VALUE, '', 'true', 'false', 'True', '1e3', '12a', ' 1', '01', '-', '1.', '.5'),
  fc.double(),
  fc.bigInt().map(String),
);
const decimal = fc.oneof({ weight: 8, arbitrary: decimalText }, { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) });
const time = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 2 ** 42 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 2 ** 42 }).map(String) },
  { weight: 1, arbitrary: fc.maxSafeInteger() },
);
const id = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^\d{1,19}$/) },
  { weight: 2, arbitrary: fc.integer({ min: 0 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) },
);
const flag = fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constantFrom('true', 'false') });
const text = fc.string({ maxLength: 8 });
const extra = fc.dictionary(fc.constantFrom('zz', 'extra', 'A', 'P'), anything, { maxKeys: 2 });

/** A record with `required` fields and some of the `optional` ones, plus extra fields. */
function recordOf(
  required: Record<string, fc.Arbitrary<unknown>>,
  optional: Record<string, fc.Arbitrary<unknown>> = {},
): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.record(required), fc.record(optional, { requiredKeys: [] }), extra)
    .map(([r, o, x]) => ({ ...x, ...r, ...o }));
}

/** `valid`, sometimes with one field replaced by anything (or deleted), sometimes not an object at all. */
function mutated(valid: fc.Arbitrary<Record<string, unknown>>, keys: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    {
      weight: 6,
      arbitrary: fc.tuple(valid, fc.constantFrom(...keys, 'zz'), anything, fc.boolean()).map(([v, k, x, remove]) => {
        const copy: Record<string, unknown> = { ...v };
        if (remove) delete copy[k];
        else copy[k] = x;
        return copy;
      }),
    },
    { weight: 1, arbitrary: anything },
  );
}

const tradeFields = { v: id, t: time, p: decimal, q: decimal, m: flag };
const trade = recordOf(tradeFields);
const klineFields = { t: time, o: decimal, h: decimal, l: decimal, c: decimal, v: decimal };
const klineOptional = { s: text, sn: text };
const kline = recordOf(klineFields, klineOptional);
const realtimesOptional = { s: text, sn: text, qv: decimal, m: decimal, e: id };
const realtimes = recordOf(klineFields, realtimesOptional);
const level = fc.oneof(
  { weight: 20, arbitrary: fc.tuple(decimalText, decimalText) },
  { weight: 1, arbitrary: fc.tuple(decimal, decimal) },
  { weight: 1, arbitrary: fc.tuple(decimal, decimal, anything) },
  { weight: 1, arbitrary: fc.array(anything, { maxLength: 3 }) },
  { weight: 1, arbitrary: anything },
);
const levels = fc.oneof({ weight: 6, arbitrary: fc.array(fc.tuple(decimalText, decimalText), { maxLength: 30 }) }, { weight: 2, arbitrary: fc.array(level, { maxLength: 8 }) });
const depthFields = { t: time, a: levels, b: levels };
const depthOptional = { s: text, e: id, v: id, o: id };
const depth = recordOf(depthFields, depthOptional);

const side = fc.oneof({ weight: 5, arbitrary: fc.constantFrom('BUY', 'SELL') }, { weight: 1, arbitrary: fc.constantFrom('buy', 'toString', '', 'BUYX') });
const status = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('NEW', 'PARTIALLY_FILLED', 'FILLED', 'PARTIALLY_CANCELED', 'CANCELED', 'REJECTED') },
  { weight: 1, arbitrary: fc.constantFrom('hasOwnProperty', 'new', '__proto__') },
);
const executionFields = {
  e: fc.constant('executionReport'),
  E: time, s: text, i: id, c: id, S: side, o: text, X: status, q: decimal, p: decimal, z: decimal, Z: decimal,
};
const executionOptional = {
  f: text, reqAmt: decimal, d: id, l: decimal, r: decimal, L: decimal, V: decimal, n: decimal,
  N: fc.option(text, { nil: null }), u: flag, w: flag, m: flag, O: time, U: time, x: text,
};
const execution = recordOf(executionFields, executionOptional);
const ticketFields = { e: fc.constant('ticketInfo'), E: time, s: text, q: decimal, t: time, p: decimal, T: id, o: id, S: side };
const ticketOptional = { c: id, O: id, a: id, m: flag };
const ticket = recordOf(ticketFields, ticketOptional);
const balance = mutated(recordOf({ a: text, f: decimal, l: decimal }), ['a', 'f', 'l']);
const accountFields = { e: fc.constant('outboundAccountInfo'), E: time, B: fc.array(balance, { maxLength: 4 }) };
const accountOptional = { T: flag, W: flag, D: flag };
const account = recordOf(accountFields, accountOptional);

const keys = (...records: Array<Record<string, unknown>>): string[] => records.flatMap((r) => Object.keys(r));

function envelopeOf(record: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const params = mutated(recordOf({}, { realtimeInterval: text, binary: flag, klineType: text }), ['realtimeInterval', 'binary', 'klineType']);
  const fields = { symbol: text, topic: text, data: fc.array(record, { maxLength: 4 }) };
  const optional = { symbolName: text, params, f: flag, sendTime: time, shared: flag, id };
  return mutated(recordOf(fields, optional), keys(fields, optional));
}

// ---- properties ------------------------------------------------------------------------------------------

describe('fast scalar checks', () => {
  const candidates = fc.oneof(numericChars, decimalText, fc.string());

  it('isDecimalText agrees with the DecimalString pattern', () => {
    const pattern = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
    fc.assert(fc.property(candidates, (s) => expect(isDecimalText(s)).toBe(pattern.test(s))), { numRuns: 2000 });
  });

  it('isIntText agrees with the IntFromNumberOrString pattern', () => {
    const pattern = /^-?\d{1,16}$/;
    const ints = fc.oneof(candidates, fc.bigInt().map(String));
    fc.assert(fc.property(ints, (s) => expect(isIntText(s)).toBe(pattern.test(s))), { numRuns: 2000 });
  });

  it.each([
    ['fastInt', fastInt, IntFromNumberOrString],
    ['fastId', fastId, IdFromNumberOrString],
    ['fastBoolean', fastBoolean, BooleanFromStringOrBoolean],
    ['fastDecimal', fastDecimal, DecimalString],
    ['fastDecimalOrEmpty', fastDecimalOrEmpty, DecimalOrEmptyString],
    ['fastText', fastText, TextFromNumberOrString],
  ] as const)('%s accepts exactly what its codec accepts, with the same value', (_, check, codec) => {
    fc.assert(
      fc.property(fc.oneof(anything, time, id, flag, decimal, fc.constant('')), (u) => {
        const r = (codec as t.Decoder<unknown, unknown>).decode(u);
        const f = check(u);
        if (E.isRight(r)) expect(f).toStrictEqual(r.right);
        else expect(f).toBe(FAIL);
      }),
      { numRuns: 2000 },
    );
  });
});

describe.each([
  ['FastTradeRecordCodec', FastTradeRecordCodec, TradeRecordCodec, mutated(trade, keys(tradeFields))],
  ['FastKlineRecordCodec', FastKlineRecordCodec, KlineRecordCodec, mutated(kline, keys(klineFields, klineOptional))],
  ['FastRealtimesRecordCodec', FastRealtimesRecordCodec, RealtimesRecordCodec, mutated(realtimes, keys(klineFields, realtimesOptional))],
  ['FastDepthRecordCodec', FastDepthRecordCodec, DepthRecordCodec, mutated(depth, keys(depthFields, depthOptional))],
  ['FastExecutionReportCodec', FastExecutionReportCodec, ExecutionReportCodec, mutated(execution, keys(executionFields, executionOptional))],
  ['FastTicketInfoCodec', FastTicketInfoCodec, TicketInfoCodec, mutated(ticket, keys(ticketFields, ticketOptional))],
  ['FastOutboundAccountInfoCodec', FastOutboundAccountInfoCodec, OutboundAccountInfoCodec, mutated(account, keys(accountFields, accountOptional))],
  ['FastTradeEnvelopeCodec', FastTradeEnvelopeCodec, TradeEnvelopeCodec, envelopeOf(mutated(trade, keys(tradeFields)))],
  ['FastKlineEnvelopeCodec', FastKlineEnvelopeCodec, KlineEnvelopeCodec, envelopeOf(mutated(kline, keys(klineFields)))],
  ['FastDepthEnvelopeCodec', FastDepthEnvelopeCodec, DepthEnvelopeCodec, envelopeOf(mutated(depth, keys(depthFields)))],
  ['FastRawEnvelopeCodec', FastRawEnvelopeCodec, PublicEnvelopeCodec(t.unknown, 'PublicEnvelope'), envelopeOf(anything)],
  [
    'FastPrivateEventCodec',
    FastPrivateEventCodec,
    PrivateEventCodec,
    fc.oneof(
      mutated(execution, keys(executionFields, executionOptional)),
      mutated(ticket, keys(ticketFields, ticketOptional)),
      mutated(account, keys(accountFields, accountOptional)),
    ),
  ],
] as const)('%s', (_, fast, slow, input) => {
  it('has the name of its combinator codec', () => {
    expect(fast.name).toBe(slow.name);
  });

  it('decodes valid and invalid input exactly like its combinator codec', () => {
    fc.assert(fc.property(input as fc.Arbitrary<unknown>, (u) => expectSame(fast, slow, u)), RUNS);
  });

  it('reports the same paths when nested in another codec', () => {
    const fastList = t.array(fast as t.Mixed, 'List');
    const slowList = t.array(slow as t.Mixed, 'List');
    fc.assert(fc.property(fc.array(input as fc.Arbitrary<unknown>, { maxLength: 3 }), (u) => expectSame(fastList, slowList, u)), {
      numRuns: 100,
    });
  });

  it('exposes its fast check (fastCheckOf): a value it returns is what decode returns', () => {
    const check = fastCheckOf(fast as t.Decoder<unknown, unknown>);
    expect(check).toBeDefined();
    expect(fastCheckOf(slow as t.Decoder<unknown, unknown>)).toBeUndefined();
    fc.assert(
      fc.property(input as fc.Arbitrary<unknown>, (u) => {
        const a = check!(u);
        if (a !== FAIL) expect((slow as t.Decoder<unknown, unknown>).decode(u)).toStrictEqual(E.right(a));
      }),
      RUNS,
    );
  });

  it('refuses exactly what its combinator refuses (a FAIL of the check is a failure: decodeRecords and the private frame sink count on it)', () => {
    const check = fastCheckOf(fast as t.Decoder<unknown, unknown>)!;
    fc.assert(
      fc.property(fc.oneof(input as fc.Arbitrary<unknown>, anything), (u) => {
        expect(check(u) === FAIL).toBe(E.isLeft((slow as t.Decoder<unknown, unknown>).decode(u)));
      }),
      RUNS,
    );
  });

  it('agrees with the combinator on is() and encode()', () => {
    fc.assert(
      fc.property(input as fc.Arbitrary<unknown>, (u) => {
        expect(fast.is(u)).toBe(slow.is(u));
        const r = (slow as t.Decoder<unknown, unknown>).decode(u);
        if (E.isRight(r)) expect((fast as t.Mixed).encode(r.right)).toStrictEqual((slow as t.Mixed).encode(r.right));
      }),
      { numRuns: 100 },
    );
  });
});

describe('the fast path', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['trade records', FastTradeRecordCodec, TradeRecordCodec, recordOf({ v: decimalText, t: fc.nat(), p: decimalText, q: decimalText, m: fc.boolean() })],
    ['depth records', FastDepthRecordCodec, DepthRecordCodec, recordOf({ t: fc.nat(), a: fc.array(fc.tuple(decimalText, decimalText)), b: fc.array(fc.tuple(decimalText, decimalText)) }, { e: fc.nat() })],
    ['execution reports', FastPrivateEventCodec, PrivateEventCodec, recordOf({ ...executionFields, S: fc.constant('SELL'), X: fc.constant('FILLED') })],
  ] as const)('decodes valid %s without running the combinator codec', (_, fast, slow, valid) => {
    const spy = jest.spyOn(slow as t.Mixed, 'validate');
    fc.assert(fc.property(valid, (u) => expect(E.isRight((fast as t.Mixed).decode(u))).toBe(true)), { numRuns: 200 });
    expect(spy).not.toHaveBeenCalled();
  });

  it('runs the combinator codec for the errors', () => {
    const spy = jest.spyOn(TradeRecordCodec, 'validate');
    const r = FastTradeRecordCodec.decode({ v: '1', t: 1, p: '1,5', q: '1', m: true });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(PathReporter.report(r)).toEqual(['Invalid value "1,5" supplied to : TradeRecord/p: DecimalString']);
  });
});

describe('decodePrivateFrameFast', () => {
  const event = fc.oneof(mutated(execution, keys(executionFields)), mutated(ticket, keys(ticketFields)), mutated(account, keys(accountFields)));
  const frame = fc.oneof({ weight: 4, arbitrary: fc.array(event, { maxLength: 4 }) }, { weight: 1, arbitrary: event }, { weight: 1, arbitrary: anything });

  it('returns what decodePrivateFrame returns, event by event', () => {
    fc.assert(
      fc.property(frame, (u) => {
        const fast = decodePrivateFrameFast(u);
        const slow = decodePrivateFrame(u);
        expect(fast.length).toBe(slow.length);
        fast.forEach((r, i) => {
          const s = slow[i]!;
          if (E.isRight(s)) expect(r).toStrictEqual(s);
          else {
            expect(E.isLeft(r)).toBe(true);
            if (E.isLeft(r)) {
              expect(r.left.paths).toEqual(s.left.paths);
              expect(r.left.message).toBe(s.left.message);
              expect(r.left.raw).toBe(s.left.raw);
            }
          }
        });
      }),
      RUNS,
    );
  });

  it('keeps a valid event object as is (no copy) when nothing needs converting', () => {
    const report = {
      e: 'executionReport', E: 1499405658658, s: 'BTCUSDT', c: '1000087761', S: 'BUY', o: 'LIMIT', f: 'GTC', q: '1.0',
      p: '0.10264410', X: 'NEW', i: '4293153', z: '0.0', Z: '0.0', N: null, u: true, w: true, m: false, O: 1, U: 2,
    };
    const [r] = decodePrivateFrameFast([report]);
    expect(r).toStrictEqual(E.right(report));
    expect(r && E.isRight(r) && r.right).toBe(report);
  });
});

describe('the written-out checks (envelope, trade, kline)', () => {
  it('copy on conversion and never modify their input', () => {
    const envelope = { symbol: 'BTCUSDT', topic: 'trade', params: { binary: 'false' }, f: 'true', sendTime: '1', data: [{}] };
    const trade = { v: 7, t: '1625562619577', p: 1.5, q: '0.1', m: 'true', bt: 1 };
    const kline = { t: '1', o: 1, h: '2', l: '0.5', c: 1.5, v: '3', s: 'BTCUSDT' };
    const inputs = [
      [FastRawEnvelopeCodec, PublicEnvelopeCodec(t.unknown, 'PublicEnvelope'), envelope],
      [FastTradeRecordCodec, TradeRecordCodec, trade],
      [FastKlineRecordCodec, KlineRecordCodec, kline],
    ] as const;
    for (const [fast, slow, u] of inputs) {
      const before = JSON.stringify(u);
      const r = (fast as t.Decoder<unknown, unknown>).decode(u);
      expect(r).toStrictEqual((slow as t.Decoder<unknown, unknown>).decode(u));
      expect(E.isRight(r) && r.right !== u).toBe(true);
      expect(JSON.stringify(u)).toBe(before);
    }
  });

  it('return the input itself when nothing converts', () => {
    const trade = { v: '1', t: 1, p: '1.5', q: '0.1', m: true };
    const envelope = { symbol: 'BTCUSDT', topic: 'trade', params: { binary: false }, f: true, data: [trade] };
    expect(fastCheckOf(FastTradeRecordCodec)!(trade)).toBe(trade);
    expect(fastCheckOf(FastRawEnvelopeCodec)!(envelope)).toBe(envelope);
  });
});
