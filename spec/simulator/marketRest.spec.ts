import { rejections } from '../../lib/simulator/http/httpErrors';
import { formatDecimal, parseDecimal } from '../../lib/decimal/fixed';
import { idSource, SymbolMarket } from '../../lib/simulator/market/market';
import { depth, exchangeInfo, klines, trades } from '../../lib/simulator/market/marketRest';
import { klineRecord } from '../../lib/simulator/market/marketRecords';
import { symbolInfo, type SymbolInfo } from '../../lib/simulator/market/symbols';

const d = (text: string): bigint => parseDecimal(text) ?? -1n;
const T0 = 1_700_000_040_000; // 40 s into a minute
const MIN = 60_000;

const markets = (): Map<string, SymbolMarket> => {
  const ids = idSource(5n);
  return new Map(
    ['BTCUSDT', 'ETHBTC'].map((s) => [s, new SymbolMarket(symbolInfo(s) as SymbolInfo, 1, ids, T0)] as const),
  );
};
const params = (p: Record<string, string> = {}): ReadonlyMap<string, string> => new Map(Object.entries(p));

/** A market whose history is exactly the given trades (price, qty, time): a recorded one (no generated history). */
const withTrades = (list: ReadonlyArray<readonly [string, string, number]>): Map<string, SymbolMarket> => {
  const m = new SymbolMarket(symbolInfo('BTCUSDT') as SymbolInfo, 1, idSource(5n), T0, true);
  for (const [p, q, t] of list) m.recordTrade(d(p), d(q), false, t);
  return new Map([['BTCUSDT', m]]);
};

describe('exchangeInfo', () => {
  it('lists every pair with its tick and step as decimal text and the server time as text', () => {
    const info = exchangeInfo(markets(), 123) as { serverTime: string; symbols: Array<Record<string, unknown>> };
    expect(info.serverTime).toBe('123');
    expect(info.symbols.map((s) => [s['symbol'], s['baseAsset'], s['quoteAsset'], s['quotePrecision'], s['baseAssetPrecision']])).toEqual([
      ['BTCUSDT', 'BTC', 'USDT', '0.01', '0.0001'],
      ['ETHBTC', 'ETH', 'BTC', '0.000001', '0.0001'],
    ]);
    expect(info.symbols[0]?.['filters']).toEqual([
      { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '100000000', tickSize: '0.01' },
      { filterType: 'LOT_SIZE', minQty: '0.0001', maxQty: '100000000', stepSize: '0.0001' },
      { filterType: 'MIN_NOTIONAL', minNotional: '0' },
      { filterType: 'TRADE_AMOUNT', minAmount: '0', maxAmount: '100000000' },
    ]);
  });
});

describe('depth', () => {
  it('answers the book of the pair, 100 levels a side by default, as decimal text', () => {
    const ms = markets();
    const answer = depth(ms, params({ symbol: 'BTCUSDT' }), 99);
    if (!answer.ok) throw new Error('rejected');
    const body = answer.body as { t: number; b: string[][]; a: string[][] };
    const book = (ms.get('BTCUSDT') as SymbolMarket).book();
    expect(body.t).toBe(99);
    expect(body.b).toHaveLength(100);
    expect(body.a).toHaveLength(100);
    expect(body.a).toEqual(book.asks.slice(0, 100).map((l) => [formatDecimal(l.price), formatDecimal(l.qty)]));
    expect(body.b).toEqual(book.bids.slice(0, 100).map((l) => [formatDecimal(l.price), formatDecimal(l.qty)]));
  });

  it.each([
    ['1', 1],
    ['200', 200],
  ])('takes limit=%s', (limit, levels) => {
    const answer = depth(markets(), params({ symbol: 'BTCUSDT', limit }), 0);
    expect(answer.ok && (answer.body as { a: unknown[] }).a.length).toBe(levels);
  });

  it.each(['0', '201', '-1', '1.5', 'x', ''])('rejects limit=%j', (limit) => {
    expect(depth(markets(), params({ symbol: 'BTCUSDT', limit }), 0)).toEqual({ ok: false, rejection: rejections.invalidParameter('limit') });
  });

  it('rejects a missing or unknown symbol', () => {
    expect(depth(markets(), params(), 0)).toEqual({ ok: false, rejection: rejections.missingParameter('symbol') });
    expect(depth(markets(), params({ symbol: 'DOGEUSDT' }), 0)).toEqual({ ok: false, rejection: rejections.invalidSymbol });
  });
});

