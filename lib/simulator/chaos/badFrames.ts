import { strToU8, zipSync } from 'fflate';
import type { StreamKind } from '../streams/streamKind';

/** A named bad frame: text or binary data. @internal */
export interface BadFrame {
  readonly name: string;
  readonly data: string | Uint8Array;
}

const zipOf = (bytes: Uint8Array): Uint8Array => zipSync({ 'data.json': [bytes, { level: 6 }] });

let bomb: Uint8Array | undefined;
/** A zip whose one entry inflates to 17 MiB of spaces (above the client's default 16 MiB limit), built once. */
const zipBomb = (): Uint8Array => (bomb ??= zipSync({ 'data.json': [new Uint8Array(17 * 1024 * 1024).fill(0x20), { level: 9 }] }));

const corruptDeflate = (): Uint8Array => {
  const zip = zipOf(strToU8('{"symbol":"BTCUSDT","topic":"trade","data":[]}'.repeat(4)));
  const out = zip.slice();
  for (let i = 40; i < 60 && i < out.length; i++) out[i] = (out[i] ?? 0) ^ 0xff; // inside the deflate data of the entry
  return out;
};

/**
 * Frames that are not decodable at all: not JSON, truncated or corrupt zips, a zip bomb, invalid UTF-8.
 * @internal
 */
export const MALFORMED_FRAMES: ReadonlyArray<() => BadFrame> = [
  () => ({ name: 'truncated JSON', data: '{"symbol":"BTCUSDT","topic":"trade","data":[{"v":' }),
  () => ({ name: 'not JSON', data: 'this is not json \u0000\u0001' }),
  () => ({ name: 'empty text', data: '' }),
  () => ({ name: 'unterminated deep nesting', data: '['.repeat(20_000) }),
  () => ({ name: 'random bytes', data: Uint8Array.from({ length: 257 }, (_, i) => (i * 131 + 7) & 0xff) }),
  () => ({ name: 'truncated zip', data: zipOf(strToU8('{"pong":1}'.repeat(50))).slice(0, 40) }),
  () => ({ name: 'corrupt deflate', data: corruptDeflate() }),
  () => ({ name: 'zip bomb', data: zipBomb() }),
  () => ({ name: 'invalid UTF-8 in zip', data: zipOf(Uint8Array.of(0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d)) }),
  () => ({ name: 'zip of non-JSON', data: zipOf(strToU8('{"half":')) }),
];

/**
 * Valid JSON of the wrong shape for each stream: records that fail their codec, unknown event types,
 * scalars, deep nesting. None of them decodes into a record or an event.
 * @internal
 */
export function wrongShapedFrames(stream: StreamKind, symbol: string, now: number): BadFrame[] {
  const common: BadFrame[] = [
    { name: 'null', data: 'null' },
    { name: 'number', data: '42' },
    { name: 'text', data: '"hello"' },
    { name: 'deep nesting', data: '['.repeat(5_000) + ']'.repeat(5_000) },
    { name: 'huge number', data: '{"pong":1e400,"ping":-1e400}' },
  ];
  if (stream === 'public') {
    const env = (topic: string, data: string, extra = ''): string =>
      `{"symbol":"${symbol}","symbolName":"${symbol}","topic":"${topic}","params":{"realtimeInterval":"24h","binary":"false"${extra}},"data":${data},"f":false,"sendTime":${now},"shared":false}`;
    return [
      ...common,
      { name: 'trade record of wrong types', data: env('trade', '[{"v":null,"t":"yesterday","p":1e400,"q":-1,"m":"maybe"}]') },
      { name: 'depth data not an array', data: env('depth', '"nope"') },
      { name: 'depth levels of wrong shape', data: env('depth', `[{"e":301,"s":"${symbol}","t":${now},"v":"1_301","o":0,"a":[["1"]],"b":{"x":1}}]`) },
      { name: 'kline record of wrong types', data: env('kline', '[{"t":"abc","c":[],"h":{},"l":null,"o":true,"v":"x"}]', ',"klineType":"1m"') },
      { name: 'realtimes record with a long string', data: env('realtimes', `[{"t":${now},"c":"${'9'.repeat(100_000)}x"}]`) },
      { name: 'envelope without topic', data: `{"symbol":"${symbol}","data":[1,2,3]}` },
    ];
  }
  return [
    ...common,
    { name: 'unknown event type', data: `[{"e":"marginCall","E":${now}}]` },
    { name: 'executionReport of wrong types', data: '[{"e":"executionReport","E":"soon","i":null,"X":"MAYBE"}]' },
    { name: 'account update without balances', data: `[{"e":"outboundAccountInfo","E":${now},"B":"none"}]` },
    { name: 'ticket without fields', data: '{"e":"ticketInfo"}' },
    { name: 'array of junk', data: '[1,null,"x",[],{}]' },
    { name: 'empty array', data: '[]' },
  ];
}
