import * as E from 'fp-ts/Either';
import fc from 'fast-check';
import * as t from 'io-ts';
import { PathReporter } from 'io-ts/PathReporter';
import { DepthEnvelopeCodec, DepthLevelCodec, DepthRecordCodec } from '../../lib/codecs/depth';
import { EnvelopeParamsCodec, PublicEnvelopeCodec } from '../../lib/codecs/envelope';
import { ExecutionReportCodec, KnownOrderStatusCodec, OrderStatusCodec } from '../../lib/codecs/executionReport';
import { AsIs, asIsOf, CheckedType, compiledRecordCheck, FAIL, fastCheckOf, inPlaceCheckOf, passesAsIs, recordCheck, withFastCheck } from '../../lib/codecs/fastCheck';
import { KlineEnvelopeCodec, KlineRecordCodec } from '../../lib/codecs/kline';
import { OtherPrivateEventCodec } from '../../lib/codecs/otherPrivateEvent';
import { BalanceCodec, OutboundAccountInfoCodec } from '../../lib/codecs/outboundAccountInfo';
import {
  BooleanFromStringOrBoolean,
  DecimalOrEmptyString,
  DecimalString,
  IdFromNumberOrString,
  IntFromNumberOrString,
  JsonScalarCodec,
  isIntText,
  TextFromNumberOrString,
} from '../../lib/codecs/primitives';
import { PrivateEventCodec } from '../../lib/codecs/privateEvents';
import { RealtimesEnvelopeCodec, RealtimesRecordCodec } from '../../lib/codecs/realtimes';
import { fieldsOf, struct } from '../../lib/codecs/struct';
import { membersOf } from '../../lib/codecs/taggedUnion';
import { TicketInfoCodec } from '../../lib/codecs/ticketInfo';
import { TradeEnvelopeCodec, TradeRecordCodec } from '../../lib/codecs/trade';
import { isDecimalGrammar } from '../../lib/decimal/grammar';

/**
 * Property runs. `CODEC_CHECK_RUNS` is the count of the main properties: 300 in the slow group (set by
 * jest.slow.config.js), 30 by default, i.e. in `npm test`, which has to stay fast; the other counts scale with it.
 */
const FULL_RUNS = 300;
const runsOf = (full: number): { numRuns: number } => ({
  numRuns: Math.max(10, Math.round((full * Number(process.env['CODEC_CHECK_RUNS'] ?? 30)) / FULL_RUNS)),
});
const RUNS = runsOf(FULL_RUNS);
type Codec = t.Type<unknown, unknown, unknown>;
const asCodec = (codec: t.Mixed): Codec => codec as Codec;

/** The combinator of a codec (errors and paths), without its fast check in front. */
function combinator(codec: Codec, u: unknown): t.Validation<unknown> {
  const context: t.Context = [{ key: '', type: codec, actual: u }];
  return codec instanceof CheckedType ? (codec as CheckedType<unknown>).fallback(u, context) : codec.validate(u, context);
}

/** A deep copy into plain objects and arrays, to see whether a check wrote into its input. */
function snapshot(u: unknown): unknown {
  if (Array.isArray(u)) return u.map(snapshot);
  if (typeof u === 'object' && u !== null) return Object.fromEntries(Object.entries(u).map(([k, v]) => [k, snapshot(v)]));
  return u;
}

/** Whether `u` holds NaN somewhere. */
function holdsNaN(u: unknown): boolean {
  if (typeof u === 'number') return Number.isNaN(u);
  if (typeof u === 'object' && u !== null) return Object.values(u).some(holdsNaN);
  return false;
}

