import * as t from 'io-ts';
import { BooleanFromStringOrBoolean, IdFromNumberOrString, IntFromNumberOrString } from './primitives';
import { declaredAs, struct } from './struct';

/**
 * Decoded `params` of a public data message (SPEC, Common envelope): the expanded parameters echoed back.
 *
 * @example
 * ```ts
 * import type { EnvelopeParams } from 'ex-streams/codecs';
 *
 * const params: EnvelopeParams = { realtimeInterval: '24h', binary: false, klineType: '1m' };
 * ```
 */
export interface EnvelopeParams {
  /** Time period, text (e.g. `'24h'`; for kline only `'24h'` is supported), when sent. */
  readonly realtimeInterval?: string;
  /** Whether the server sends zip binary frames (`true`) or JSON text (`false`); text `"true"`/`"false"` is accepted. */
  readonly binary?: boolean;
  /** Kline only: the interval of the subscribed topic, text (e.g. `'1m'`). */
  readonly klineType?: string;
}

/**
 * The codec of {@link EnvelopeParams}, `params` of a public data message: `realtimeInterval`, `binary`
 * (boolean or `"true"`/`"false"`) and, for kline, `klineType` (the interval). All optional.
 *
 * @example
 * ```ts
 * import { EnvelopeParamsCodec } from 'ex-streams/codecs';
 * EnvelopeParamsCodec.decode({ realtimeInterval: '24h', binary: 'false' }); // right({ realtimeInterval: '24h', binary: false })
 * ```
 */
export const EnvelopeParamsCodec = declaredAs<EnvelopeParams>()(
  struct('EnvelopeParams', {}, { realtimeInterval: t.string, binary: BooleanFromStringOrBoolean, klineType: t.string }),
);

/**
 * A public stream data message carrying records of type `R` (SPEC, Common envelope).
 *
 * Required: `symbol`, `topic` (routing) and `data` (the records). Optional: everything else, so a
 * deployment that leaves out `symbolName`, `params`, `f`, `sendTime`, `shared` or `id` still decodes.
 *
 * @example
 * ```ts
 * import type { TradeRecord } from 'ex-streams';
 * import type { PublicEnvelope } from 'ex-streams/codecs';
 *
 * const message: PublicEnvelope<TradeRecord> = {
 *   symbol: 'BTCUSDT', topic: 'trade', f: true, sendTime: 1626249138535, id: '1',
 *   data: [{ v: '929681067596857345', t: 1625562619577, p: '34924.15', q: '0.00027', m: true }],
 * };
 * ```
 */
export interface PublicEnvelope<R> {
  /** Currency pair id. */
  symbol: string;
  /** Topic name of the response (`kline`, `realtimes`, `trade`, `depth`). */
  topic: string;
  /** The records. */
  data: R[];
  /** Currency pair name. */
  symbolName?: string;
  /** Expanded parameters. */
  params?: EnvelopeParams;
  /** First message of this subscription (`f`; text `"true"`/`"false"` accepted). */
  f?: boolean;
  /** Server send time, ms. */
  sendTime?: number;
  /** No longer in use. */
  shared?: boolean;
  /** The request id echoed as text (a number is turned into text). */
  id?: string;
}

/**
 * Builds the codec of a public data message whose `data` is an array of `record`. The codec is named
 * `PublicEnvelope<RecordName>` so failures read `: PublicEnvelope<TradeRecord>/data: Array<TradeRecord>/0: TradeRecord/p: DecimalString`.
 *
 * Required: `symbol` (text), `topic` (text), `data` (array, may be empty). Optional: `symbolName` (text),
 * `params` ({@link EnvelopeParamsCodec}), `f` and `shared` (flags), `sendTime` (ms), `id` (id text). Extra
 * fields are ignored.
 *
 * @example
 * ```ts
 * import { PublicEnvelopeCodec, TradeRecordCodec } from 'ex-streams/codecs';
 * const TradeEnvelope = PublicEnvelopeCodec(TradeRecordCodec);
 * TradeEnvelope.decode({ symbol: 'BTCUSDT', topic: 'trade', f: 'true', id: 1,
 *   data: [{ v: '929681067596857345', t: 1625562619577, p: '34924.15', q: '0.00027', m: true }] });
 * // right({ symbol: 'BTCUSDT', topic: 'trade', f: true, id: '1', data: [...] })
 * ```
 */
export function PublicEnvelopeCodec<C extends t.Mixed>(
  record: C,
  name = `PublicEnvelope<${record.name}>`,
): t.Type<PublicEnvelope<t.TypeOf<C>>, PublicEnvelope<t.OutputOf<C>>, unknown> {
  return struct(
    name,
    { symbol: t.string, topic: t.string, data: t.array(record) },
    {
      symbolName: t.string,
      params: EnvelopeParamsCodec,
      f: BooleanFromStringOrBoolean,
      sendTime: IntFromNumberOrString,
      shared: BooleanFromStringOrBoolean,
      id: IdFromNumberOrString,
    },
  );
}
