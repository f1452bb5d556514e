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
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  return routeOf(message, false);
}

/** The route of a parsed envelope (`dataChecked`: its `data` is known to be an array). */
function routeOf(message: unknown, dataChecked: boolean): { readonly symbol: string; readonly topic: string } | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { symbol, topic, params, data } = message as { symbol?: unknown; topic?: unknown; params?: { klineType?: unknown }; data?: unknown };
  if (typeof symbol !== 'string' || typeof topic !== 'string' || !(dataChecked || Array.isArray(data))) return undefined;
  if (topic !== 'kline') return { symbol, topic };
  const interval = typeof params === 'object' && params !== null ? params.klineType : undefined;
  return typeof interval === 'string' ? { symbol, topic: `kline_${interval}` } : undefined;
}