/** A deep copy that keeps prototypes: a value the caller owns, for the in-place check. */
function owned(u: unknown): unknown {
  if (Array.isArray(u)) return u.map(owned);
  if (typeof u === 'object' && u !== null) {
    const copy = Object.create(Object.getPrototypeOf(u) as object | null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(u)) Object.defineProperty(copy, k, { value: owned(v), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return u;
}

// ---- arbitraries, derived from the declarations ------------------------------------------------------------

const numericChars = fc.string({ unit: fc.constantFrom(...'0123456789.-+eE x'.split('')), maxLength: 12 });
const decimalText = fc.stringMatching(/^-?\d{1,8}(\.\d{1,8})?([eE][+-]?\d{1,3})?$/);
const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  numericChars,
  fc.constantFrom(undefined, null, NaN, Infinity, -Infinity, -0, 1.5, 2 ** 53, -(2 ** 53), 1e21, -1.5e-7, 5e-324, Number.MAX_VALUE, '', 'true', 'false', 'True', '1e3', '12a', ' 1', '01', '-', '1.', '.5', 'toString', '__proto__'),
  fc.double(),
  fc.bigInt().map(String),
);
const decimal = fc.oneof(
  { weight: 8, arbitrary: decimalText },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => Number.isSafeInteger(n) || !Number.isInteger(n)) },
);
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
const extra = fc.dictionary(fc.constantFrom('zz', 'extra', 'site', 'channelId'), anything, { maxKeys: 2 });

/** Values of each primitive, its conversions included (numbers for text, text for numbers and flags). */
const PRIMITIVES = new Map<t.Mixed, fc.Arbitrary<unknown>>([
  [IntFromNumberOrString, time],
  [IdFromNumberOrString, id],
  [TextFromNumberOrString, fc.oneof(id, fc.constant(''))],
  [BooleanFromStringOrBoolean, flag],
  [DecimalString, decimal],
  [DecimalOrEmptyString, fc.oneof({ weight: 4, arbitrary: decimal }, { weight: 1, arbitrary: fc.constant('') })],
  // Mostly the statuses the library knows, then any text (kept as sent).
  [OrderStatusCodec, fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...Object.keys(KnownOrderStatusCodec.keys)) }, { weight: 1, arbitrary: text })],
  [JsonScalarCodec, fc.oneof(text, fc.boolean(), fc.constant(null), time, decimal)],
]);

/** Events of a type the library does not model: an object whose `e` is text (`''` too), any other fields. */
const otherEvents = fc.record(
  { e: fc.oneof(text, fc.constantFrom('', 'outboundCustodyAccountInfo', 'contractExecutionReport')), E: fc.oneof(time, anything), x: anything },
  { requiredKeys: ['e'] },
);

/**
 * Values of `codec`, generated by walking its declaration (struct fields, union members, arrays, tuples,
 * literals, keyofs, primitives): mostly valid, and with `noise` > 0 any leaf may be anything or a field may
 * go missing, so the invalid cases are near-valid ones too. A field added to a declaration is generated
 * without touching this file.
 */
function valuesOf(codec: t.Mixed, noise: number): fc.Arbitrary<unknown> {
  const exact = exactValuesOf(codec, noise);
  return noise === 0 ? exact : fc.oneof({ weight: 12, arbitrary: exact }, { weight: noise, arbitrary: anything });
}

