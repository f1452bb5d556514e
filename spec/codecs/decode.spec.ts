import * as E from 'fp-ts/Either';
import fc from 'fast-check';
import * as t from 'io-ts';
import { PathReporter } from 'io-ts/PathReporter';
import { decodeWith, MAX_PATH_LINES, showValue } from '../../lib/codecs/decode';
import { decodePrivateFrame, PrivateEventCodec } from '../../lib/codecs/privateEvents';
import { TradeRecordCodec } from '../../lib/codecs/trade';
import { DecodeError } from '../../lib/errors';
import { leakedParts } from '../corpus/leakedParts';

const LISTEN_KEY = 'Xc7Lq0Tz1pR9vMfW3kYb8nHd2sJg5aQe6uVt4oPi0lKr7yBm1wNx3zCf9hGj';

const left = (r: E.Either<DecodeError, unknown>): DecodeError => {
  if (E.isRight(r)) throw new Error('expected a failure');
  return r.left;
};
const deepObject = (depth: number): unknown => JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
const deepArray = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));
const sizeOf = (e: DecodeError): number => e.paths.join('\n').length;

describe('decodeWith', () => {
  it('gives the PathReporter lines wherever values are short', () => {
    const values = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 9 }), { maxKeys: 2 }),
      fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.record({ v: values, t: values, p: values, q: values, m: values }, { requiredKeys: [] }), (record) => {
        const expected = TradeRecordCodec.decode(record);
        const r = decodeWith(TradeRecordCodec, record);
        if (E.isRight(expected)) return expect(r).toStrictEqual(expected);
        expect(left(r).paths).toEqual(PathReporter.report(expected));
      }),
      { numRuns: 500 },
    );
  });

  it('cuts each failing value at 40 characters and caps the lines (10, then "… and N more")', () => {
    const r = left(decodeWith(TradeRecordCodec, { v: '1', t: 'x '.repeat(2_000_000), p: 'x', q: 'x', m: 'x' }));
    expect(r.paths[0]).toBe(`Invalid value "${'x '.repeat(19)}x… supplied to : TradeRecord/t: IntFromNumberOrString`);
    expect(r.raw!.length).toBeLessThanOrEqual(301);
    const many = t.array(t.number, 'Numbers');
    const lines = left(decodeWith(many, Array(1000).fill('no'))).paths;
    expect(lines).toHaveLength(MAX_PATH_LINES + 1);
    expect(lines[MAX_PATH_LINES]).toBe(`… and ${1000 - MAX_PATH_LINES} more`);
  });

  it('never recurses: a record field holding a 3 000-deep (or 100 000-deep) object or array gives a short path', () => {
    for (const deep of [deepObject(3000), deepObject(100_000), deepArray(100_000)]) {
      let r: E.Either<DecodeError, unknown> | undefined;
      expect(() => (r = decodeWith(TradeRecordCodec, { v: deep, t: 1, p: '1', q: '1', m: true }))).not.toThrow();
      const error = left(r!);
      expect(error.paths).toHaveLength(1);
      expect(sizeOf(error)).toBeLessThan(200);
      expect(error.raw!.length).toBeLessThanOrEqual(301);
    }
    expect(showValue(deepObject(100_000))).toBe('{"a":'.repeat(8) + '…');
    expect(showValue(deepArray(100_000))).toBe('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[…');
  });

  it('renders a huge object or array from its start only (bounded work)', () => {
    const wide = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]));
    const long = Array.from({ length: 2_000_000 }, (_, i) => i);
    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      showValue(long);
      decodeWith(PrivateEventCodec, long);
    }
    expect(performance.now() - started).toBeLessThan(1000);
    expect(showValue(wide)).toBe('{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5"…');
  });

  it('never throws on odd values: getters that throw, functions, bigints, symbols', () => {
    const trap = Object.defineProperty({}, 'x', { enumerable: true, get: () => { throw new Error('boom'); } });
    expect(() => decodeWith(TradeRecordCodec, trap)).not.toThrow();
    expect(showValue(trap)).toBe('<unprintable>');
    expect(showValue(function named() {})).toBe('named');
    expect(showValue(10n)).toBe('10');
    expect(showValue([undefined, Symbol('s')])).toBe('[null,null]');
    expect(showValue({ a: undefined, b: 1 })).toBe('{"b":1}');
  });

  it('never shows a listen key held by a failing field, nor any 16-character part of it, in paths, message or raw', () => {
    const event = { e: 'ticketInfo', E: 1, s: 'BTCUSDT', q: LISTEN_KEY, t: 1, p: `${LISTEN_KEY}${LISTEN_KEY}`, T: '1', o: '1', S: 'BUY' };
    for (const codec of [PrivateEventCodec]) {
      const error = left(decodeWith(codec, event));
      expect(error.paths).toEqual([
        'Invalid value "***" supplied to : PrivateEvent/ticketInfo: TicketInfo/q: DecimalString',
        'Invalid value "***" supplied to : PrivateEvent/ticketInfo: TicketInfo/p: DecimalString',
      ]);
      for (const text of [...error.paths, error.message, error.raw!]) expect(leakedParts(text, LISTEN_KEY)).toEqual([]);
    }
  });

  it('bounds the error of a private frame that is no array nor object (a 4 MB string)', () => {
    const [r] = decodePrivateFrame('x '.repeat(2_000_000));
    const error = left(r!);
    expect(error.paths).toEqual([`Invalid value "${'x '.repeat(19)}x… supplied to : PrivateFrame`]);
    expect(error.raw!.length).toBeLessThanOrEqual(301);
  });
});
