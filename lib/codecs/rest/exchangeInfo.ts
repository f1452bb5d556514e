import * as t from 'io-ts';
import { DecimalString, IntFromNumberOrString } from '../primitives';
import { struct } from '../struct';

/**
 * One filter of a symbol (`PRICE_FILTER`, `LOT_SIZE`, `MIN_NOTIONAL`, ...): its `filterType` and the usual
 * bounds as decimal text when present; other fields ignored.
 *
 * @example
 * ```ts
 * import { SymbolFilterCodec } from 'ex-streams';
 * SymbolFilterCodec.is({ filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '100', stepSize: '0.001' }); // true
 * ```
 */
export const SymbolFilterCodec = struct(
  'SymbolFilter',
  { filterType: t.string },
  {
    minPrice: DecimalString, maxPrice: DecimalString, tickSize: DecimalString,
    minQty: DecimalString, maxQty: DecimalString, stepSize: DecimalString,
    minNotional: DecimalString, minAmount: DecimalString, maxAmount: DecimalString,
  },
);
/**
 * A decoded symbol filter.
 *
 * @example
 * ```ts
 * import type { SymbolFilter } from 'ex-streams';
 *
 * const tick: SymbolFilter = { filterType: 'PRICE_FILTER', tickSize: '0.01' };
 * ```
 */
export type SymbolFilter = t.TypeOf<typeof SymbolFilterCodec>;

/**
 * One symbol of `GET /api/v1/exchangeInfo`: `symbol`, and when sent its `status`, assets, precisions and
 * `filters`. Extra fields ignored.
 *
 * @example
 * ```ts
 * import { SymbolInfoCodec } from 'ex-streams';
 * SymbolInfoCodec.is({ symbol: 'BTCUSDT', status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'USDT', filters: [] }); // true
 * ```
 */
export const SymbolInfoCodec = struct(
  'SymbolInfo',
  { symbol: t.string },
  {
    symbolName: t.string, status: t.string, baseAsset: t.string, quoteAsset: t.string,
    baseAssetPrecision: DecimalString, quotePrecision: DecimalString, filters: t.array(SymbolFilterCodec),
  },
);
/**
 * A decoded symbol description.
 *
 * @example
 * ```ts
 * import type { SymbolInfo } from 'ex-streams';
 *
 * const info: SymbolInfo = { symbol: 'BTCUSDT', status: 'TRADING', filters: [{ filterType: 'LOT_SIZE', stepSize: '0.001' }] };
 * ```
 */
export type SymbolInfo = t.TypeOf<typeof SymbolInfoCodec>;

/**
 * Answer of `GET /api/v1/exchangeInfo`: the `symbols` and their filters (and `serverTime`, `timezone` when sent).
 *
 * @example
 * ```ts
 * import { ExchangeInfoCodec } from 'ex-streams';
 * ExchangeInfoCodec.is({ timezone: 'UTC', symbols: [{ symbol: 'BTCUSDT' }] }); // true
 * ```
 */
export const ExchangeInfoCodec = struct(
  'ExchangeInfo',
  { symbols: t.array(SymbolInfoCodec) },
  { timezone: t.string, serverTime: IntFromNumberOrString },
);
/**
 * A decoded `GET /api/v1/exchangeInfo` answer.
 *
 * @example
 * ```ts
 * import type { ExchangeInfo } from 'ex-streams';
 *
 * const info: ExchangeInfo = { symbols: [{ symbol: 'BTCUSDT', status: 'TRADING' }] };
 * ```
 */
export type ExchangeInfo = t.TypeOf<typeof ExchangeInfoCodec>;