function exactValuesOf(codec: t.Mixed, noise: number): fc.Arbitrary<unknown> {
  const primitive = PRIMITIVES.get(codec);
  if (primitive !== undefined) return primitive;
  if (codec === OtherPrivateEventCodec) return otherEvents;
  const fields = fieldsOf(codec);
  if (fields !== undefined) {
    const required = Object.fromEntries(Object.entries(fields.required).map(([k, c]) => [k, valuesOf(c as t.Mixed, noise)]));
    const optional = Object.fromEntries(Object.entries(fields.optional).map(([k, c]) => [k, valuesOf(c as t.Mixed, noise)]));
    const record = fc
      .tuple(fc.record(required), fc.record(optional, { requiredKeys: [] }), extra)
      .map(([r, o, x]) => ({ ...x, ...r, ...o }) as Record<string, unknown>);
    if (noise === 0) return record;
    const keys = [...Object.keys(fields.required), ...Object.keys(fields.optional)];
    const missing = keys.length === 0 ? record : fc.tuple(record, fc.constantFrom(...keys)).map(([r, k]) => {
      const copy = { ...r };
      delete copy[k];
      return copy;
    });
    return fc.oneof({ weight: 8, arbitrary: record }, { weight: 1, arbitrary: missing });
  }
  const union = membersOf(codec);
  if (union !== undefined) return fc.oneof(...[...Object.values(union.members), ...(union.other === undefined ? [] : [union.other])].map((m) => valuesOf(m, noise)));
  if (codec instanceof CheckedType && codec.wrapped !== undefined) {
    const inner = valuesOf(codec.wrapped as t.Mixed, noise);
    return codec.name.endsWith(' | null') ? fc.option(inner, { nil: null }) : inner;
  }
  if (codec instanceof t.ArrayType) return fc.array(valuesOf(codec.type as t.Mixed, noise), { maxLength: 5 });
  if (codec instanceof t.TupleType) {
    const items = (codec.types as t.Mixed[]).map((c) => valuesOf(c, noise));
    return noise === 0 ? fc.tuple(...items) : fc.oneof({ weight: 6, arbitrary: fc.tuple(...items) }, { weight: 1, arbitrary: fc.tuple(...items, anything) });
  }
  if (codec instanceof t.LiteralType) return fc.constant(codec.value);
  if (codec instanceof t.KeyofType) return fc.constantFrom(...Object.keys(codec.keys as object));
  if (codec instanceof t.StringType) return text;
  if (codec instanceof t.UnknownType) return anything;
  throw new Error(`no values for ${codec.name}: add its kind to exactValuesOf`);
}

const RawEnvelopeCodec = PublicEnvelopeCodec(t.unknown, 'PublicEnvelope');

const isOther = (u: unknown): boolean => typeof u === 'object' && u !== null && (u as { e?: unknown }).e === 'other' && 'raw' in u;

/** The wire shapes on the streams' paths. */
const HOT: ReadonlyArray<readonly [string, t.Mixed]> = [
  ['TradeRecordCodec', TradeRecordCodec],
  ['KlineRecordCodec', KlineRecordCodec],
  ['RealtimesRecordCodec', RealtimesRecordCodec],
  ['DepthLevelCodec', DepthLevelCodec],
  ['DepthRecordCodec', DepthRecordCodec],
  ['EnvelopeParamsCodec', EnvelopeParamsCodec],
  ['TradeEnvelopeCodec', TradeEnvelopeCodec],
  ['KlineEnvelopeCodec', KlineEnvelopeCodec],
  ['RealtimesEnvelopeCodec', RealtimesEnvelopeCodec],
  ['DepthEnvelopeCodec', DepthEnvelopeCodec],
  ['PublicEnvelope (raw)', RawEnvelopeCodec],
  ['ExecutionReportCodec', ExecutionReportCodec],
  ['TicketInfoCodec', TicketInfoCodec],
  ['BalanceCodec', BalanceCodec],
  ['OutboundAccountInfoCodec', OutboundAccountInfoCodec],
  ['OtherPrivateEventCodec', OtherPrivateEventCodec],
  ['PrivateEventCodec', PrivateEventCodec],
];

