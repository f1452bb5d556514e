import { rejections } from '../../lib/simulator/httpErrors';
import { formatDecimal, parseDecimal } from '../../lib/simulator/decimal';
import { idSource, SymbolMarket } from '../../lib/simulator/market';
import { depth, exchangeInfo, klines, trades } from '../../lib/simulator/marketRest';
import { symbolInfo, type SymbolInfo } from '../../lib/simulator/symbols';

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

/** A market whose history is exactly the given trades (price, qty, time). */
const withTrades = (list: ReadonlyArray<readonly [string, string, number]>): Map<string, SymbolMarket> => {
  const ms = markets();
  const m = ms.get('BTCUSDT') as SymbolMarket;
  m.trades.splice(0);
  for (const [p, q, t] of list) m.recordTrade(d(p), d(q), false, t);
  return ms;
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
