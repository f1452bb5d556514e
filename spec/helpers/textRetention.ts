/**
 * Run by `spec/internal/ownText.spec.ts` in a fresh process (`node --expose-gc -r ts-node/register/transpile-only`),
 * where nothing but this script's own objects is on the heap: for each way of cutting text out of a frame, how much
 * the heap grows when what was cut out is kept and the frames are dropped. Prints one JSON object of byte counts.
 */
import { ownQuotedText, ownText } from '../../lib/internal/ownText';
import { parseJsonValue } from '../../lib/frame/json';
import { marketFrameReader, type ReadMessage } from '../../lib/market/internal/marketFrameReader';

const gc = (globalThis as { gc?: () => void }).gc!;
const COUNT = 64;
const PADDING = 'z'.repeat(256 * 1024);

/** Heap growth from keeping what `take` cuts out of COUNT distinct flat texts of 256 KiB, once the texts are dropped. */
function retainedBy(take: (text: string) => unknown, frame: (n: number) => string): number {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  // Distinct and flat, as a socket's decoded text is.
  let texts: string[] | undefined = Array.from({ length: COUNT }, (_, n) => Buffer.from(frame(n)).toString());
  const kept = texts.map(take);
  texts = undefined;
  gc();
  gc();
  const growth = process.memoryUsage().heapUsed - before;
  if (kept.length !== COUNT) throw new Error('lost what was kept');
  return growth;
}

const idFrame = (n: number): string => `{"i":"19201534872035${String(n).padStart(5, '0')}","pad":"${PADDING}"}`;
const tradeFrame = (n: number): string =>
  `{"symbol":"BTCUSDT","topic":"trade","params":{"binary":"false"},"data":[{"v":"14473354053631${String(n).padStart(5, '0')}","t":"1731300000000",` +
  `"p":"76321.12345678901","q":"0.000123","m":true,"note":"${'z'.repeat(20)}"}],"site":"${PADDING}"}`;
const level = (k: number): string => `["76321.${String(k).padStart(11, '0')}","0.00012345678901"]`;
const depthFrame = (n: number): string =>
  `{"symbol":"BTCUSDT","topic":"depth","data":[{"t":${n},"a":[${Array.from({ length: 16 }, (_, k) => level(k)).join(',')}]}],"site":"${PADDING}"}`;

const read = marketFrameReader()!;
const samples: Record<string, unknown[]> = { ownText: [], ownQuotedText: [], trades: [], levels: [] };
const result = {
  textsBytes: COUNT * PADDING.length,
  slice: retainedBy((text) => text.slice(6, 25), idFrame),
  ownText: retainedBy((text) => samples.ownText!.push(ownText(text, 6, 25)), idFrame),
  ownQuotedText: retainedBy((text) => samples.ownQuotedText!.push(ownQuotedText(text, 6, 25)), idFrame),
  trades: retainedBy((text) => samples.trades!.push((read(text) as ReadMessage).envelope.data[0]), tradeFrame),
  levels: retainedBy((text) => samples.levels!.push((parseJsonValue(text) as { data: [{ a: unknown }] }).data[0].a), depthFrame),
  samples: { ownText: samples.ownText![7], ownQuotedText: samples.ownQuotedText![7], trade: samples.trades![3], level: (samples.levels![2] as unknown[])[5] },
};
process.stdout.write(JSON.stringify(result));