describe.each(HOT)('%s: the derived fast check', (_, codec) => {
  const c = asCodec(codec);
  const check = fastCheckOf(c);
  const input = fc.oneof({ weight: 4, arbitrary: valuesOf(codec, 1) }, { weight: 1, arbitrary: anything });

  it('is carried by the codec itself', () => {
    expect(c).toBeInstanceOf(CheckedType);
    expect(check).toBe((c as CheckedType<unknown>).check);
  });

  it('passes exactly when the combinator succeeds, with an equal value (the input itself in both or neither)', () => {
    fc.assert(
      fc.property(input, (u) => {
        const fast = check(u);
        const slow = combinator(c, u);
        expect(fast === FAIL).toBe(E.isLeft(slow));
        if (fast !== FAIL && E.isRight(slow)) {
          expect(fast).toStrictEqual(slow.right);
          // io-ts copies an array holding NaN (NaN !== NaN), which JSON never holds; the check keeps it.
          if (!holdsNaN(u)) expect(fast === u).toBe(slow.right === u);
        }
      }),
      RUNS,
    );
  });

  it('decode gives the combinator result: equal values, or the same PathReporter lines, also nested in another codec', () => {
    const list = t.array(c, 'List');
    fc.assert(
      fc.property(fc.array(input, { maxLength: 3 }), (us) => {
        const u = us[0];
        const slow = combinator(c, u);
        const fast = c.decode(u);
        if (E.isRight(slow)) expect(fast).toStrictEqual(slow);
        else expect(PathReporter.report(fast)).toEqual(PathReporter.report(slow));
        expect(PathReporter.report(list.decode(us))).toEqual(PathReporter.report(combinator(asCodec(t.array(withoutCheck(c), 'List')), us)));
      }),
      RUNS,
    );
  });

  it('accepts every valid value without the combinator (the fast path is the common path)', () => {
    fc.assert(fc.property(valuesOf(codec, 0), (u) => expect(check(u)).not.toBe(FAIL)), RUNS);
  });

  it('never writes into its input', () => {
    fc.assert(
      fc.property(input, (u) => {
        const before = snapshot(u);
        check(u);
        expect(snapshot(u)).toEqual(before);
      }),
      RUNS,
    );
  });

  it('in place: the same value, written into the owned input only once every field passed', () => {
    const inPlace = inPlaceCheckOf(c);
    fc.assert(
      fc.property(input, (u) => {
        const mine = owned(u);
        const expected = check(u);
        const result = inPlace(mine);
        if (expected === FAIL) {
          expect(result).toBe(FAIL);
          expect(snapshot(mine)).toEqual(snapshot(u));
        } else {
          expect(snapshot(result)).toEqual(snapshot(expected));
          // (An event of a type the library does not model is a value of its own, holding the input as `raw`.)
          if (isOther(result)) expect((result as { raw: unknown }).raw).toBe(mine);
          else if (fieldsOf(c) !== undefined || membersOf(c) !== undefined) expect(result).toBe(mine);
        }
      }),
      RUNS,
    );
  });

  it('agrees with the combinator codec on is() and encode()', () => {
    fc.assert(
      fc.property(input, (u) => {
        const r = c.decode(u);
        if (E.isRight(r)) {
          expect(c.is(r.right)).toBe(true);
          expect(c.decode(c.encode(r.right))).toStrictEqual(r);
        }
      }),
      runsOf(100),
    );
  });
});

/** `codec` with the combinator as its `validate` (for comparing nested paths). */
function withoutCheck(codec: Codec): Codec {
  return new t.Type(codec.name, codec.is, (u, ctx) => (codec instanceof CheckedType ? (codec as CheckedType<unknown>).fallback(u, ctx) : codec.validate(u, ctx)), codec.encode);
}

describe('primitives: declared by their check', () => {
  const candidates = fc.oneof(anything, time, id, flag, decimal, fc.constant(''));

  it('isDecimalGrammar agrees with the DecimalString pattern', () => {
    const pattern = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
    fc.assert(fc.property(fc.oneof(numericChars, decimalText, fc.string()), (s) => expect(isDecimalGrammar(s)).toBe(pattern.test(s))), runsOf(2000));
  });

  it('isIntText agrees with the IntFromNumberOrString pattern', () => {
    const pattern = /^-?\d{1,16}$/;
    fc.assert(fc.property(fc.oneof(numericChars, fc.string(), fc.bigInt().map(String)), (s) => expect(isIntText(s)).toBe(pattern.test(s))), runsOf(2000));
  });

  it.each([...PRIMITIVES.keys()].map((codec) => [codec.name, codec] as const))('%s: the inline test implies is(), is() implies the check returns the value itself', (_, codec) => {
    const check = fastCheckOf(codec);
    const asIs = asIsOf(codec);
    expect(asIs).not.toBe(AsIs.none);
    fc.assert(
      fc.property(candidates, (u) => {
        if (passesAsIs(asIs, u)) expect(codec.is(u)).toBe(true);
        if (codec.is(u)) expect(check(u)).toBe(u);
        const r = codec.decode(u);
        if (E.isRight(r)) expect(check(u)).toStrictEqual(r.right);
        else expect(check(u)).toBe(FAIL);
      }),
      runsOf(2000),
    );
  });
});

