import { candleStart } from '../../lib/simulator/market/candles';
import { mul, parseDecimal, unit } from '../../lib/decimal/fixed';
import { idSource, SymbolMarket } from '../../lib/simulator/market/market';
import { depthRecord } from '../../lib/simulator/market/marketRecords';
import { symbolInfo, type SymbolInfo } from '../../lib/simulator/market/symbols';

const d = (text: string): bigint => parseDecimal(text) ?? -1n;
const T0 = 1_700_000_000_000;
const BTC = symbolInfo('BTCUSDT') as SymbolInfo;
const TICK = unit(BTC.priceDecimals);
const LOT = unit(BTC.qtyDecimals);
const market = (seed = 1, info: SymbolInfo = BTC): SymbolMarket => new SymbolMarket(info, seed, idSource(1n), T0);

describe('idSource', () => {
  it('counts up from its start, one at a time', () => {
    const ids = idSource(2n ** 63n - 2n);
    expect([ids.next(), ids.next(), ids.next()]).toEqual([2n ** 63n - 2n, 2n ** 63n - 1n, 2n ** 63n]);
  });
});

describe('SymbolMarket', () => {
  it('starts with a history of at least 100 trades before its start time, ids in order', () => {
    const m = market();
    expect(m.trades.length).toBeGreaterThanOrEqual(100);
    expect(m.trades.every((t) => t.t < T0 && t.t >= T0 - 30_000)).toBe(true);
    expect(m.trades.map((t) => t.id)).toEqual(m.trades.map((_, i) => BigInt(i + 1)));
  });

  it('is deterministic: same seed and steps, same market; another seed, another market', () => {
    const a = market(7);
    const b = market(7);
    for (let i = 1; i <= 20; i++) expect(a.step(T0 + i)).toEqual(b.step(T0 + i));
    expect(a.book()).toEqual(b.book());
    expect(market(8).trades).not.toEqual(market(7).trades);
  });

  it('gives a depth push the book of the step, and the levels orders took (bookToWrite keeps no book of its own)', () => {
    const m = market(5);
    m.step(T0 + 1);
    const written = m.bookToWrite();
    expect(m.bookToWrite()).toEqual(written); // the same step, the same book, generated again
    expect(m.bookToWrite()).not.toBe(written);
    expect(m.book()).toEqual(written);
    const best = m.book().asks[0]!;
    m.take('BUY', undefined, best.qty); // the best ask, taken whole: gone until the next step
    expect(m.bookToWrite()).toBe(m.book());
    expect(m.bookToWrite().asks[0]!.price).toBe(best.price + TICK);
    m.step(T0 + 2);
    expect(m.bookToWrite().version).toBe(written.version + 1);
    expect(m.bookToWrite().asks).toHaveLength(200);
  });

  it("writes a depth record from the step's levels in units (no bigint a level) exactly as from its book", () => {
    const infos = [
      BTC,
      symbolInfo('XRPUSDT') as SymbolInfo, // 6 price decimals
      symbolInfo('ETHBTC', { tickSize: '0.00001', stepSize: '0.001' }) as SymbolInfo,
      symbolInfo('BTCUSDT', { tickSize: '0.5', stepSize: '1' }) as SymbolInfo, // 1 decimal, whole lots
      symbolInfo('DOGEUSDT', { tickSize: '0.000001', stepSize: '0.00000001' }) as SymbolInfo,
      symbolInfo('LOWUSDT', { tickSize: '1', stepSize: '0.1' }) as SymbolInfo, // whole prices
    ];
    for (const [k, info] of infos.entries()) {
      const m = market(11 + k, info);
      for (let step = 0; step < 6; step++) {
        m.step(T0 + step);
        for (const levels of [200, 20, 1, 0, 300]) {
          const fromUnits = JSON.stringify(depthRecord(m, levels, T0));
          expect(m.freshLevels(levels)).toBeDefined();
          const probe = market(11 + k, info); // the same market, its book generated (the path a touched book takes)
          for (let s = 0; s <= step; s++) probe.step(T0 + s);
          probe.book();
          expect(probe.freshLevels(levels)).toBeUndefined();
          expect(fromUnits).toBe(JSON.stringify(depthRecord(probe, levels, T0)));
        }
      }
    }
    const low = market(3); // moved down to 5 ticks: the bid side stops after 4 levels, in both forms
    low.moveTo(5n * TICK);
    const lowRecord = JSON.stringify(depthRecord(low, 200, T0));
    expect(low.book().bids).toHaveLength(4);
    expect(JSON.stringify(depthRecord(low, 200, T0))).toBe(lowRecord);
    const fine = market(1, symbolInfo('BTCUSDT', { tickSize: '0.00000000000001' }) as SymbolInfo); // 30 000 × 10^14 units: past 2^52
    expect(fine.freshLevels(200)).toBeUndefined();
    expect((depthRecord(fine, 2, T0) as { a: string[][] }).a).toHaveLength(2);
  });

  it('trades at the best bid (taker sold, m) or the best ask, one tick each side of the mid, in lots', () => {
    const m = market(3);
    for (let i = 0; i < 50; i++) {
      const made = m.step(T0 + i);
      const { bid, ask } = m.best();
      expect(ask - bid).toBe(2n * TICK);
      expect(made.length).toBeGreaterThanOrEqual(1);
      expect(made.length).toBeLessThanOrEqual(3);
      for (const t of made) {
        expect(t.price).toBe(t.m ? bid : ask);
        expect(t.qty % LOT).toBe(0n);
        expect(t.qty > 0n).toBe(true);
      }
    }
  });

  it('never walks the mid below 1000 ticks', () => {
    const info: SymbolInfo = { ...BTC, startPrice: 1000n * TICK };
    const m = market(5, info);
    for (let i = 0; i < 300; i++) {
      m.step(T0 + i);
      expect(m.best().bid + TICK >= 1000n * TICK).toBe(true);
    }
  });

  it('builds a book of 200 levels a side from the best prices, a tick apart, uncrossed, kept until the next step', () => {
    const m = market();
    const book = m.book();
    const { bid, ask } = m.best();
    expect(book.asks).toHaveLength(200);
    expect(book.bids).toHaveLength(200);
    expect(book.asks.map((l) => l.price)).toEqual(book.asks.map((_, i) => ask + BigInt(i) * TICK));
    expect(book.bids.map((l) => l.price)).toEqual(book.bids.map((_, i) => bid - BigInt(i) * TICK));
    expect([...book.asks, ...book.bids].every((l) => l.qty > 0n && l.qty % LOT === 0n)).toBe(true);
    expect(m.book()).toBe(book);
    m.step(T0);
    expect(m.book()).not.toBe(book);
    expect(m.book().version).toBe(book.version + 1);
  });

  it('stops the bid side at a positive price', () => {
    const info: SymbolInfo = { ...BTC, startPrice: 100n * TICK };
    const bids = new SymbolMarket(info, 1, idSource(1n), T0).book().bids;
    expect(bids.every((l) => l.price > 0n)).toBe(true);
  });

  it('takes liquidity best first up to the limit and the quantity, and the book keeps what was taken', () => {
    const m = market();
    const [a0, a1, a2] = m.book().asks.map((l) => ({ ...l }));
    if (a0 === undefined || a1 === undefined || a2 === undefined) throw new Error('book too short');
    const wanted = a0.qty + a1.qty / 2n;
    const fills = m.take('BUY', a2.price, wanted);
    expect(fills).toEqual([
      { price: a0.price, qty: a0.qty },
      { price: a1.price, qty: a1.qty / 2n },
    ]);
    expect(m.book().asks[0]).toEqual({ price: a1.price, qty: a1.qty - a1.qty / 2n });
  });

  it('takes nothing beyond the limit (BUY above it, SELL below it)', () => {
    const m = market();
    const { bid, ask } = m.best();
    expect(m.take('BUY', ask - TICK, d('1'))).toEqual([]);
    expect(m.take('SELL', bid + TICK, d('1'))).toEqual([]);
    const sold = m.take('SELL', bid - TICK, d('1000000'));
    expect(sold.map((f) => f.price)).toEqual([bid, bid - TICK]);
  });

  it('records a trade in the history, the last price, the ticker and the candles of every interval', () => {
    const m = market();
    const before = { ...m.stats() };
    const t = T0 + 61_000;
    const high = before.high + d('10');
    const trade = m.recordTrade(high, d('2'), false, t);
    expect(m.trades[m.trades.length - 1]).toBe(trade);
    expect(m.lastPrice).toBe(high);
    expect(m.stats()).toEqual({
      open: before.open,
      high,
      low: before.low,
      volume: before.volume + d('2'),
      quoteVolume: before.quoteVolume + mul(high, d('2')),
    });
    expect(m.candle('1m', t)).toMatchObject({ t: candleStart('1m', t), h: high, c: high, v: d('2') });
    expect(m.candle('1d', t)).toMatchObject({ h: high, c: high });
  });

  it('opens a candle flat at the last price when its interval starts', () => {
    const m = market();
    const t = T0 + 10 * 60_000;
    expect(m.candle('1m', t)).toEqual({ t: candleStart('1m', t), o: m.lastPrice, h: m.lastPrice, l: m.lastPrice, c: m.lastPrice, v: 0n, qv: 0n, n: 0 });
  });

  it('keeps the last 1000 trades', () => {
    const m = market();
    for (let i = 0; i < 1200; i++) m.recordTrade(d('30000'), LOT, false, T0 + i);
    expect(m.trades).toHaveLength(1000);
    expect(m.trades[999]?.t).toBe(T0 + 1199);
    expect(m.trades[0]?.t).toBe(T0 + 200);
  });

  it('moves the mid to a price (truncated to the tick grid) and rebuilds the book around it', () => {
    const m = market();
    const old = m.book();
    m.moveTo(d('25000.015'));
    expect(m.best()).toEqual({ bid: d('25000'), ask: d('25000.02') });
    expect(m.book()).not.toBe(old);
    expect(m.book().asks[0]?.price).toBe(d('25000.02'));
  });
});
