import * as t from 'io-ts';
import { DecimalString, IntFromNumberOrString } from '../primitives';
import { declaredAs, struct } from '../struct';
import type { DecimalText } from '../../decimal';

/**
 * One filter of a symbol (`PRICE_FILTER`, `LOT_SIZE`, `MIN_NOTIONAL`, ...): its `filterType` and the usual
 * bounds as decimal text when present; other fields ignored.
 *
 * @example
 * ```ts
 * import { SymbolFilterCodec } from 'ex-streams/codecs';
 * SymbolFilterCodec.is({ filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '100', stepSize: '0.001' }); // true
 * ```
 */
export const SymbolFilterCodec = declaredAs<SymbolFilter>()(struct(
  'SymbolFilter',
  { filterType: t.string },
  {
    minPrice: DecimalString, maxPrice: DecimalString, tickSize: DecimalString,
    minQty: DecimalString, maxQty: DecimalString, stepSize: DecimalString,
    minNotional: DecimalString, minAmount: DecimalString, maxAmount: DecimalString,
  },
));
/**
 * A decoded symbol filter.
 *
 * @example
 * ```ts
 * import type { SymbolFilter } from 'ex-streams/rest';
 *
 * const tick: SymbolFilter = { filterType: 'PRICE_FILTER', tickSize: '0.01' };
 * ```
 */
export interface SymbolFilter {
  /** Filter type, text (`'PRICE_FILTER'`, `'LOT_SIZE'`, `'MIN_NOTIONAL'`, ...). */
  readonly filterType: string;
  /** Lowest price: decimal text, when sent. */
  readonly minPrice?: DecimalText;
  /** Highest price: decimal text, when sent. */
  readonly maxPrice?: DecimalText;
  /** Price step: decimal text, when sent. */
  readonly tickSize?: DecimalText;
  /** Lowest quantity (base asset): decimal text, when sent. */
  readonly minQty?: DecimalText;
  /** Highest quantity (base asset): decimal text, when sent. */
  readonly maxQty?: DecimalText;
  /** Quantity step (base asset): decimal text, when sent. */
  readonly stepSize?: DecimalText;
  /** Lowest order value (quote asset): decimal text, when sent. */
  readonly minNotional?: DecimalText;
  /** Lowest order amount (quote asset): decimal text, when sent. */
  readonly minAmount?: DecimalText;
  /** Highest order amount (quote asset): decimal text, when sent. */
  readonly maxAmount?: DecimalText;
}

/**
 * One symbol of `GET /api/v1/exchangeInfo`: `symbol`, and when sent its `status`, assets, precisions and
 * `filters`. Extra fields ignored.
 *
 * @example
 * ```ts
 * import { SymbolInfoCodec } from 'ex-streams/codecs';
 * SymbolInfoCodec.is({ symbol: 'BTCUSDT', status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'USDT', filters: [] }); // true
 * ```
 */
export const SymbolInfoCodec = declaredAs<SymbolInfo>()(struct(
  'SymbolInfo',
  { symbol: t.string },
  {
    symbolName: t.string, status: t.string, baseAsset: t.string, quoteAsset: t.string,
    baseAssetPrecision: DecimalString, quotePrecision: DecimalString, filters: t.array(SymbolFilterCodec),
  },
));
/**
 * A decoded symbol description.
 *
 * @example
 * ```ts
 * import type { SymbolInfo } from 'ex-streams/rest';
 *
 * const info: SymbolInfo = { symbol: 'BTCUSDT', status: 'TRADING', filters: [{ filterType: 'LOT_SIZE', stepSize: '0.001' }] };
 * ```
 */
export interface SymbolInfo {
  /** Symbol (currency pair id), text. */
  readonly symbol: string;
  /** Currency pair name, text, when sent. */
  readonly symbolName?: string;
  /** Trading status, text as sent (e.g. `'TRADING'`). */
  readonly status?: string;
  /** Base asset, text (e.g. `'BTC'`), when sent. */
  readonly baseAsset?: string;
  /** Quote asset, text (e.g. `'USDT'`), when sent. */
  readonly quoteAsset?: string;
  /** Base asset precision: decimal text, as sent, when sent. */
  readonly baseAssetPrecision?: DecimalText;
  /** Quote precision: decimal text, as sent, when sent. */
  readonly quotePrecision?: DecimalText;
  /** The symbol's filters, when sent. */
  readonly filters?: SymbolFilter[];
}

/**
 * Answer of `GET /api/v1/exchangeInfo`: the `symbols` and their filters (and `serverTime`, `timezone` when sent).
 *
 * @example
 * ```ts
 * import { ExchangeInfoCodec } from 'ex-streams/codecs';
 * ExchangeInfoCodec.is({ timezone: 'UTC', symbols: [{ symbol: 'BTCUSDT' }] }); // true
 * ```
 */
export const ExchangeInfoCodec = declaredAs<ExchangeInfo>()(struct(
  'ExchangeInfo',
  { symbols: t.array(SymbolInfoCodec) },
  { timezone: t.string, serverTime: IntFromNumberOrString },
));
/**
 * A decoded `GET /api/v1/exchangeInfo` answer.
 *
 * @example
 * ```ts
 * import type { ExchangeInfo } from 'ex-streams/rest';
 *
 * const info: ExchangeInfo = { symbols: [{ symbol: 'BTCUSDT', status: 'TRADING' }] };
 * ```
 */
export interface ExchangeInfo {
  /** The symbols. */
  readonly symbols: SymbolInfo[];
  /** Time zone, text (e.g. `'UTC'`), when sent. */
  readonly timezone?: string;
  /** Server time: milliseconds since the Unix epoch, when sent. */
  readonly serverTime?: number;
}