describe('fastCheckOf: io-ts built-ins and any other decoder', () => {
  const codecs: ReadonlyArray<readonly [string, t.Mixed]> = [
    ['t.string', t.string],
    ['t.number', t.number],
    ['t.boolean', t.boolean],
    ['t.null', t.null],
    ['t.unknown', t.unknown],
    ['t.literal', t.literal('BUY')],
    ['t.keyof (own keys only)', t.keyof({ a: null, toString: null })],
    ['t.keyof (more than 8 keys)', t.keyof({ a: null, b: null, c: null, d: null, e: null, f: null, g: null, h: null, i: null })],
    ['t.array', t.array(DecimalString)],
    ['t.array(t.unknown)', t.array(t.unknown)],
    ['t.array of pairs', t.array(t.tuple([IntFromNumberOrString, t.string]))],
    ['t.tuple of 3', t.tuple([DecimalString, t.string, IntFromNumberOrString])],
    ['t.union (no derivation: validate unwrapped)', t.union([t.string, IntFromNumberOrString])],
  ];
  const input = fc.oneof(
    anything,
    fc.array(fc.oneof(decimal, time, text, anything), { maxLength: 4 }),
    fc.array(fc.tuple(fc.oneof(time, anything), fc.oneof(text, anything)), { maxLength: 3 }),
    fc.constantFrom('a', 'toString', 'hasOwnProperty', 'i', 'BUY', 'buy', '__proto__'),
  );

  it.each(codecs)('%s: the check passes exactly when validate succeeds, with an equal value', (_, codec) => {
    const check = fastCheckOf(codec);
    expect(fastCheckOf(codec)).toBe(check);
    fc.assert(
      fc.property(input, (u) => {
        const r = codec.decode(u);
        const a = check(u);
        if (E.isRight(r)) {
          expect(a).toStrictEqual(r.right);
          if (!holdsNaN(u)) expect(a === u).toBe(r.right === u);
        } else expect(a).toBe(FAIL);
      }),
      runsOf(1000),
    );
  });

  it('withFastCheck keeps the name, is, encode and errors of the codec it wraps', () => {
    const pair = t.tuple([DecimalString, DecimalString], 'Pair');
    const wrapped = withFastCheck(pair);
    expect(wrapped.name).toBe('Pair');
    expect(withFastCheck(wrapped)).toBe(wrapped);
    expect(PathReporter.report(wrapped.decode(['1', 'x']))).toEqual(PathReporter.report(pair.decode(['1', 'x'])));
    expect(wrapped.decode(['1', 2, 3])).toStrictEqual(E.right(['1', '2']));
  });
});

