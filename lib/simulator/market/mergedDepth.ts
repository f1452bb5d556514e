import { formatFixed, SCALE } from '../../decimal/fixed';
import type { Level, SymbolMarket } from './market';
import { EXCHANGE_ID } from './marketRecords';

/**
 * The merged books of the simulator's public stream: `mergedDepth` (the book with its levels merged to `dumpScale`
 * decimals: bids rounded down, asks up, quantities summed) and `diffMergedDepth` (its snapshot, `o` 0, then the levels
 * that changed, a quantity of "0" for a level gone, `o` one more each push), as HashKey's V1 stream documents them.
 *
 * @internal
 * @module
 */

/** One side merged: price text → quantity text, best first. */
type MergedSide = Map<string, string>;

/** A book merged to `dumpScale` decimals, `levels` a side at most. @internal */
export interface MergedBook {
  readonly bids: MergedSide;
  readonly asks: MergedSide;
}

function mergeSide(m: SymbolMarket, levels: readonly Level[], dumpScale: number, up: boolean, limit: number): MergedSide {
  const decimals = Math.min(dumpScale, m.info.priceDecimals);
  const unit = 10n ** BigInt(SCALE - decimals);
  const out: MergedSide = new Map();
  let lastKey: bigint | undefined;
  let sum = 0n;
  const flush = (): void => {
    if (lastKey !== undefined) out.set(formatFixed(lastKey, decimals), formatFixed(sum, m.info.qtyDecimals));
  };
  for (const level of levels) {
    const q = level.price / unit;
    const key = (up && level.price % unit !== 0n ? q + 1n : q) * unit;
    if (key !== lastKey) {
      flush();
      if (out.size >= limit) return out;
      lastKey = key;
      sum = 0n;
    }
    sum += level.qty;
  }
  if (out.size < limit) flush();
  return out;
}

/** The book of `m` now, merged. @internal */
export function mergedBook(m: SymbolMarket, dumpScale: number, limit: number): MergedBook {
  const book = m.bookToWrite();
  return { bids: mergeSide(m, book.bids, dumpScale, false, limit), asks: mergeSide(m, book.asks, dumpScale, true, limit) };
}

/** A merged book as a depth record (levels best first), with sequence `o`. @internal */
export function mergedRecord(m: SymbolMarket, book: MergedBook, now: number, o: number): object {
  return { e: EXCHANGE_ID, s: m.info.symbol, t: now, v: `${m.bookToWrite().version}_${EXCHANGE_ID}`, o, a: [...book.asks], b: [...book.bids] };
}

/** The levels of `after` that differ from `before`, and those gone as quantity "0", best first. */
function diffSide(before: MergedSide, after: MergedSide): [string, string][] {
  const out: [string, string][] = [];
  for (const [p, q] of after) if (before.get(p) !== q) out.push([p, q]);
  for (const p of before.keys()) if (!after.has(p)) out.push([p, '0']);
  return out;
}

/** The delta from `before` to `after` as a depth record with sequence `o`. @internal */
export function deltaRecord(m: SymbolMarket, before: MergedBook, after: MergedBook, now: number, o: number): object {
  return { e: EXCHANGE_ID, s: m.info.symbol, t: now, v: `${m.bookToWrite().version}_${EXCHANGE_ID}`, o, a: diffSide(before.asks, after.asks), b: diffSide(before.bids, after.bids) };
}
