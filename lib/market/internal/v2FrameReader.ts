// Data path, market side (notes/architecture.md, "The data path"): step 3 for the usual V2 data frame, its text read straight into a checked V1 envelope and records.
import * as t from 'io-ts';
import { BboRecordCodec } from '../../codecs/bbo';
import type { PublicEnvelope } from '../../codecs/envelope';
import { FAIL } from '../../codecs/fastCheck';
import { KlineRecordCodec } from '../../codecs/kline';
import { RealtimesRecordCodec } from '../../codecs/realtimes';
import { fieldsOf, struct } from '../../codecs/struct';
import { readText, type Reader, structReader } from '../../codecs/structReader';
import { TradeRecordCodec } from '../../codecs/trade';
import { parseJsonValue } from '../../frame/json';
import { type MarketFrameReader, RawEnvelopeCodec, ReadMessage } from './marketFrameReader';
import { v2Message } from './v2Frames';

/**
 * The V2 sibling of `marketFrameReader`: a V2 data message of a `bbo`, `trade`, `kline` or `realtimes` topic
 * (`{ topic, params: { symbol, … }, data }`, compact JSON) read from its text with the readers derived from the
 * records' declarations (`structReader`) into the V1 envelope `v2Message` makes of its parse (`{ symbol, topic,
 * params, data: [ … ] }`), its records checked. Anything else (a book, whose levels have their own scanner; an
 * acknowledgement or an error frame, which carry `code`; a heartbeat; a frame of another shape, not compact or not
 * valid) is not read here and takes the general path: parse, `v2Message`, envelope check, record checks. What this
 * reads, it reads as that path would (`spec/market/internal/v2FrameReader.spec.ts` proves it on generated and mutated
 * frames), so the records, the routing and the errors are the same.
 *
 * @internal
 * @module
 */

/** The `params` of a V2 data message, as far as the router reads them: the pair, and a candle's interval. */
const V2ParamsCodec = /*#__PURE__*/ struct('V2Params', {}, { symbol: t.string, klineType: t.string });

/** The envelope facts a V2 message may carry beside `topic`, `params` and `data`: V1's (`f`, `sendTime`, `id`, …). */
const envelopeFields = (): t.Props => {
  const { params: _params, ...optional } = fieldsOf(RawEnvelopeCodec)!.optional;
  return optional;
};

/** The V2 data message around `data` (the record codec of its topic, or an array of them). */
const v2DataCodec = (data: t.Mixed): t.Mixed =>
  struct(`V2Message<${data.name}>`, { topic: fieldsOf(RawEnvelopeCodec)!.required['topic']!, params: V2ParamsCodec, data }, envelopeFields());

/**
 * The record codec of each V2 topic read here (the codecs `marketStreams` subscribes them with), and whether its
 * `data` is an array of records (trades) or one record.
 */
const V2_TOPICS: Readonly<Record<string, { readonly codec: t.Mixed; readonly array: boolean }>> = {
  bbo: { codec: BboRecordCodec, array: false },
  trade: { codec: TradeRecordCodec, array: true },
  kline: { codec: KlineRecordCodec, array: false },
  realtimes: { codec: RealtimesRecordCodec, array: false },
};

/** What a V2 message read here holds (its declaration: {@link v2DataCodec}). */
interface V2Data {
  readonly topic: string;
  readonly params: { readonly symbol?: string; readonly klineType?: string };
  readonly data: unknown;
  readonly symbolName?: string;
  readonly f?: boolean;
  readonly sendTime?: number;
  readonly shared?: boolean;
  readonly id?: string;
}

/** The `params` of a V1 envelope made from a V2 message without `klineType` (read only, never written). */
const NO_PARAMS: PublicEnvelope<unknown>['params'] = Object.freeze({});

/** How a V2 text is read on the general path: parsed (long integers exact), then read into V1's shapes. */
const generalV2 = (text: string): unknown => v2Message(parseJsonValue(text));

const TOPIC_KEY = '"topic":"';

/** The one V2 frame reader, compiled on first use (`null`: code cannot be compiled here). */
let shared: MarketFrameReader | null | undefined;

/**
 * The V2 frame reader: a `ReadMessage`, or `FAIL` (parse the text instead); `undefined` where code cannot be
 * compiled (then every frame is parsed). Never throws. Compiled once, on first use (not at import), and shared by
 * every V2 `marketStreams`: it keeps no state between frames. @internal
 */
export function v2FrameReader(): MarketFrameReader | undefined {
  if (shared === undefined) shared = compileV2FrameReader() ?? null;
  return shared ?? undefined;
}

function compileV2FrameReader(): MarketFrameReader | undefined {
  ReadMessage.keepShape();
  const readers: { readonly name: string; readonly codec: t.Mixed; readonly reader: Reader }[] = [];
  for (const [name, { codec, array }] of Object.entries(V2_TOPICS)) {
    // `code` makes it an answer (`v2Message`), `ping` / `pong` a heartbeat's to answer: such a frame is parsed.
    const reader = structReader(v2DataCodec(array ? t.array(codec) : codec), { refuse: ['code', 'ping', 'pong'] });
    if (reader === undefined) return undefined;
    readers.push({ name, codec, reader });
  }
  return (text) => {
    // The topic chooses the reader; it is read again with the message, which must end with the same topic.
    const at = text.indexOf(TOPIC_KEY);
    if (at < 0) return FAIL;
    const from = at + TOPIC_KEY.length;
    let topic: (typeof readers)[number] | undefined;
    for (let r = 0; r < readers.length; r++) {
      const { name } = readers[r]!;
      if (text.charCodeAt(from + name.length) === 34 && text.startsWith(name, from)) {
        topic = readers[r];
        break;
      }
    }
    if (topic === undefined) return FAIL;
    const value = readText(text, topic.reader);
    if (value === FAIL) return FAIL;
    const message = value as V2Data;
    if (message.topic !== topic.name) return FAIL;
    const { params, data } = message;
    // the pair: `params.symbol`, else the record's `s` (`v2Message`); neither: not a message the router takes
    const symbol = params.symbol ?? (Array.isArray(data) ? undefined : (data as { readonly s: string }).s);
    if (symbol === undefined) return FAIL;
    const envelope: PublicEnvelope<unknown> = {
      symbol,
      topic: topic.name, // the same text, a string whose hash the router's maps have computed already
      params: params.klineType !== undefined ? { klineType: params.klineType } : NO_PARAMS!,
      data: Array.isArray(data) ? data : [data],
    };
    if (message.symbolName !== undefined) envelope.symbolName = message.symbolName;
    if (message.f !== undefined) envelope.f = message.f;
    if (message.sendTime !== undefined) envelope.sendTime = message.sendTime;
    if (message.shared !== undefined) envelope.shared = message.shared;
    if (message.id !== undefined) envelope.id = message.id;
    return new ReadMessage(envelope, topic.codec, text, generalV2);
  };
}
