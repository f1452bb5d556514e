// Data path, market side (notes/architecture.md, "The data path"): step 3 for the usual market frame, its text read straight into a checked envelope and records.
import * as t from 'io-ts';
import { type PublicEnvelope, PublicEnvelopeCodec } from '../../codecs/envelope';
import { DepthRecordCodec } from '../../codecs/depth';
import { FAIL } from '../../codecs/fastCheck';
import { parseJsonValue } from '../../frame/json';
import { KlineRecordCodec } from '../../codecs/kline';
import { RealtimesRecordCodec } from '../../codecs/realtimes';
import { readText, type Reader, structReader } from '../../codecs/structReader';
import { TradeRecordCodec } from '../../codecs/trade';
import { depthRecordReader } from './depthRecordReader';

/**
 * The market feed's reader of the frames the service usually sends: one data message of a `trade`, `kline` or
 * `realtimes` topic, compact JSON, read with the readers derived from the envelope's and the records' declarations
 * (`structReader`) into its checked envelope and records at once, and the deltas of `diffMergedDepth` (a few levels:
 * `depthRecordReader`). Any other frame (a full book, whose levels have their own scanner in `levelsJson.ts`; a
 * batch; a heartbeat; an error frame; anything not compact or not valid) is not read here, and takes the general
 * path: parse, envelope check, record checks (`TopicRouter`).
 *
 * @internal
 * @module
 */

/** The envelope of any topic's message, its records left for the topic's codec. @internal */
export const RawEnvelopeCodec = /*#__PURE__*/ PublicEnvelopeCodec(t.unknown, 'PublicEnvelope');

/** The record codec of each response topic read here: the codecs `marketStreams` subscribes these topics with. */
const RECORD_CODECS: Readonly<Record<string, t.Decoder<unknown, unknown>>> = {
  trade: TradeRecordCodec,
  kline: KlineRecordCodec,
  realtimes: RealtimesRecordCodec,
};

/**
 * A data message read from its frame's text: the envelope, its `data` already checked with `codec` (the record
 * codec of its response topic). The router delivers it when the subscription it routes to decodes with that
 * codec, and otherwise reads `text` with `general` (the general path). `JSON.parse` never yields a class instance, so the
 * router tells it apart with `instanceof`. @internal
 */
export class ReadMessage {
  constructor(
    readonly envelope: PublicEnvelope<unknown>,
    readonly codec: t.Decoder<unknown, unknown>,
    readonly text: string,
    /** How `text` is read on the general path (V2: parsed, then read into V1's shapes). Default: parsed. */
    readonly general: (text: string) => unknown = parseJsonValue,
  ) {}

  /**
   * Makes (once) a message that lives as long as the process, so that the hidden class (V8 map) of every message
   * does: an instance reaches its map through transitions the engine holds weakly, and each message lives for one
   * frame, so a full garbage collection that found none alive dropped the map, and every optimised function of the
   * frame path that checked it (feed, router, topic) was deoptimised and compiled again, at every full collection
   * (measured: a V2 `bbo` frame 1.30 → 1.05 µs in the public-API benchmark, which collects before each round). Called
   * by the readers that make messages, when they are compiled.
   */
  static keepShape(): void {
    keeper ??= new ReadMessage({ symbol: '', topic: '', data: [] }, t.unknown, '');
  }
}

/** The message {@link ReadMessage.keepShape} keeps. */
let keeper: ReadMessage | undefined;

/** A market frame reader (see {@link marketFrameReader}). @internal */
export type MarketFrameReader = (text: string) => ReadMessage | typeof FAIL;

/** The one market frame reader, compiled on first use (`null`: code cannot be compiled here). */
let shared: MarketFrameReader | null | undefined;

/**
 * The market frame reader: a {@link ReadMessage}, or `FAIL` (parse the text instead); `undefined` where code
 * cannot be compiled (then every frame is parsed). Never throws. Compiled once, on first use (not at import), and
 * shared by every `marketStreams`: it keeps no state between frames. @internal
 */
export function marketFrameReader(): MarketFrameReader | undefined {
  if (shared === undefined) shared = compileMarketFrameReader() ?? null;
  return shared ?? undefined;
}

function compileMarketFrameReader(): MarketFrameReader | undefined {
  ReadMessage.keepShape();
  const records = new Map<string, { readonly codec: t.Decoder<unknown, unknown>; readonly reader: Reader }>();
  for (const [topic, codec] of Object.entries(RECORD_CODECS)) {
    const reader = structReader(codec);
    if (reader !== undefined) records.set(topic, { codec, reader });
  }
  // An incremental book's delta: a few levels, read by the depth record's reader (full books keep the levels scanner)
  const deltas = depthRecordReader();
  if (deltas !== undefined) records.set('diffMergedDepth', { codec: DepthRecordCodec, reader: deltas });
  const envelope = structReader(RawEnvelopeCodec, {
    undeclared: 'drop',
    // A heartbeat key beside an envelope's is the heartbeat's to answer: such a frame is parsed.
    refuse: ['ping', 'pong'],
    dependent: { field: 'data', on: 'topic', reader: (topic) => (typeof topic === 'string' ? records.get(topic)?.reader : undefined) },
  });
  if (envelope === undefined) return undefined;
  return (text) => {
    const value = readText(text, envelope);
    if (value === FAIL) return FAIL;
    const message = value as PublicEnvelope<unknown>;
    const topic = records.get(message.topic);
    return topic === undefined ? FAIL : new ReadMessage(message, topic.codec, text);
  };
}
