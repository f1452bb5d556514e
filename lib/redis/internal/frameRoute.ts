import { envelopeHead } from '../../market/internal/envelopeHead';

/**
 * The symbol and request topic of a data frame's text (`kline` + `params.klineType` → `kline_1m`), else `undefined` (a
 * pong, an error frame, anything else). Never throws. Reads only the envelope where it can (`envelopeHead`: its keys
 * before `"data":[` and after the records, a 9.4 KB book costs ~1 µs instead of a whole `JSON.parse`, which was a
 * third of the gateway's CPU: issue 28's fan-out bench); any other frame is parsed whole, as before. The frame itself
 * is published verbatim either way (its body is the consumers' `marketStreams` to check, as a direct subscriber's
 * would). `head`: the frame's `envelopeHead`, when the caller has it. @internal
 */
export function frameRoute(
  text: string,
  head: Record<string, unknown> | undefined = envelopeHead(text),
): { readonly symbol: string; readonly topic: string } | undefined {
  if (head !== undefined) return routeOf(head, true);
  // Not a data frame: heartbeats and error frames are short and carry no `"topic"`.
  if (!text.includes('"topic"')) return undefined;
  const v2 = v2Head(text);
  if (v2 !== undefined) return routeOf(v2, true);
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  return routeOf(message, false);
}

/**
 * The keys before `"data":{` of a V2 data message (`{"topic":…,"params":{…},"data":{…}}`: its one record an object),
 * parsed as one small object (a 9.3 KB V2 book: ~6 µs with the V1 head looked for first, against ~88 µs for its whole
 * parse); `undefined` when the text is not of that form. The route is read from `topic` and `params`, which V2
 * writes before `data`.
 */
function v2Head(text: string): Record<string, unknown> | undefined {
  const data = text.indexOf('"data":{');
  if (!(data > 1 && text.charCodeAt(0) === 123 && text.charCodeAt(data - 1) === 44)) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(`${text.slice(0, data - 1)}}`);
  } catch {
    return undefined;
  }
  return typeof head === 'object' && head !== null && !Array.isArray(head) ? (head as Record<string, unknown>) : undefined;
}

/**
 * The route of a parsed envelope (`withData`: the message is known to hold `data`, an array for V1, left out of it):
 * V1's (a top-level `symbol`, `data` an array of records), or V2's (`/quote/ws/v2`: the pair in `params.symbol`, else
 * the record's `s`; `data` one record, an array for trades). An answer (`code`) is no data message.
 */
function routeOf(message: unknown, withData: boolean): { readonly symbol: string; readonly topic: string } | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { symbol, topic, params, data, code } = message as { symbol?: unknown; topic?: unknown; params?: { klineType?: unknown; symbol?: unknown }; data?: unknown; code?: unknown };
  if (typeof topic !== 'string') return undefined;
  const pair = typeof symbol === 'string' ? (withData || Array.isArray(data) ? symbol : undefined) : v2Pair(params, data, code, withData);
  if (pair === undefined) return undefined;
  if (topic !== 'kline') return { symbol: pair, topic };
  const interval = typeof params === 'object' && params !== null ? params.klineType : undefined;
  return typeof interval === 'string' ? { symbol: pair, topic: `kline_${interval}` } : undefined;
}

/** The pair of a V2 data message: `params.symbol`, else its one record's `s`; `undefined` for an answer (`code`) or no data. */
function v2Pair(params: { symbol?: unknown } | undefined, data: unknown, code: unknown, withData: boolean): string | undefined {
  if (code !== undefined || !(withData || (typeof data === 'object' && data !== null))) return undefined;
  const named = typeof params === 'object' && params !== null ? params.symbol : undefined;
  if (typeof named === 'string') return named;
  const s = typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as { s?: unknown }).s : undefined;
  return typeof s === 'string' ? s : undefined;
}
