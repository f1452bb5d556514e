import { parseDecimal } from './decimal';

/** A trading pair of the simulator. @internal */
export interface SymbolInfo {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly priceDecimals: number;
  readonly qtyDecimals: number;
  /** Start price, scaled decimal. */
  readonly startPrice: bigint;
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
 * Start prices: a few well-known pairs, otherwise 100 (USDT) or 0.05 (BTC/ETH quote).
 * @internal
 */
export function symbolInfo(symbol: string): SymbolInfo | undefined {
  if (!/^[A-Z0-9]{2,20}$/.test(symbol)) return undefined;
  const quote = QUOTES.find((q) => symbol.endsWith(q) && symbol.length > q.length);
  if (quote === undefined) return undefined;
  const startText = START[symbol] ?? (quote === 'USDT' ? '100' : '0.05');
  const startPrice = parseDecimal(startText) ?? 0n;
  return {
    symbol,
    base: symbol.slice(0, symbol.length - quote.length),
    quote,
    priceDecimals: Number(startText) >= 10 ? 2 : 6,
    qtyDecimals: 4,
    startPrice,
  };
}
