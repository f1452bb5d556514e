import * as E from 'fp-ts/Either';
import fc from 'fast-check';
import { fastPrivateEventInPlace, FastPrivateEventCodec } from '../../lib/codecs/fast/privateEvents';
import { FAIL } from '../../lib/codecs/fast/scalars';

const decimalText = fc.stringMatching(/^-?\d{1,8}(\.\d{1,8})?$/);
const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.constantFrom(undefined, null, NaN, 1.5, 2 ** 53, '', 'true', 'false', '12a', '01', '1.', 'NEW', 'BUY'),
);
const time = fc.oneof(fc.integer({ min: 0, max: 2 ** 42 }), fc.integer({ min: 0, max: 2 ** 42 }).map(String));
const id = fc.oneof(fc.stringMatching(/^\d{1,19}$/), fc.integer({ min: 0 }));
const decimal = fc.oneof({ weight: 8, arbitrary: decimalText }, { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) });
const flag = fc.oneof(fc.boolean(), fc.constantFrom('true', 'false'));
const required = {
  e: fc.constant('executionReport'),
  E: time,
  s: fc.string({ maxLength: 6 }),
  i: id,
  c: id,
  S: fc.constantFrom('BUY', 'SELL'),
  o: fc.constantFrom('LIMIT', 'MARKET'),
  X: fc.constantFrom('NEW', 'PARTIALLY_FILLED', 'FILLED', 'PARTIALLY_CANCELED', 'CANCELED', 'REJECTED'),
  q: decimal,
  p: decimal,
  z: decimal,
  Z: decimal,
};
const optional = { f: fc.string({ maxLength: 3 }), reqAmt: decimal, d: id, l: decimal, r: decimal, L: decimal, V: decimal, n: decimal, N: fc.option(fc.string({ maxLength: 3 })), u: flag, w: flag, m: flag, O: time, U: time, x: fc.string({ maxLength: 6 }) };
const report = fc
  .tuple(fc.record(required), fc.record(optional, { requiredKeys: [] }), fc.dictionary(fc.constantFrom('zz', 'type'), anything, { maxKeys: 1 }))
  .map(([r, o, x]) => ({ ...x, ...r, ...o }) as Record<string, unknown>);
const keys = [...Object.keys(required), ...Object.keys(optional)];
const input = fc.oneof(
  { weight: 3, arbitrary: report },
  {
    weight: 4,
    arbitrary: fc.tuple(report, fc.constantFrom(...keys), anything, fc.boolean()).map(([v, k, x, remove]) => {
      const copy = { ...v };
      if (remove) delete copy[k];
      else copy[k] = x;
      return copy;
    }),
  },
  { weight: 1, arbitrary: fc.record({ e: fc.constant('ticketInfo'), E: time, s: fc.string(), q: decimal, t: time, p: decimal, T: id, o: id, S: fc.constantFrom('BUY', 'SELL') }) },
  { weight: 1, arbitrary: anything },
);

describe('fastPrivateEventInPlace', () => {
  it('agrees with FastPrivateEventCodec, writes only into a passing value, never touches a failing one (property)', () => {
    fc.assert(
      fc.property(input, (u) => {
        // A shallow copy with the same prototype (fast-check makes some records without one).
        const owned: unknown = Array.isArray(u) ? [...(u as unknown[])] : typeof u === 'object' && u !== null ? Object.assign(Object.create(Object.getPrototypeOf(u) as object | null) as object, u) : u;
        const decoded = FastPrivateEventCodec.decode(u);
        const result = fastPrivateEventInPlace(owned);
        if (result === FAIL) {
          expect(owned).toStrictEqual(u);
          return;
        }
        expect(E.isRight(decoded)).toBe(true);
        if (E.isRight(decoded)) expect(result).toStrictEqual(decoded.right);
        // An execution report is the owned value itself, converted in place.
        if ((u as { e?: unknown }).e === 'executionReport') expect(result).toBe(owned);
      }),
      { numRuns: 2000 },
    );
  });

  it('converts text times of an execution report in the value itself', () => {
    const u = { e: 'executionReport', E: '5', s: 'ETHBTC', i: 7, c: 'c', S: 'BUY', o: 'LIMIT', X: 'NEW', q: '1', p: '2', z: '0', Z: '0', O: '3' };
    const r = fastPrivateEventInPlace(u);
    expect(r).toBe(u);
    expect(u).toMatchObject({ E: 5, i: '7', O: 3 });
  });
});
