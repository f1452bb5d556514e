import { DecodeError } from '../../errors';
import type { KlineGap } from '../klineGap';

/** Why a page of candles is refused (see `KlineGap.fault`). @internal */
export type KlineRowFault = Exclude<NonNullable<KlineGap['fault']>, 'short'>;

/** The first row at fault in a page of candles, if any. @internal */
export interface KlinePageFault {
  readonly fault: KlineRowFault;
  readonly openTime: number;
}

/**
 * A page of `GET /quote/v1/klines` refused (see {@link klinePageFault}): a `DecodeError` (kind `codec`) on `errors$`
 * and as the gap's `error`, whose `fault` the gap carries. @internal
 */
export class KlinePageRefusedError extends DecodeError {
  constructor(
    symbol: string,
    interval: string,
    readonly fault: KlineRowFault,
    readonly openTime: number,
  ) {
    super('codec', `${symbol} ${interval}: a GET /quote/v1/klines page was refused: the row opening at ${openTime} is ${fault}`);
  }
}

/**
 * Checks a page of `GET /quote/v1/klines` as sent (oldest first): each open time later than the one before (the same
 * one twice: `'duplicate'`; an older one: `'out-of-order'`) and, with `gridMs > 0`, a whole number of intervals from
 * `anchor` (the first live candle's open time): else `'off-grid'` (rows 30 s apart are no 1-minute candles). `gridMs`
 * 0: an interval whose length is not fixed (a month) or not known; only the order is checked. @internal
 */
export function klinePageFault(candles: ReadonlyArray<{ readonly t: number }>, gridMs: number, anchor: number): KlinePageFault | undefined {
  let before = -Infinity;
  for (const { t } of candles) {
    if (t === before) return { fault: 'duplicate', openTime: t };
    if (t < before) return { fault: 'out-of-order', openTime: t };
    if (gridMs > 0 && (anchor - t) % gridMs !== 0) return { fault: 'off-grid', openTime: t };
    before = t;
  }
  return undefined;
}
