import fc from 'fast-check';
import type { DecimalText } from '../../lib/decimal';
import type { ExchangeInfo } from '../../lib/codecs/rest/exchangeInfo';
import { ConfigError, OrderRuleError } from '../../lib/errors';
import { checkOrder, fitOrder, fitPrice, fitQuantity, symbolRules, ticksAway, type SymbolRules } from '../../lib/orders/symbolRules';
import type { NewOrderRequest } from '../../lib/rest/callTypes';
import { thrown } from '../helpers/thrown';
import { propertyRuns } from '../helpers/propertyRuns';

// ---- an exact model of plain decimal text, independent of lib/decimal/ -------------------------------------

/** A plain decimal as `units / 10^scale`. */
interface Exact {
  readonly units: bigint;
  readonly scale: number;
}

const PLAIN = /^\d+(?:\.\d+)?$/;

const exactOf = (text: string): Exact => {
  if (!PLAIN.test(text)) throw new Error(`not plain: ${text}`);
  const [int = '', frac = ''] = text.split('.');
  return { units: BigInt(int + frac), scale: frac.length };
};
const at = (x: Exact, scale: number): bigint => x.units * 10n ** BigInt(scale - x.scale);
const cmp = (a: Exact, b: Exact): number => {
  const s = Math.max(a.scale, b.scale);
  const x = at(a, s);
  const y = at(b, s);
  return x < y ? -1 : x > y ? 1 : 0;
};
const minus = (a: Exact, b: Exact): Exact => {
  const s = Math.max(a.scale, b.scale);
  return { units: at(a, s) - at(b, s), scale: s };
};
const plus = (a: Exact, b: Exact): Exact => {
  const s = Math.max(a.scale, b.scale);
  return { units: at(a, s) + at(b, s), scale: s };
};
const times = (a: Exact, k: bigint): Exact => ({ units: a.units * k, scale: a.scale });
const isMultiple = (a: Exact, step: Exact): boolean => {
  const s = Math.max(a.scale, step.scale);
  return at(a, s) % at(step, s) === 0n;
};
/** Plain text of a non-negative exact value, with `pad` extra trailing zeros (0 for the canonical text). */
const textOf = (x: Exact, pad = 0): DecimalText => {
  if (x.units < 0n) throw new Error('negative');
  const scale = x.scale + pad;
  const digits = (x.units * 10n ** BigInt(pad)).toString().padStart(scale + 1, '0');
  return (scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`) as DecimalText;
};
/** The canonical form of plain text: no leading zero before a digit, no trailing fraction zero, no bare point. */
const canonical = (text: string): string => {
  const [int = '', frac = ''] = text.split('.');
  const i = int.replace(/^0+(?=\d)/, '');
  const f = frac.replace(/0+$/, '');
  return f === '' ? i : `${i}.${f}`;
};
const isCanonical = (text: string): boolean => PLAIN.test(text) && canonical(text) === text;

// ---- generators ---------------------------------------------------------------------------------------------

/** A step (tick or lot): `1..1000 / 10^0..6`, written with or without trailing zeros. */
const stepArb = fc.record({ units: fc.bigInt({ min: 1n, max: 1000n }), scale: fc.integer({ min: 0, max: 6 }), pad: fc.integer({ min: 0, max: 2 }) });
/** A non-negative plain decimal, up to 10^9 with up to 9 fraction digits, some with trailing zeros. */
const valueArb = fc.record({ units: fc.bigInt({ min: 0n, max: 10n ** 18n }), scale: fc.integer({ min: 0, max: 9 }), pad: fc.integer({ min: 0, max: 2 }) });

const text = ({ units, scale, pad }: { units: bigint; scale: number; pad: number }): DecimalText => textOf({ units, scale }, pad);

// ---- symbolRules ----------------------------------------------------------------------------------------------

describe('symbolRules', () => {
  const info: ExchangeInfo = {
    timezone: 'UTC',
    symbols: [
      {
        symbol: 'BTCUSDT',
        status: 'TRADING',
        filters: [
          { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '100000.00000000', tickSize: '0.0100' },
          { filterType: 'LOT_SIZE', minQty: '0.0001', maxQty: '4000', stepSize: '1e-4' },
          { filterType: 'MIN_NOTIONAL', minNotional: '5' },
          { filterType: 'TRADE_AMOUNT', minAmount: '5', maxAmount: '400000' },
          { filterType: 'LIMIT_TRADING', minPrice: '7' }, // the service's own filters: ignored
          { filterType: 'PRICE_FILTER', tickSize: '1' }, // a second filter of a type: the first one wins
          { filterType: 'constructor' },
        ],
      },
      { symbol: 'ETHUSDT', filters: [{ filterType: 'PRICE_FILTER', minPrice: '0', maxPrice: '0', tickSize: '0.01' }] },
      { symbol: 'NEWCOIN' },
    ],
  };

  it('reads the bounds of each symbol from its filters, canonically', () => {
    const rules = symbolRules(info);
    expect([...rules.keys()]).toEqual(['BTCUSDT', 'ETHUSDT', 'NEWCOIN']);
    expect(rules.get('BTCUSDT')).toEqual({
      symbol: 'BTCUSDT',
      tickSize: '0.01',
      minPrice: '0.01',
      maxPrice: '100000',
      stepSize: '0.0001',
      minQty: '0.0001',
      maxQty: '4000',
      minNotional: '5',
      minAmount: '5',
      maxAmount: '400000',
    });
  });

  it('leaves out what is missing, and zero bounds (no bound)', () => {
    const rules = symbolRules(info);
    expect(rules.get('ETHUSDT')).toEqual({ symbol: 'ETHUSDT', tickSize: '0.01' });
    expect(rules.get('NEWCOIN')).toEqual({ symbol: 'NEWCOIN' });
    expect(symbolRules({ symbols: [] }).size).toBe(0);
  });
});

// ---- fitPrice and fitQuantity -----------------------------------------------------------------------------------

describe('fitPrice', () => {
  it('rounds a buy down and a sell up to the tick, canonically', () => {
    const rules: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.01' };
    expect(fitPrice(rules, 'BUY', '20000.129')).toBe('20000.12');
    expect(fitPrice(rules, 'SELL', '20000.121')).toBe('20000.13');
    expect(fitPrice(rules, 'SELL', '20000.12')).toBe('20000.12');
    expect(fitPrice(rules, 'BUY', '20000.10')).toBe('20000.1');
    expect(fitPrice(rules, 'BUY', '020000.000')).toBe('20000');
    expect(fitPrice({ symbol: 'X', tickSize: '0.5' }, 'SELL', '10.01')).toBe('10.5');
    expect(fitPrice({ symbol: 'X', tickSize: '5' }, 'BUY', '104.99')).toBe('100');
  });

  it('reads wire text (exponents) and writes plain text; refuses what has no price', () => {
    const rules: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.01' };
    expect(fitPrice(rules, 'SELL', '1.5e2')).toBe('150');
    expect(fitPrice(rules, 'SELL', '1e-7')).toBe('0.01');
    expect(fitPrice(rules, 'BUY', '0.004')).toBeUndefined();
    expect(fitPrice(rules, 'SELL', '0')).toBeUndefined();
    expect(fitPrice(rules, 'BUY', '-1')).toBeUndefined();
    expect(fitPrice(rules, 'BUY', 'abc')).toBeUndefined();
    expect(fitPrice({ symbol: 'X' }, 'BUY', '1.2300')).toBe('1.23');
    expect(fitPrice({ symbol: 'X', tickSize: '0' as DecimalText }, 'BUY', '1.2300')).toBe('1.23');
  });

  it('gives a multiple of the tick within one tick of the price, never more aggressive (property)', () => {
    fc.assert(
      fc.property(stepArb, valueArb, fc.constantFrom('BUY' as const, 'SELL' as const), (stepParts, valueParts, side) => {
        const tick = text(stepParts);
        const price = text(valueParts);
        const fitted = fitPrice({ symbol: 'X', tickSize: tick }, side, price);
        const p = exactOf(price);
        const k = exactOf(tick);
        if (side === 'BUY' && cmp(p, k) < 0) return expect(fitted).toBeUndefined();
        if (side === 'SELL' && p.units === 0n) return expect(fitted).toBeUndefined();
        if (fitted === undefined) throw new Error(`no price for ${side} ${price} on tick ${tick}`);
        const f = exactOf(fitted);
        expect(isCanonical(fitted)).toBe(true);
        expect(isMultiple(f, k)).toBe(true);
        const off = side === 'BUY' ? minus(p, f) : minus(f, p); // how far it moved, away from the market
        expect(off.units >= 0n).toBe(true);
        expect(cmp(off, k)).toBe(-1);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});

describe('fitQuantity', () => {
  it('rounds down to the step, canonically', () => {
    const rules: SymbolRules = { symbol: 'BTCUSDT', stepSize: '0.001' };
    expect(fitQuantity(rules, '0.12345')).toBe('0.123');
    expect(fitQuantity(rules, '1.5000')).toBe('1.5');
    expect(fitQuantity(rules, '0.0009')).toBeUndefined();
    expect(fitQuantity(rules, '-0.5')).toBeUndefined();
    expect(fitQuantity({ symbol: 'X' }, '7')).toBe('7');
  });

  it('gives a multiple of the step, not above the quantity, within one step (property)', () => {
    fc.assert(
      fc.property(stepArb, valueArb, (stepParts, valueParts) => {
        const step = text(stepParts);
        const quantity = text(valueParts);
        const fitted = fitQuantity({ symbol: 'X', stepSize: step }, quantity);
        const q = exactOf(quantity);
        const s = exactOf(step);
        if (cmp(q, s) < 0) return expect(fitted).toBeUndefined();
        if (fitted === undefined) throw new Error(`no quantity for ${quantity} on step ${step}`);
        const f = exactOf(fitted);
        expect(isCanonical(fitted)).toBe(true);
        expect(isMultiple(f, s)).toBe(true);
        expect(cmp(f, q)).toBeLessThanOrEqual(0);
        expect(cmp(minus(q, f), s)).toBe(-1);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});

// ---- checkOrder -----------------------------------------------------------------------------------------------

const limit = (price: DecimalText, quantity: DecimalText, side: 'BUY' | 'SELL' = 'BUY'): NewOrderRequest => ({
  symbol: 'X',
  side,
  type: 'LIMIT',
  price,
  quantity,
});

/** Rules whose bounds sit on their grids: minimum `minTicks` ticks, maximum `maxTicks`; the same for lots. */
const rulesArb = fc
  .record({
    tick: stepArb,
    step: stepArb,
    minTicks: fc.bigInt({ min: 1n, max: 1000n }),
    spanTicks: fc.bigInt({ min: 2n, max: 10n ** 6n }),
    minSteps: fc.bigInt({ min: 1n, max: 1000n }),
    spanSteps: fc.bigInt({ min: 2n, max: 10n ** 6n }),
  })
  .map(({ tick, step, minTicks, spanTicks, minSteps, spanSteps }) => {
    const k = exactOf(text(tick));
    const s = exactOf(text(step));
    return {
      tick: k,
      step: s,
      spanTicks,
      spanSteps,
      rules: {
        symbol: 'X',
        tickSize: text(tick),
        minPrice: textOf(times(k, minTicks)),
        maxPrice: textOf(times(k, minTicks + spanTicks)),
        stepSize: text(step),
        minQty: textOf(times(s, minSteps)),
        maxQty: textOf(times(s, minSteps + spanSteps)),
      } satisfies SymbolRules,
    };
  });

describe('ticksAway', () => {
  const rules: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.01', minPrice: '0.01', maxPrice: '100000' };

  it('steps a price on the grid by whole ticks, either way, as canonical text', () => {
    expect(ticksAway(rules, '30000.10', -1)).toBe('30000.09');
    expect(ticksAway(rules, '30000.10', 1)).toBe('30000.11');
    expect(ticksAway(rules, '30000.10', 5)).toBe('30000.15');
    expect(ticksAway(rules, '30000.10', 0)).toBe('30000.1');
    expect(ticksAway(rules, '29999.99', 1)).toBe('30000');
    expect(ticksAway(rules, '30000', -100)).toBe('29999');
    expect(ticksAway(rules, '1e4', 1)).toBe('10000.01');
  });

  it('counts the first tick in the direction of the step from a price off the grid', () => {
    expect(ticksAway(rules, '30000.105', 1)).toBe('30000.11');
    expect(ticksAway(rules, '30000.105', 2)).toBe('30000.12');
    expect(ticksAway(rules, '30000.105', -1)).toBe('30000.1');
    expect(ticksAway(rules, '30000.105', -2)).toBe('30000.09');
    expect(ticksAway(rules, `30000.10${'0'.repeat(40)}1`, -1)).toBe('30000.1');
    expect(thrown(() => ticksAway(rules, '30000.105', 0))).toEqual(new OrderRuleError('BTCUSDT', 'price', 'tickSize', '0.01', '30000.105'));
  });

  it('keeps to the price filter: nothing is clamped', () => {
    expect(thrown(() => ticksAway(rules, '0.01', -1))).toEqual(new OrderRuleError('BTCUSDT', 'price', 'minPrice', '0.01', '0'));
    expect(thrown(() => ticksAway(rules, '100000', 1))).toEqual(new OrderRuleError('BTCUSDT', 'price', 'maxPrice', '100000', '100000.01'));
    expect(ticksAway(rules, '100000.005', -1)).toBe('100000');
    expect(thrown(() => ticksAway(rules, '0', 0))).toMatchObject({ rule: 'minPrice', value: '0' });
    // without a minPrice, one tick is the lowest price: zero and below are refused, the tick as the bound
    const open: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.01' };
    expect(ticksAway(open, '0', 1)).toBe('0.01');
    expect(ticksAway(open, '0.02', -1)).toBe('0.01');
    expect(thrown(() => ticksAway(open, '0.01', -1))).toEqual(new OrderRuleError('BTCUSDT', 'price', 'minPrice', '0.01', '0'));
    expect(thrown(() => ticksAway(open, '0.01', -3))).toMatchObject({ rule: 'minPrice', value: '-0.02' });
  });

  it('refuses text that is not a price, rules without a tick and a fractional count', () => {
    for (const bad of ['', 'abc', '1,5', '-1', '-0.01', ' 1', 'NaN', '1e1001']) {
      expect(thrown(() => ticksAway(rules, bad, 1))).toMatchObject({ name: 'OrderRuleError', field: 'price', rule: 'decimal', value: JSON.stringify(bad) });
    }
    expect(thrown(() => ticksAway({ symbol: 'BTCUSDT' }, '1', 1))).toBeInstanceOf(ConfigError);
    expect(thrown(() => ticksAway({ symbol: 'BTCUSDT', tickSize: '0' }, '1', 1))).toBeInstanceOf(ConfigError);
    for (const n of [0.5, NaN, Infinity, 2 ** 53]) expect(thrown(() => ticksAway(rules, '1', n))).toBeInstanceOf(ConfigError);
  });

  it('is the n-th grid price strictly beyond the start, on the side asked, by BigInt on scaled integers (property)', () => {
    fc.assert(
      fc.property(stepArb, valueArb, fc.integer({ min: -1000, max: 1000 }), (tickParts, valueParts, n) => {
        const tick = { units: tickParts.units, scale: tickParts.scale };
        const start = { units: valueParts.units, scale: valueParts.scale };
        const s = Math.max(tick.scale, start.scale);
        const k = at(tick, s);
        const v = at(start, s);
        // the grid prices at or below / at or above the start
        const floor = v - (v % k);
        const ceil = v % k === 0n ? v : floor + k;
        const expected = n >= 0 ? floor + BigInt(n) * k : ceil + BigInt(n) * k;
        const open: SymbolRules = { symbol: 'BTCUSDT', tickSize: text(tickParts) };
        const run = (): string => ticksAway(open, text(valueParts), n);
        if (n === 0 && v % k !== 0n) expect(thrown(run)).toMatchObject({ rule: 'tickSize' });
        else if (expected <= 0n) expect(thrown(run)).toMatchObject({ rule: 'minPrice', bound: open.tickSize });
        else {
          const result = run();
          expect(result).toBe(canonical(textOf({ units: expected, scale: s })));
          expect(isMultiple(exactOf(result), tick)).toBe(true);
          expect(Math.sign(cmp(exactOf(result), start))).toBe(Math.sign(n));
          // and the price filter keeps it: checkOrder takes it as a price
          expect(checkOrder(open, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: result as DecimalText, quantity: '1' })).toBeUndefined();
        }
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('refuses every result outside [minPrice, maxPrice], and only those (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 0n, max: 2000n }), fc.integer({ min: -500, max: 500 }), (minAt, span, startAt, n) => {
        const tick = { units: 5n, scale: 3 };
        const bounded: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.005', minPrice: textOf(times(tick, minAt)), maxPrice: textOf(times(tick, minAt + span)) };
        const result = startAt + BigInt(n);
        const run = (): string => ticksAway(bounded, textOf(times(tick, startAt)), n);
        if (result < minAt) expect(thrown(run)).toMatchObject({ rule: 'minPrice', bound: bounded.minPrice });
        else if (result > minAt + span) expect(thrown(run)).toMatchObject({ rule: 'maxPrice', bound: bounded.maxPrice });
        else expect(run()).toBe(canonical(textOf(times(tick, result))));
      }),
    );
  });
});

describe('checkOrder', () => {
  const rules: SymbolRules = {
    symbol: 'X',
    tickSize: '0.01',
    minPrice: '1',
    maxPrice: '100000',
    stepSize: '0.001',
    minQty: '0.01',
    maxQty: '100',
    minNotional: '5',
    minAmount: '10',
    maxAmount: '1000',
  };
  const ruleOf = (request: NewOrderRequest) => checkOrder(rules, request)?.rule;

  it('passes an order that keeps every rule', () => {
    expect(checkOrder(rules, limit('20000.12', '0.01'))).toBeUndefined();
    expect(checkOrder(rules, limit('1', '5'))).toBeUndefined();
    expect(checkOrder(rules, { symbol: 'X', side: 'SELL', type: 'MARKET', quantity: '100' })).toBeUndefined();
    expect(checkOrder(rules, { symbol: 'X', side: 'BUY', type: 'MARKET', amount: '10' })).toBeUndefined();
    expect(checkOrder({ symbol: 'X' }, limit('0.123456789', '0.5'))).toBeUndefined();
  });

  it('names the rule, its bound and the value', () => {
    const error = checkOrder(rules, limit('20000.123', '0.01'));
    expect(error).toBeInstanceOf(OrderRuleError);
    expect(error).toMatchObject({ name: 'OrderRuleError', symbol: 'X', field: 'price', rule: 'tickSize', bound: '0.01', value: '20000.123' });
    expect(error?.message).toBe('X price 20000.123 is not a multiple of the tick size 0.01');
    expect(checkOrder(rules, limit('100', '0.01'))).toMatchObject({ field: 'notional', rule: 'minNotional', bound: '5', value: '1' });
    expect(checkOrder(rules, limit('100', '0.01'))?.message).toBe('X notional 1 is below the minimum notional 5');
  });

  it('checks each rule of a limit order', () => {
    expect(ruleOf(limit('0.99', '1'))).toBe('minPrice');
    expect(ruleOf(limit('100000.01', '1'))).toBe('maxPrice');
    expect(ruleOf(limit('10.001', '1'))).toBe('tickSize');
    expect(ruleOf(limit('10', '0.009'))).toBe('minQty');
    expect(ruleOf(limit('10', '100.001'))).toBe('maxQty');
    expect(ruleOf(limit('10', '0.0105'))).toBe('stepSize');
    expect(ruleOf(limit('10', '0.499'))).toBe('minNotional');
    expect(ruleOf(limit('10', '0.5'))).toBeUndefined();
  });

  it('checks the quantity and the amount of a market order', () => {
    expect(ruleOf({ symbol: 'X', side: 'SELL', type: 'MARKET', quantity: '0.0105' })).toBe('stepSize');
    expect(ruleOf({ symbol: 'X', side: 'BUY', type: 'MARKET', amount: '9.99' })).toBe('minAmount');
    expect(ruleOf({ symbol: 'X', side: 'BUY', type: 'MARKET', amount: '1000.01' })).toBe('maxAmount');
    expect(ruleOf({ symbol: 'X', side: 'BUY', type: 'MARKET', amount: '1000' })).toBeUndefined();
  });

  it("refuses text that is not plain decimal text ('decimal'), quoting a short excerpt", () => {
    for (const bad of ['1e3', '-5', '.5', '5.', ' 5', 'NaN', 'Infinity', '0x10', '+5', '1,5', '']) {
      const error = checkOrder(rules, limit(bad as DecimalText, '1'));
      expect(error).toMatchObject({ field: 'price', rule: 'decimal', bound: undefined, value: JSON.stringify(bad) });
    }
    expect(ruleOf(limit('10', '1e-2'))).toBe('decimal');
    expect(ruleOf({ symbol: 'X', side: 'BUY', type: 'MARKET', amount: '-10' })).toBe('decimal');
    expect(checkOrder(rules, { ...limit('1', '1'), price: undefined } as unknown as NewOrderRequest)).toMatchObject({ rule: 'decimal', value: '"undefined"' });
    expect(checkOrder(rules, { ...limit('1', '1'), quantity: 5 } as unknown as NewOrderRequest)).toMatchObject({ field: 'quantity', rule: 'decimal', value: '"5"' });
    const long = `1${'0'.repeat(200)}`;
    const error = checkOrder(rules, limit(long as DecimalText, '1'));
    expect(error?.rule).toBe('decimal');
    expect(error?.message.length).toBeLessThan(120);
  });

  it('throws a ConfigError for the rules of another symbol', () => {
    expect(() => checkOrder({ symbol: 'Y' }, limit('1', '1'))).toThrow(ConfigError);
  });

  it('passes fitted values inside the bounds; names the rule one tick or one step past each bound (property)', () => {
    fc.assert(
      fc.property(rulesArb, fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.bigInt({ min: 0n, max: 10n ** 9n }), (r, priceAt, quantityAt) => {
        const { tick, step, spanTicks, spanSteps, rules } = r;
        const min = exactOf(rules.minPrice);
        const max = exactOf(rules.maxPrice);
        const minQ = exactOf(rules.minQty);
        const maxQ = exactOf(rules.maxQty);
        // Somewhere inside the bounds (both ends included), then fitted
        const price = textOf(plus(min, times(tick, priceAt % (spanTicks + 1n))), 1);
        const quantity = textOf(plus(minQ, times(step, quantityAt % (spanSteps + 1n))), 1);
        const fittedPrice = fitPrice(rules, 'BUY', price);
        const fittedQuantity = fitQuantity(rules, quantity);
        if (fittedPrice === undefined || fittedQuantity === undefined) throw new Error('nothing fitted');
        expect(checkOrder(rules, limit(fittedPrice, fittedQuantity))).toBeUndefined();
        // exactly at each bound: passes
        expect(checkOrder(rules, limit(rules.minPrice, rules.minQty))).toBeUndefined();
        expect(checkOrder(rules, limit(rules.maxPrice, rules.maxQty))).toBeUndefined();
        // one tick or one step past a bound: that bound
        const expectRule = (request: NewOrderRequest, rule: string, bound: string, value: string) =>
          expect(checkOrder(rules, request)).toMatchObject({ rule, bound, value });
        const belowMin = textOf(minus(min, tick));
        expectRule(limit(belowMin, rules.minQty), 'minPrice', rules.minPrice, belowMin);
        const aboveMax = textOf(plus(max, tick));
        expectRule(limit(aboveMax, rules.minQty), 'maxPrice', rules.maxPrice, aboveMax);
        const belowMinQ = textOf(minus(minQ, step));
        expectRule(limit(rules.minPrice, belowMinQ), 'minQty', rules.minQty, belowMinQ);
        const aboveMaxQ = textOf(plus(maxQ, step));
        expectRule(limit(rules.minPrice, aboveMaxQ), 'maxQty', rules.maxQty, aboveMaxQ);
        // off the grid by a tenth of a tick or of a step, inside the bounds
        const offTick = textOf(plus(min, { units: tick.units, scale: tick.scale + 1 }));
        expectRule(limit(offTick, rules.minQty), 'tickSize', rules.tickSize, offTick);
        const offStep = textOf(plus(minQ, { units: step.units, scale: step.scale + 1 }));
        expectRule(limit(rules.minPrice, offStep), 'stepSize', rules.stepSize, offStep);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('holds the notional to its minimum, exactly (property)', () => {
    fc.assert(
      fc.property(valueArb, valueArb, (p, q) => {
        const price = text({ ...p, units: p.units + 1n });
        const quantity = text({ ...q, units: q.units + 1n });
        const notional = { units: exactOf(price).units * exactOf(quantity).units, scale: exactOf(price).scale + exactOf(quantity).scale };
        const one = { units: 1n, scale: notional.scale };
        const withMin = (minNotional: Exact) => checkOrder({ symbol: 'X', minNotional: textOf(minNotional) }, limit(price, quantity));
        expect(withMin(notional)).toBeUndefined();
        expect(withMin(plus(notional, one))).toMatchObject({ rule: 'minNotional', value: canonical(textOf(notional)) });
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});

// ---- fitOrder -------------------------------------------------------------------------------------------------


describe('fitOrder', () => {
  const rules: SymbolRules = { symbol: 'BTCUSDT', tickSize: '0.01', stepSize: '0.0001', minQty: '0.0001', minNotional: '5', minAmount: '10' };

  it('fits a limit order (a buy down, a sell up, the quantity down) and keeps the rest of it', () => {
    const sell: NewOrderRequest = { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '30000.005', quantity: '0.123456', newClientOrderId: 'c1' };
    expect(fitOrder(rules, sell)).toEqual({ ...sell, price: '30000.01', quantity: '0.1234' });
    const buy: NewOrderRequest = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', price: '30000.009', quantity: '0.1', timeInForce: 'GTC' };
    expect(fitOrder(rules, buy)).toEqual({ ...buy, price: '30000' });
  });

  it('fits the quantity of a market order and checks its amount', () => {
    expect(fitOrder(rules, { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.123456' })).toEqual({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '0.1234',
    });
    const spend: NewOrderRequest = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', amount: '10.123' };
    expect(fitOrder(rules, spend)).toBe(spend);
    expect(thrown(() => fitOrder(rules, { ...spend, amount: '9' }))).toMatchObject({ rule: 'minAmount', value: '9' });
  });

  it('throws the rule a fitted order still breaks, or the one an unfit value breaks', () => {
    const order = (price: DecimalText, quantity: DecimalText): NewOrderRequest => ({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price, quantity });
    expect(thrown(() => fitOrder(rules, order('30000', '0.0001')))).toEqual(new OrderRuleError('BTCUSDT', 'notional', 'minNotional', '5', '3'));
    expect(thrown(() => fitOrder(rules, order('30000', '0.00001')))).toMatchObject({ rule: 'minQty', value: '0.00001' });
    expect(thrown(() => fitOrder(rules, order('0.001', '1')))).toMatchObject({ rule: 'tickSize', value: '0.001' });
    expect(thrown(() => fitOrder(rules, order('-1', '1')))).toMatchObject({ rule: 'decimal', value: '"-1"' });
    expect(thrown(() => fitOrder({ ...rules, symbol: 'ETHUSDT' }, order('1', '1')))).toBeInstanceOf(ConfigError);
  });

  it('writes wire text (an exponent) as plain text', () => {
    expect(fitOrder(rules, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1e4', quantity: '1' })).toMatchObject({ price: '10000', quantity: '1' });
  });
});
