import { strToU8, zipSync } from 'fflate';

/**
 * Pre-serialized frames of each benchmarked shape. Every data message carries, in its first record, an
 * extra field `bt` (bench time) that the pusher fills with its send time (ms, fractional) for the latency
 * case; the codecs keep extra fields, so the subscriber can read it after the whole pipeline.
 */

export type Shape = 'trade' | 'kline' | 'depth' | 'executionReport';
export const SHAPES: readonly Shape[] = ['trade', 'kline', 'depth', 'executionReport'];

/** Placeholder replaced by the send time (a JSON number) in latency runs; `0` otherwise. */
export const BT = '"@BT@"';

export const SYMBOL = 'BTCUSDT';

function trade(): string {
  return (
    `{"symbol":"${SYMBOL}","symbolName":"${SYMBOL}","topic":"trade","params":{"realtimeInterval":"24h","binary":"false"},` +
    `"data":[{"v":"929681067596857345","t":1625562619577,"p":"34924.15","q":"0.00027","m":true,"bt":${BT}}],` +
    `"f":false,"sendTime":1626249138535,"shared":false}`
  );
}

function kline(): string {
  return (
    `{"symbol":"${SYMBOL}","symbolName":"${SYMBOL}","topic":"kline","params":{"realtimeInterval":"24h","klineType":"1m","binary":"false"},` +
    `"data":[{"t":1626249120000,"s":"${SYMBOL}","sn":"${SYMBOL}","c":"32902.6","h":"32903.1","l":"32900","o":"32900.4","v":"1.0231","bt":${BT}}],` +
    `"f":false,"sendTime":1626249138535,"shared":false}`
  );
}

function levels(base: number, step: number): string {
  const out: string[] = [];
  for (let i = 0; i < 200; i++) out.push(`["${(base + i * step).toFixed(2)}","${(0.001 + ((i * 7919) % 1000) / 997).toFixed(5)}"]`);
  return out.join(',');
}

function depth(): string {
  return (
    `{"symbol":"${SYMBOL}","symbolName":"${SYMBOL}","topic":"depth","params":{"realtimeInterval":"24h","binary":"false"},` +
    `"data":[{"e":301,"s":"${SYMBOL}","t":1626249138535,"v":"6583_18","o":0,"bt":${BT},` +
    `"a":[${levels(34924.15, 0.37)}],"b":[${levels(34923.8, -0.41)}]}],` +
    `"f":false,"sendTime":1626249138535,"shared":false}`
  );
}

function executionReport(): string {
  return (
    `[{"e":"executionReport","E":${SEQ},"s":"ETHBTC","c":"1000087761","S":"BUY","o":"LIMIT","f":"GTC",` +
    `"q":"1.00000000","p":"0.10264410","reqAmt":"1000","X":"PARTIALLY_FILLED","d":"1291488620385157122","i":"4293153",` +
    `"l":"0.50000000","r":"0.50000000","z":"0.50000000","L":"0.10264410","V":"0.10264410","n":"0.00001","N":"ETH",` +
    `"u":true,"w":true,"m":false,"O":"1499405658657","U":${SEQ},"Z":"0.05132205","x":"NORMAL","bt":${BT}}]`
  );
}

/**
 * Placeholder of a per-frame sequence number (execution reports: `E` and `U`, so that every event is a
 * distinct, newer order update and survives the user stream's de-duplication).
 */
export const SEQ = '"@N@"';

/** The text template of a shape (with the {@link BT} placeholder). */
export function template(shape: Shape): string {
  switch (shape) {
    case 'trade':
      return trade();
    case 'kline':
      return kline();
    case 'depth':
      return depth();
    case 'executionReport':
      return executionReport();
    default: {
      const never: never = shape;
      return never;
    }
  }
}

/** A shape's frame as sent in throughput runs: `bt` is 0; the pusher splices a fresh number into each {@link SEQ}. */
export function frameText(shape: Shape): string {
  return template(shape).replace(BT, '0');
}

/** A shape's frame as valid JSON (one fixed sequence number), e.g. for the zip entry. */
export function frameJson(shape: Shape): string {
  return frameText(shape).split(SEQ).join('1499405658658');
}

/** The depth frame as a zip file with one deflated entry (the `binary: true` transport). */
export function zipDepthFrame(): Uint8Array {
  return zipSync({ 'depth.json': [strToU8(frameJson('depth')), { level: 6 }] });
}