describe('struct: the derived check', () => {
  it('returns the input itself when nothing converts, else a copy; the input is never written', () => {
    const trade = { v: '1', t: 1, p: '1.5', q: '0.1', m: true, site: 'SG' };
    expect(fastCheckOf(TradeRecordCodec)(trade)).toBe(trade);
    const text = { v: 7, t: '1625562619577', p: 1.5, q: '0.1', m: 'true', bt: 1 };
    const r = fastCheckOf(TradeRecordCodec)(text);
    expect(r).toStrictEqual({ v: '7', t: 1625562619577, p: '1.5', q: '0.1', m: true, bt: 1 });
    expect(text).toStrictEqual({ v: 7, t: '1625562619577', p: 1.5, q: '0.1', m: 'true', bt: 1 });
  });

  it('in place: converted fields written into the value itself', () => {
    const u = { e: 'executionReport', E: '5', s: 'ETHBTC', i: 7, c: 'c', S: 'BUY', o: 'LIMIT', X: 'NEW', q: '1', p: '2', z: '0', Z: '0', O: '3' };
    expect(inPlaceCheckOf(PrivateEventCodec)(u)).toBe(u);
    expect(u).toMatchObject({ E: 5, i: '7', O: 3 });
  });

  it('a recursive shape (a re-entrant check) gets its own pending fields', () => {
    interface Node {
      readonly v: number;
      readonly next?: Node;
    }
    const NodeCodec: t.Type<Node, Node, unknown> = t.recursion('Node', () => struct('Node', { v: IntFromNumberOrString }, { next: NodeCodec }) as t.Type<Node, Node, unknown>);
    const Outer = struct('Outer', { head: NodeCodec }, {});
    const u = { head: { v: '1', next: { v: '2', next: { v: 3, next: { v: '4' } } } } };
    const decoded = Outer.decode(u);
    expect(decoded).toStrictEqual(E.right({ head: { v: 1, next: { v: 2, next: { v: 3, next: { v: 4 } } } } }));
    const inner = fieldsOf(Outer);
    expect(inner && Object.keys(inner.required)).toEqual(['head']);
    expect(fastCheckOf(Outer)(u)).toStrictEqual(E.isRight(decoded) ? decoded.right : undefined);
    expect(fastCheckOf(Outer)({ head: { v: '1', next: { v: 'x' } } })).toBe(FAIL);
  });
});

describe('struct checks: compiled for the shape, and the generic loop, agree', () => {
  // Every struct of the hot shapes: its check as the runtime compiles it (named loads, `new Function`) and the
  // generic loop that runs where code cannot be compiled (a strict content security policy).
  const structs = HOT.filter(([, codec]) => fieldsOf(codec) !== undefined);

  it('compiles here (Node allows it), so the codecs run the compiled checks', () => {
    const { keys, checks, asIs, optional } = partsOf(TradeRecordCodec);
    expect(compiledRecordCheck(keys, checks, asIs, optional, false)).toBeInstanceOf(Function);
  });

  it.each(structs)('%s: same result, copy or in place, the input untouched when it fails (property)', (_, codec) => {
    const { keys, checks, asIs, optional } = partsOf(codec);
    const input = fc.oneof({ weight: 4, arbitrary: valuesOf(codec, 1) }, { weight: 1, arbitrary: anything });
    for (const inPlace of [false, true]) {
      const compiled = compiledRecordCheck(keys, checks, asIs, optional, inPlace)!;
      const generic = recordCheck(keys, checks, asIs, optional, inPlace);
      fc.assert(
        fc.property(input, (u) => {
          const a = structuredClone(u);
          const b = structuredClone(u);
          const x = compiled(a);
          const y = generic(b);
          expect(x === FAIL).toBe(y === FAIL);
          expect(a).toStrictEqual(b); // written (in place) or not, alike
          if (x !== FAIL && y !== FAIL) {
            expect(x).toStrictEqual(y);
            expect(x === a).toBe(y === b);
          }
        }),
        RUNS,
      );
    }
  });

  /** What `struct` derives its check from. */
  function partsOf(codec: t.Mixed) {
    const fields = fieldsOf(codec)!;
    const keys = [...Object.keys(fields.required), ...Object.keys(fields.optional)];
    const codecs = [...Object.values(fields.required), ...Object.values(fields.optional)] as t.Mixed[];
    const required = Object.keys(fields.required).length;
    return { keys, checks: codecs.map((c) => fastCheckOf(c)), asIs: codecs.map((c) => asIsOf(c)), optional: keys.map((_, i) => i >= required) };
  }
});