describe('trades', () => {
  it('answers the latest trades oldest first, ids as text, at most limit (default 100, max 100)', () => {
    const ms = withTrades(Array.from({ length: 150 }, (_, i) => ['30000', '1', T0 + i] as const));
    const all = trades(ms, params({ symbol: 'BTCUSDT' }));
    if (!all.ok) throw new Error('rejected');
    const body = all.body as Array<{ t: number; p: string; q: string; ibm: boolean; v: string }>;
    expect(body).toHaveLength(100);
    expect(body[0]).toEqual({ t: T0 + 50, p: '30000', q: '1', ibm: false, v: expect.stringMatching(/^\d+$/) });
    expect(body[99]?.t).toBe(T0 + 149);
    const two = trades(ms, params({ symbol: 'BTCUSDT', limit: '2' }));
    expect(two.ok && (two.body as Array<{ t: number }>).map((t) => t.t)).toEqual([T0 + 148, T0 + 149]);
  });

  it('rejects limit above 100, a missing or unknown symbol', () => {
    expect(trades(markets(), params({ symbol: 'BTCUSDT', limit: '101' }))).toEqual({ ok: false, rejection: rejections.invalidParameter('limit') });
    expect(trades(markets(), params())).toEqual({ ok: false, rejection: rejections.missingParameter('symbol') });
    expect(trades(markets(), params({ symbol: 'NOPEUSDT' }))).toEqual({ ok: false, rejection: rejections.invalidSymbol });
  });
});

