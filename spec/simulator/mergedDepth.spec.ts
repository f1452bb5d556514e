import { parseDecimal } from '../../lib/decimal/fixed';
import { idSource, type Level, SymbolMarket } from '../../lib/simulator/market/market';
import { deltaRecord, mergedBook, mergedRecord } from '../../lib/simulator/market/mergedDepth';
import { symbolInfo, type SymbolInfo } from '../../lib/simulator/market/symbols';

const d = (text: string): bigint => parseDecimal(text) ?? -1n;
const level = (price: string, qty: string): Level => ({ price: d(price), qty: d(qty) });

/** A recorded market whose book is the given levels. */
function market(bids: Level[], asks: Level[]): SymbolMarket {
  const m = new SymbolMarket(symbolInfo('BTCUSDT') as SymbolInfo, 1, idSource(5n), 1_700_000_000_000, true);
  m.setBook(bids, asks);
  return m;
}

describe('simulator merged books', () => {
  it('merges levels to dumpScale decimals: bids rounded down, asks up, quantities summed, best first', () => {
    const m = market([level('100.19', '1'), level('100.11', '2'), level('99.99', '0.5')], [level('100.21', '1'), level('100.29', '3'), level('100.3', '1')]);
    const book = mergedBook(m, 1, 200);
    expect([...book.bids.keys()]).toEqual(['100.1', '99.9']);
    expect([...book.asks.keys()]).toEqual(['100.3']);
    expect(Number(book.bids.get('100.1'))).toBe(3);
    expect(Number(book.asks.get('100.3'))).toBe(5);
    expect([...mergedBook(m, 0, 200).bids.keys()]).toEqual(['100', '99']);
    expect([...mergedBook(m, 1, 1).bids.keys()]).toEqual(['100.1']);
  });

  it('a delta holds the changed levels and the removed ones at quantity "0"; a snapshot is o 0', () => {
    const m = market([level('100.1', '1')], [level('100.3', '1')]);
    const before = mergedBook(m, 1, 200);
    expect(mergedRecord(m, before, 5, 0)).toMatchObject({ s: 'BTCUSDT', t: 5, o: 0, b: [['100.1', before.bids.get('100.1')]] });
    m.setBook([level('100.2', '2')], [level('100.3', '1')]);
    const after = mergedBook(m, 1, 200);
    const delta = deltaRecord(m, before, after, 6, 1) as { o: number; b: string[][]; a: string[][] };
    expect(delta.o).toBe(1);
    expect(delta.a).toEqual([]);
    expect(delta.b).toEqual([['100.2', after.bids.get('100.2')], ['100.1', '0']]);
  });
});
