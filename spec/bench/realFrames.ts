/**
 * Frames shaped like the real service's, for the socket-free public-API benchmark (`publicApi.ts`): ids and
 * times as text, `params.binary` as `"false"`, fields the library does not read (`site`, `channelId`), ids
 * above 2^53. Each frame is numbered: trade ids, candle and book times, and the execution reports' `E`/`U`
 * grow with the number, so the de-duplication of `trades()` and of the user stream keeps every frame.
 */

export const REAL_SYMBOL = 'BTCUSDT';

/**
 * Real-shaped frame shapes: market topics and the private stream's `executionReport` array (the fills of one
 * limit order at its price, as a resting order is filled; `executionReportDivided`: fills whose average price is
 * no price of the frame, the slowest average to compute).
 */
export type RealShape = 'trade' | 'kline' | 'depth' | 'executionReport' | 'executionReportDivided';

/** First trade id: above 2^53 (9 007 199 254 740 992), as the service's are. */
const TRADE_ID0 = 1_447_335_405_363_150_849n;
/** First order id: above 2^53. */
const ORDER_ID = '1920153487203598336';
const T0 = 1_731_300_000_000;

/** The envelope around one data record, as the public stream sends it. */
function envelope(topic: string, params: string, record: string, n: number): string {
  return (
    `{"symbol":"${REAL_SYMBOL}","symbolName":"${REAL_SYMBOL}","topic":"${topic}","params":{${params}"binary":"false","realtimeInterval":"24h"},` +
    `"data":[${record}],"f":false,"sendTime":"${T0 + n}","shared":false,"site":"SG","channelId":"0242acfffe110002-0000000${n % 10}"}`
  );
}

function trade(n: number): string {
  const id = (TRADE_ID0 + BigInt(n)).toString();
  return envelope('trade', '', `{"v":"${id}","t":"${T0 + n}","p":"76321.${n % 100}","q":"0.000${(n % 900) + 100}","m":${n % 2 === 0}}`, n);
}

function kline(n: number): string {
  const t = T0 - (T0 % 60_000) + 60_000 * Math.floor(n / 64);
  return envelope(
    'kline',
    '"klineType":"1m",',
    `{"t":"${t}","s":"${REAL_SYMBOL}","sn":"${REAL_SYMBOL}","c":"76321.${n % 100}","h":"76399.9","l":"76250","o":"76300.4","v":"1.${n % 1000}"}`,
    n,
  );
}

/** 200 levels a side, as the service's full book. */
function levels(base: number, step: number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < 200; i++) out.push(`["${(base + i * step).toFixed(2)}","${(0.001 + (((i + n) * 7919) % 1000) / 997).toFixed(5)}"]`);
  return out.join(',');
}

function depth(n: number): string {
  return envelope(
    'depth',
    '',
    `{"e":301,"s":"${REAL_SYMBOL}","t":"${T0 + n}","v":"${6583 + n}_18","o":0,"a":[${levels(76321.15, 0.37, n)}],"b":[${levels(76320.8, -0.41, n)}]}`,
    n,
  );
}

/** First execution id: above 2^53. */
const EXECUTION_ID0 = 1_920_153_487_203_598_336n;

/** `units / 10^scale` as decimal text with 8 fraction digits (`scale` at most 8). */
const eightDigits = (units: number, scale: number): string => {
  const scaled = units * 10 ** (8 - scale);
  return `${Math.floor(scaled / 1e8)}.${String(scaled % 1e8).padStart(8, '0')}`;
};

/**
 * Fill `n` of one BUY limit order resting at 76321.50, as the service reports it: each fill a lot of 0.000001,
 * so the cumulative quantity `z` grows with `n` (up to the order's 1.0), `Z` is `z` × the price exactly, `V` the
 * average and `L` the price, `r` what is left; the same order and client order ids, a new execution id each
 * fill. `E` is `eventTimeMs` (the caller keeps it close to the stream's clock: the user stream drops events
 * further than 5 minutes off) and `U` grows with `n`.
 */
function executionReport(n: number, eventTimeMs: number): string {
  const lots = (n % 999_999) + 1;
  return (
    `[{"e":"executionReport","E":"${eventTimeMs}","s":"BTCUSDT","c":"1731300000123","S":"BUY","o":"LIMIT","f":"GTC",` +
    `"q":"1.00000000","p":"76321.50","reqAmt":"0","X":"PARTIALLY_FILLED","d":"${EXECUTION_ID0 + BigInt(n)}","i":"${ORDER_ID}",` +
    `"l":"0.00000100","r":"${eightDigits(1_000_000 - lots, 6)}","z":"${eightDigits(lots, 6)}","L":"76321.50","V":"76321.5","n":"0.00000001","N":"BTC",` +
    `"u":"true","w":"true","m":"true","O":"${T0}","U":"${T0 + n}","Z":"${eightDigits(lots * 763_215, 7)}","x":"NORMAL","C":"","v":"0","site":"SG"}]`
  );
}

/**
 * An order update whose average price `Z / z` is no price of the frame and has 18 fraction digits (`Z` stays,
 * `z` grows; the client order and execution ids change each frame): the most the fold's average can cost. As
 * {@link executionReport} for `E` and `U`.
 */
function executionReportDivided(n: number, eventTimeMs: number): string {
  return (
    `[{"e":"executionReport","E":"${eventTimeMs}","s":"ETHBTC","c":"1731300000${n % 1000}","S":"BUY","o":"LIMIT","f":"GTC",` +
    `"q":"1.00000000","p":"0.10264410","reqAmt":"0","X":"PARTIALLY_FILLED","d":"1920153487203598${n % 1000}","i":"${ORDER_ID}",` +
    `"l":"0.00100000","r":"0.99900000","z":"0.${String(n % 1_000_000).padStart(6, '0')}00","L":"0.10264410","V":"0.10264410","n":"0.00001","N":"ETH",` +
    `"u":"true","w":"true","m":"false","O":"${T0}","U":"${T0 + n}","Z":"0.05132205","x":"NORMAL","C":"","v":"0","site":"SG"}]`
  );
}

/** Frame number `n` of a shape as UTF-8 bytes (as `ws` delivers a text frame); `eventTimeMs` sets an execution report's `E`. */
export function realFrame(shape: RealShape, n: number, eventTimeMs = T0 + n): Buffer {
  switch (shape) {
    case 'trade':
      return Buffer.from(trade(n));
    case 'kline':
      return Buffer.from(kline(n));
    case 'depth':
      return Buffer.from(depth(n));
    case 'executionReport':
      return Buffer.from(executionReport(n, eventTimeMs));
    case 'executionReportDivided':
      return Buffer.from(executionReportDivided(n, eventTimeMs));
    default: {
      const never: never = shape;
      return never;
    }
  }
}