describe('klines', () => {
  const start = Math.floor(T0 / MIN) * MIN;
  const ms = () =>
    withTrades([
      ['10', '1', start + 1],
      ['12', '2', start + 2],
      ['9', '1', start + 3],
      ['11', '0.5', start + MIN + 5],
    ]);

  it('builds candles from the trade history: open, high, low, close, volume (the pair\'s decimals, as the stream writes them), close time, quote volume, count', () => {
    const answer = klines(ms(), params({ symbol: 'BTCUSDT', interval: '1m' }));
    expect(answer).toEqual({
      ok: true,
      body: [
        [start, '10.00', '12.00', '9.00', '9.00', '4.0000', start + MIN - 1, '43', 3],
        [start + MIN, '11.00', '11.00', '11.00', '11.00', '0.5000', start + 2 * MIN - 1, '5.5', 1],
      ],
    });
  });

  it('keeps candles whose open time is in [startTime, endTime], the last limit of them', () => {
    const body = (p: Record<string, string>) => {
      const a = klines(ms(), params({ symbol: 'BTCUSDT', interval: '1m', ...p }));
      return a.ok ? (a.body as number[][]).map((c) => c[0]) : a.rejection;
    };
    expect(body({ startTime: String(start + 1) })).toEqual([start + MIN]);
    expect(body({ endTime: String(start + MIN - 1) })).toEqual([start]);
    expect(body({ limit: '1' })).toEqual([start + MIN]);
    expect(body({ interval: '1h' })).toHaveLength(1);
  });

  describe('a history of any length on a generated market (issue 40: 20 asked, 3 came)', () => {
    const generated = () => new SymbolMarket(symbolInfo('BTCUSDT') as SymbolInfo, 1, idSource(5n), T0);
    const rows = (m: SymbolMarket, p: Record<string, string>, now = T0): Array<[number, string, string, string, string, string, number, string, number]> => {
      const a = klines(new Map([['BTCUSDT', m]]), params({ symbol: 'BTCUSDT', ...p }), now);
      if (!a.ok) throw new Error('refused');
      return a.body as Array<[number, string, string, string, string, string, number, string, number]>;
    };

    it.each([
      ['1m', MIN],
      ['1h', 60 * MIN],
      ['1d', 1440 * MIN],
    ])('answers limit (up to 1000) %s candles, one per interval of the grid, the last the current one, each opening at the close before', (interval, ms) => {
      const m = generated();
      const body = rows(m, { interval, limit: '1000' });
      expect(body).toHaveLength(1000);
      const now = Math.floor(T0 / ms) * ms;
      expect(body.map((r) => r[0])).toEqual(Array.from({ length: 1000 }, (_, i) => now - (999 - i) * ms));
      for (let i = 1; i < body.length; i++) expect(body[i]![1]).toBe(body[i - 1]![4]); // o = the close before
      for (const [, o, h, l, c, v] of body) {
        expect(Number(h)).toBeGreaterThanOrEqual(Math.max(Number(o), Number(c)));
        expect(Number(l)).toBeLessThanOrEqual(Math.min(Number(o), Number(c)));
        expect(Number(l)).toBeGreaterThan(0);
        expect(Number(v)).toBeGreaterThanOrEqual(0);
      }
    });

    it('the same candles every time and page by page (endTime before the oldest), the current one as the topic pushes it', () => {
      const m = generated();
      const all = rows(m, { interval: '1m', limit: '1000' });
      const newer = rows(m, { interval: '1m', limit: '500' });
      const older = rows(m, { interval: '1m', limit: '500', endTime: String(newer[0]![0] - 1) });
      expect([...older, ...newer]).toEqual(all);
      expect(rows(generated(), { interval: '1m', limit: '1000' })).toEqual(all);
      const live = klineRecord(m, '1m', T0) as Record<string, unknown>;
      const current = all[all.length - 1]!;
      expect([current[0], current[1], current[2], current[3], current[4], current[5]]).toEqual([live['t'], live['o'], live['h'], live['l'], live['c'], live['v']]);
    });

    it('a candle the topic showed closed reads the same over HTTP once it is history', () => {
      const m = generated();
      const shown = new Map<number, unknown[]>();
      for (let t = T0; t < T0 + 5 * MIN; t += 1000) {
        m.step(t);
        const r = klineRecord(m, '1m', t) as Record<string, unknown>;
        shown.set(r['t'] as number, [r['o'], r['h'], r['l'], r['c'], r['v']]);
      }
      const body = rows(m, { interval: '1m', limit: '10' }, T0 + 5 * MIN);
      for (const [t, o, h, l, c, v] of body) if (shown.has(t) && t < T0 + 4 * MIN) expect([o, h, l, c, v]).toEqual(shown.get(t));
      expect(body.filter(([t]) => shown.has(t)).length).toBeGreaterThanOrEqual(5);
    });

    it('a recorded market (paper fills) serves only what it played: no synthetic candle', () => {
      expect(rows(withTrades([['10', '1', T0]]).get('BTCUSDT') as SymbolMarket, { interval: '1m', limit: '1000' })).toHaveLength(1);
    });
  });

  it('rejects a missing or unknown interval and bad bounds', () => {
    const k = (p: Record<string, string>) => klines(ms(), params({ symbol: 'BTCUSDT', ...p }));
    expect(k({})).toEqual({ ok: false, rejection: rejections.missingParameter('interval') });
    expect(k({ interval: '2m' })).toEqual({ ok: false, rejection: rejections.invalidParameter('interval') });
    expect(k({ interval: '1m', limit: '1001' })).toEqual({ ok: false, rejection: rejections.invalidParameter('limit') });
    expect(k({ interval: '1m', startTime: 'yesterday' })).toEqual({ ok: false, rejection: rejections.invalidParameter('startTime') });
    expect(k({ interval: '1m', endTime: '-5' })).toEqual({ ok: false, rejection: rejections.invalidParameter('endTime') });
    expect(klines(ms(), params({ interval: '1m' }))).toEqual({ ok: false, rejection: rejections.missingParameter('symbol') });
  });
});
