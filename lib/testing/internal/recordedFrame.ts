import * as E from 'fp-ts/Either';
import { unzipFirstEntry } from '../../frame/unzipFirstEntry';
import { inflateRaw } from '../../zip/inflateRaw';

/**
 * A recorded public frame made ready to play: its route (`symbol|requestTopic`, as the test exchange keys its live
 * subscriptions) read from its text without parsing it, and its text with the request `id` replaced by the replay
 * client's own (a recorded id names the recording client's subscription: kept, it could route the frame to another
 * topic of the replay client).
 * @internal
 */

/** The text value of the first `"name":"…"` in `text`, `undefined` when absent (or escaped: never in these fields). */
function firstString(text: string, name: string): string | undefined {
  const key = `"${name}":"`;
  const at = text.indexOf(key);
  if (at < 0) return undefined;
  const start = at + key.length;
  const end = text.indexOf('"', start);
  if (end < 0) return undefined;
  const value = text.slice(start, end);
  return value.includes('\\') ? undefined : value;
}

/**
 * The route of a public data frame: `symbol|topic`, `kline` + `klineType` read as `kline_<interval>`. `undefined` for
 * what is not a data message of one topic (pongs, acknowledgements, error frames, batches): a replay does not play
 * those (it answers pings itself).
 * @internal
 */
export function routeOf(text: string): string | undefined {
  if (text.charCodeAt(0) !== 123 /* { */) return undefined;
  const symbol = firstString(text, 'symbol');
  const topic = firstString(text, 'topic');
  if (symbol === undefined || topic === undefined || !text.includes('"data":')) return undefined;
  if (topic !== 'kline') return `${symbol}|${topic}`;
  const interval = firstString(text, 'klineType');
  return interval === undefined ? undefined : `${symbol}|kline_${interval}`;
}

/**
 * `text` with its envelope's `id` set to `id`: the one `"id":` of the text replaced in place (string or number);
 * a text with several (a record that has an `id` field too) is parsed and written again. A frame without one is
 * left as it is (the client routes it by symbol and topic).
 * @internal
 */
export function withId(text: string, id: string): string {
  const key = '"id":';
  const at = text.indexOf(key);
  if (at < 0) return text;
  if (text.indexOf(key, at + key.length) >= 0) {
    try {
      const frame = JSON.parse(text) as Record<string, unknown>;
      return JSON.stringify({ ...frame, id });
    } catch {
      return text;
    }
  }
  const start = at + key.length;
  let end: number;
  if (text.charCodeAt(start) === 34 /* " */) {
    end = text.indexOf('"', start + 1) + 1;
    if (end === 0) return text;
  } else {
    end = start;
    while (end < text.length && /[-0-9.eE+]/.test(text[end]!)) end++;
  }
  return text.slice(0, start) + JSON.stringify(id) + text.slice(end);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_INDEX = /*#__PURE__*/ (() => {
  const index = new Int16Array(128).fill(-1);
  for (let i = 0; i < BASE64.length; i++) index[BASE64.charCodeAt(i)] = i;
  return index;
})();

/** The bytes of base64 text (padding optional); `undefined` for anything else. Runs anywhere (no `Buffer`, no `atob`). @internal */
export function fromBase64(text: string): Uint8Array | undefined {
  const clean = text.endsWith('==') ? text.slice(0, -2) : text.endsWith('=') ? text.slice(0, -1) : text;
  if (clean.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let count = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    const v = c < 128 ? BASE64_INDEX[c]! : -1;
    if (v < 0) return undefined;
    bits = (bits << 6) | v;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[o++] = (bits >> count) & 0xff;
    }
  }
  return out;
}

const MAX_INFLATED_BYTES = 16 * 1024 * 1024;

/** The text of a recorded binary frame (a zip holding one JSON entry, as the service sends), `undefined` if unreadable. @internal */
export function binaryFrameText(base64: string): string | undefined {
  const bytes = fromBase64(base64);
  if (bytes === undefined) return undefined;
  const entry = unzipFirstEntry(bytes, MAX_INFLATED_BYTES, inflateRaw);
  if (E.isLeft(entry)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(entry.right);
  } catch {
    return undefined;
  }
}
