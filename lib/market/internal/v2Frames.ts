import type { SubscriptionExtraParams } from '../../codecs/requests';
import { fieldsOf } from '../../codecs/struct';
import { isRecord } from '../../internal/guards';
import { RawEnvelopeCodec } from './marketFrameReader';

/**
 * The second dialect of the public stream, HashKey's V2 (`/quote/ws/v2`, "Public Stream (WS v2)" of HashKey's API
 * documentation), at the seam of the V1 frames: what the V2 service sends is read into the V1 shapes the router takes
 * ({@link v2Message}), and the requests the batcher makes are written as V2 frames ({@link v2RequestFrames}), so
 * everything from the router down (routing, records, acknowledgements, error codes, resends) is the V1 path's.
 *
 * The V2 shapes, as documented (and seen by a third-party probe of the live service):
 * - request: `{ topic, event, params: { symbol, klineType? } }`, one symbol per frame (a comma list is refused with
 *   code `-100011`), no `id`, no `binary` (JSON only);
 * - answer to each request: the request echoed with `code` (`"0"`: success) and `msg`;
 * - data: `{ topic, params: { symbol, … }, data: { … } }`, one record per message, `data` an object.
 *
 * @internal
 * @module
 */

/** The request topic of `klines` in V1 (`kline_1m`) as V2's topic and `klineType`. */
function v2Topic(topic: string): { readonly topic: string; readonly klineType?: string } {
  return topic.startsWith('kline_') ? { topic: 'kline', klineType: topic.slice('kline_'.length) } : { topic };
}

/** A V2 request frame. @internal */
export interface V2Request {
  readonly topic: string;
  readonly event: 'sub' | 'cancel';
  readonly params: Readonly<Record<string, string>>;
}

/** How the batcher writes its frames (`symbols` comma-joined; V2: one symbol). @internal */
export interface RequestFrames {
  sub(symbols: string, topic: string, binary: boolean, id: number, params: SubscriptionExtraParams | undefined): object;
  cancel(symbols: string, topic: string, binary: boolean, id: number, params: SubscriptionExtraParams | undefined): object;
}

/** The V2 request of `event` for `symbol`'s (V1) request `topic`, with `params` and the `site` of the venue. @internal */
export function v2Request(
  event: 'sub' | 'cancel',
  symbol: string,
  topic: string,
  params: SubscriptionExtraParams | undefined,
  site: string | undefined,
): V2Request {
  const { topic: name, klineType } = v2Topic(topic);
  return {
    topic: name,
    event,
    params: {
      symbol,
      ...(klineType !== undefined && { klineType }),
      ...(params?.limit !== undefined && { limit: params.limit }),
      ...(params?.dumpScale !== undefined && { dumpScale: params.dumpScale }),
      ...(site !== undefined && { site }),
    },
  };
}

/** The batcher's frames in V2 (the batcher sends one symbol a frame: `maxSymbolsPerFrame` 1). @internal */
export function v2RequestFrames(site: string | undefined): RequestFrames {
  return {
    sub: (symbols, topic, _binary, _id, params) => v2Request('sub', symbols, topic, params, site),
    cancel: (symbols, topic, _binary, _id, params) => v2Request('cancel', symbols, topic, params, site),
  };
}

/** A V2 answer that concerns nothing any more (the acknowledgement of a `cancel`): not handed on. @internal */
export const IGNORED: unique symbol = Symbol('ignored');

/**
 * A parsed V2 frame in the V1 shape the router takes:
 * - an answer (`code`) keeps its code and words and names its symbol and (V1) request topic: `{ code, msg, symbol,
 *   topic }` (`kline` with `klineType` `1m` is `kline_1m`), so an acknowledgement (`"0"`) confirms that topic and an
 *   error is classified by its code as V1's are; the answer to a `cancel` is {@link IGNORED};
 * - a data message `{ topic, params: { symbol, … }, data: {…} }` becomes `{ symbol, topic, params, data: [ {…} ] }`
 *   (its `symbolName`, `f`, `sendTime`, `shared` and `id`, when sent, kept; other fields are not the envelope's);
 * - anything else (heartbeats, a batch, a frame of no known shape) is handed on as it is.
 * @internal
 */
export function v2Message(message: unknown): unknown {
  if (!isRecord(message)) return message;
  const { topic, params } = message;
  if (typeof topic !== 'string' || !isRecord(params)) return message;
  const symbol = typeof params['symbol'] === 'string' ? params['symbol'] : undefined;
  const klineType = typeof params['klineType'] === 'string' ? params['klineType'] : undefined;
  if ('code' in message) {
    if (message['event'] === 'cancel') return IGNORED;
    const { code, msg } = message;
    const requestTopic = topic === 'kline' && klineType !== undefined ? `kline_${klineType}` : topic;
    return { code, ...(msg !== undefined && { msg }), ...(symbol !== undefined && { symbol }), topic: requestTopic };
  }
  if (!('data' in message)) return message;
  const data: unknown = message['data'];
  const record = isRecord(data) ? data : undefined;
  const s = symbol ?? (typeof record?.['s'] === 'string' ? record['s'] : undefined);
  if (s === undefined) return message;
  // The V1 envelope's fields, built as the V2 frame reader builds them (one shape on both paths; a spread of the
  // message was ~1.4 µs a book, most of this function's cost on the 100 ms depth stream).
  const envelope: Record<string, unknown> = { symbol: s, topic, params: klineType !== undefined ? { klineType } : {}, data: Array.isArray(data) ? data : [data] };
  const facts = (envelopeFacts ??= Object.keys(fieldsOf(RawEnvelopeCodec)!.optional).filter((key) => key !== 'params'));
  for (let k = 0; k < facts.length; k++) {
    const key = facts[k]!;
    const value = message[key];
    if (value !== undefined) envelope[key] = value;
  }
  return envelope;
}

/**
 * The facts of a V1 envelope a V2 data message may carry beside `topic`, `params` and `data` (checked by the router as
 * V1's): the envelope's declared optional fields but `params`, read from its declaration on first use.
 */
let envelopeFacts: readonly string[] | undefined;
