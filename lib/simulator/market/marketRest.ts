import type { RequestParams } from '../http/auth';
import { candleHistory } from './candleHistory';
import { candleEnd, isKlineInterval } from './candles';
import { formatDecimal, formatFixed } from '../../decimal/fixed';
import { rejections, type HttpRejection } from '../http/httpErrors';
import type { SymbolMarket } from './market';
import { symbolFilters } from './symbolRules';

/** A market-data answer: a body, or a rejection. @internal */
export type MarketAnswer = { readonly ok: true; readonly body: unknown } | { readonly ok: false; readonly rejection: HttpRejection };

const fail = (rejection: HttpRejection): MarketAnswer => ({ ok: false, rejection });

/** An optional integer parameter in [min, max]: its value, the default when absent, null when invalid. */
const intParam = (params: RequestParams, name: string, fallback: number | undefined, min: number, max: number): number | undefined | null => {
  const v = params.get(name);
  if (v === undefined) return fallback;
  if (!/^\d{1,16}$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= max ? n : null;
};

const market = (markets: ReadonlyMap<string, SymbolMarket>, params: RequestParams): SymbolMarket | HttpRejection => {
  const symbol = params.get('symbol');
  if (symbol === undefined) return rejections.missingParameter('symbol');
  return markets.get(symbol) ?? rejections.invalidSymbol;
};

const isMarket = (m: SymbolMarket | HttpRejection): m is SymbolMarket => 'info' in m;

/**
 * `GET /api/v1/exchangeInfo`: every pair with its precisions (the tick and the step) and the filters placement
 * enforces (PRICE_FILTER, LOT_SIZE, MIN_NOTIONAL, TRADE_AMOUNT), decimal text. @internal
 */
export function exchangeInfo(markets: ReadonlyMap<string, SymbolMarket>, serverTime: number): object {
  return {
    timezone: 'UTC',
    serverTime: String(serverTime),
    symbols: [...markets.values()].map(({ info }) => {
      const tick = formatDecimal(info.rules.tickSize);
      const step = formatDecimal(info.rules.stepSize);
      return {
        symbol: info.symbol,
        symbolName: info.symbol,
        status: 'TRADING',
        baseAsset: info.base,
        baseAssetName: info.base,
        baseAssetPrecision: step,
        quoteAsset: info.quote,
        quoteAssetName: info.quote,
        quotePrecision: tick,
        icebergAllowed: false,
        isAggregate: false,
        allowMargin: false,
        filters: symbolFilters(info.rules),
      };
    }),
  };
}

/** `GET /quote/v1/depth` (symbol, limit default 100, max 200): `{ t, b: [[price, qty]], a: [[price, qty]] }`. @internal */
export function depth(markets: ReadonlyMap<string, SymbolMarket>, params: RequestParams, now: number): MarketAnswer {
  const m = market(markets, params);
  if (!isMarket(m)) return fail(m);
  const limit = intParam(params, 'limit', 100, 1, 200);
  if (limit == null) return fail(rejections.invalidParameter('limit'));
  const book = m.book();
  const side = (levels: typeof book.bids): string[][] => levels.slice(0, limit).map((l) => [formatDecimal(l.price), formatDecimal(l.qty)]);
  return { ok: true, body: { t: now, b: side(book.bids), a: side(book.asks) } };
}

/**
 * `GET /quote/v1/trades` (symbol, limit default 100, max 100): the latest trades, oldest first,
 * `[{ t, p, q, ibm, v }]` (`v`: the trade id as text, as on the public stream, so a client can merge them).
 * @internal
 */
export function trades(markets: ReadonlyMap<string, SymbolMarket>, params: RequestParams): MarketAnswer {
  const m = market(markets, params);
  if (!isMarket(m)) return fail(m);
  const limit = intParam(params, 'limit', 100, 1, 100);
  if (limit == null) return fail(rejections.invalidParameter('limit'));
  const body = m.trades.slice(-limit).map((t) => ({ t: t.t, p: formatDecimal(t.price), q: formatDecimal(t.qty), ibm: t.m, v: t.id.toString() }));
  return { ok: true, body };
}

/**
 * `GET /quote/v1/klines` (symbol, interval, startTime, endTime, limit default 500, max 1000): the candles the
 * `kline_<interval>` topic showed (closed ones kept, 1000 an interval, and the current one, as the topic pushes it
 * at `now`), an interval no trade touched as a flat candle at the close before, and, before the oldest, synthetic
 * candles of a generated market (see `candleHistory`: a history of any length, continuous, the same each time):
 * `[[openTime, o, h, l, c, v, closeTime, qv, n]]`, oldest first, one per interval of the grid, prices and volumes as
 * decimal text written as the stream's kline records write them (the pair's price and quantity decimals).
 * @internal
 */
export function klines(markets: ReadonlyMap<string, SymbolMarket>, params: RequestParams, now?: number): MarketAnswer {
  const m = market(markets, params);
  if (!isMarket(m)) return fail(m);
  const interval = params.get('interval');
  if (interval === undefined) return fail(rejections.missingParameter('interval'));
  if (!isKlineInterval(interval)) return fail(rejections.invalidParameter('interval'));
  const limit = intParam(params, 'limit', 500, 1, 1000);
  const from = intParam(params, 'startTime', 0, 0, Number.MAX_SAFE_INTEGER);
  const to = intParam(params, 'endTime', Number.MAX_SAFE_INTEGER, 0, Number.MAX_SAFE_INTEGER);
  if (limit == null) return fail(rejections.invalidParameter('limit'));
  if (from == null || to == null) return fail(rejections.invalidParameter(from == null ? 'startTime' : 'endTime'));
  const candles = candleHistory(m, interval, { from: from ?? 0, to: to ?? Number.MAX_SAFE_INTEGER, limit: limit ?? 500 }, now);
  // prices and volume written as the stream writes them (the pair's decimals), so a candle reads the same on both
  const price = (v: bigint): string => formatFixed(v, m.info.priceDecimals);
  const qty = (v: bigint): string => formatFixed(v, m.info.qtyDecimals);
  const body = candles.map((c) => [c.t, ...[c.o, c.h, c.l, c.c].map(price), qty(c.v), candleEnd(interval, c.t), formatDecimal(c.qv), c.n]);
  return { ok: true, body };
}
