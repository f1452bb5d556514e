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
 * no price of the frame, the slowest average to compute); `depthV2` and `bbo`: the V2 stream's (`/quote/ws/v2`).
 */
export type RealShape = 'trade' | 'kline' | 'depth' | 'depthV2' | 'bbo' | 'executionReport' | 'executionReportDivided';

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

/**
 * A V2 data message (`/quote/ws/v2`), as `lib/market/internal/v2Frames.ts` documents it and the simulator's V2 stream
 * (`lib/simulator/streams/publicStreamV2.ts`) sends it: `{ topic, params: { symbol }, data: { … } }`, one record, `data` an
 * object (no `symbolName`, `f`, `sendTime` or `id`); times as text, as V1's.
 */
function v2Message(topic: string, symbol: string, record: string): string {
  return `{"topic":"${topic}","params":{"symbol":"${symbol}"},"data":${record}}`;
}

/** The V2 `depth` record (200 levels a side, the simulator's): V1's record, `t` as given (`"@T@"` for a template). */
export function v2DepthText(symbol: string, n: number, t: string = String(T0 + n)): string {
  return v2Message('depth', symbol, `{"e":301,"s":"${symbol}","t":"${t}","v":"${6583 + n}_18","o":0,"a":[${levels(76321.15, 0.37, n)}],"b":[${levels(76320.8, -0.41, n)}]}`);
}

/** The V2 `bbo` record `{ s, t, b, bz, a, az }` (the simulator's field order). */
function bbo(n: number): string {
  const q = (i: number): string => (0.001 + (((i + n) * 7919) % 1000) / 997).toFixed(5);
  return v2Message('bbo', REAL_SYMBOL, `{"s":"${REAL_SYMBOL}","t":"${T0 + n}","b":"76320.${80 - (n % 50)}","bz":"${q(0)}","a":"76321.${15 + (n % 50)}","az":"${q(1)}"}`);
}

/** Price of level `i` of a side of the incremental book (the full book's grid: asks up from 76321.15, bids down from 76320.80). */
const bookPrice = (side: 'a' | 'b', i: number): string => (side === 'a' ? 76321.15 + i * 0.37 : 76320.8 - i * 0.41).toFixed(2);
/** A quantity that is never zero. */
const bookQty = (n: number, salt: number): string => (0.001 + (((n + salt) * 31) % 1000) / 997).toFixed(5);

/**
 * Record `n` of a V1 `diffMergedDepth` feed (`dumpScale` 2), in the envelope of {@link envelope}: `n` 0 is the
 * snapshot (`o` 0, 200 levels a side, as the full book), any other `n` a delta with `o` `n` and four changed levels:
 * on each side one level's quantity changes, and one level is deleted (quantity `"0"`, odd `n`) or put back (even
 * `n`, the level deleted by `n - 1`): the book stays 199-200 levels a side.
 */
export function diffMergedDepthFrame(n: number): Buffer {
  const t = T0 + n;
  if (n === 0) {
    return Buffer.from(envelope('diffMergedDepth', '"dumpScale":"2",', `{"e":301,"s":"${REAL_SYMBOL}","t":"${t}","v":"6583_18","o":0,"a":[${levels(76321.15, 0.37, 0)}],"b":[${levels(76320.8, -0.41, 0)}]}`, n));
  }
  const side = (s: 'a' | 'b', salt: number): string => {
    const changed = (n * (s === 'a' ? 11 : 7)) % 200;
    const gone = ((((n - 1) >> 1) * 13 + salt) % 199) + 1; // never level 0 (the best), nor the changed one's slot twice in a row
    const level = n % 2 === 1 ? `["${bookPrice(s, gone)}","0"]` : `["${bookPrice(s, gone)}","${bookQty(n, salt)}"]`;
    return gone === changed ? level : `["${bookPrice(s, changed)}","${bookQty(n, salt + 3)}"],${level}`;
  };
  return Buffer.from(envelope('diffMergedDepth', '"dumpScale":"2",', `{"e":301,"s":"${REAL_SYMBOL}","t":"${t}","v":"${6583 + n}_18","o":${n},"a":[${side('a', 5)}],"b":[${side('b', 17)}]}`, n));
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
    case 'depthV2':
      return Buffer.from(v2DepthText(REAL_SYMBOL, n));
    case 'bbo':
      return Buffer.from(bbo(n));
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
