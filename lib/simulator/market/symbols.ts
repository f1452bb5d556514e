import { decimalsOf, parseDecimal } from '../../decimal/fixed';
import { symbolRules, type SymbolRules, type SymbolRulesOptions } from './symbolRules';

/** A trading pair of the simulator. @internal */
export interface SymbolInfo {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  /** Decimals of the tick size (prices are written with them). */
  readonly priceDecimals: number;
  /** Decimals of the step size (quantities are written with them). */
  readonly qtyDecimals: number;
  /** Start price, scaled decimal. */
  readonly startPrice: bigint;
  /** What placement enforces and `exchangeInfo` publishes. */
  readonly rules: SymbolRules;
}

const QUOTES = ['USDT', 'BTC', 'ETH'] as const;
const START: Readonly<Record<string, string>> = {
  BTCUSDT: '30000',
  ETHUSDT: '2000',
  ETHBTC: '0.066',
  SOLUSDT: '25',
  XRPUSDT: '0.5',
};

/**
 * Parses a pair name by its quote suffix (USDT, BTC, ETH); undefined for other names.
 * Start prices: a few well-known pairs, otherwise 100 (USDT) or 0.05 (BTC/ETH quote). Rules: tick 0.01 from a
 * start price of 10 up, else 0.000001; step 0.0001; `overrides` replace any of them (and throw when invalid,
 * see `symbolRules`).
 * @internal
 */
export function symbolInfo(symbol: string, overrides: SymbolRulesOptions = {}): SymbolInfo | undefined {
  if (!/^[A-Z0-9]{2,20}$/.test(symbol)) return undefined;
  const quote = QUOTES.find((q) => symbol.endsWith(q) && symbol.length > q.length);
  if (quote === undefined) return undefined;
  const startText = START[symbol] ?? (quote === 'USDT' ? '100' : '0.05');
  const startPrice = parseDecimal(startText) ?? 0n;
  const rules = symbolRules(symbol, Number(startText) >= 10 ? 2 : 6, 4, overrides);
  return {
    symbol,
    base: symbol.slice(0, symbol.length - quote.length),
    quote,
    priceDecimals: decimalsOf(rules.tickSize),
    qtyDecimals: decimalsOf(rules.stepSize),
    startPrice,
    rules,
  };
}
