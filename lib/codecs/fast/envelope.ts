import * as t from 'io-ts';
import { PublicEnvelopeCodec, type PublicEnvelope } from '../envelope';
import { fastCodec } from './fastCodec';
import { isRecord } from '../../internal/guards';
import { fastArray } from './fastStruct';
import { FAIL, type Fast, fastBoolean, type FastCheck, fastId, fastInt, fastUnknown } from './scalars';

/**
 * The fast check of `EnvelopeParamsCodec` (`struct({}, { realtimeInterval, binary, klineType })`), written
 * out field by field: named property loads stay monomorphic on the objects `JSON.parse` builds, where the
 * generic `fastStruct` loop pays a megamorphic keyed load and an indirect call per field. Same output: the
 * input itself, or a shallow copy with `binary` converted. @internal
 */
function fastParams(u: unknown): Fast<Record<string, unknown>> {
  if (!isRecord(u)) return FAIL;
  const realtimeInterval = u['realtimeInterval'];
  if (realtimeInterval !== undefined && typeof realtimeInterval !== 'string') return FAIL;
  const binary = u['binary'];
  let b: unknown = binary;
  if (binary !== undefined && typeof binary !== 'boolean') {
    b = fastBoolean(binary);
    if (b === FAIL) return FAIL;
  }
  const klineType = u['klineType'];
  if (klineType !== undefined && typeof klineType !== 'string') return FAIL;
  if (b === binary) return u;
  const out = { ...u };
  out['binary'] = b;
  return out;
}

/**
 * The fast check of `PublicEnvelopeCodec(record)`, given the fast check of the record: the
 * `fastStruct(required { symbol, topic, data }, optional { symbolName, params, f, sendTime, shared, id })`
 * semantics, written out (see {@link fastParams} for why). @internal
 */
export function fastEnvelope<R>(record: FastCheck<R>): FastCheck<PublicEnvelope<R>> {
  const fastData = fastArray(record);
  return (u: unknown): Fast<PublicEnvelope<R>> => {
    if (!isRecord(u)) return FAIL;
    if (typeof u['symbol'] !== 'string' || typeof u['topic'] !== 'string') return FAIL;
    const data = u['data'];
    const d = fastData(data);
    if (d === FAIL) return FAIL;
    const symbolName = u['symbolName'];
    if (symbolName !== undefined && typeof symbolName !== 'string') return FAIL;
    const params = u['params'];
    let p: unknown = params;
    if (params !== undefined) {
      p = fastParams(params);
      if (p === FAIL) return FAIL;
    }
    const f = u['f'];
    let f2: unknown = f;
    if (f !== undefined && typeof f !== 'boolean') {
      f2 = fastBoolean(f);
      if (f2 === FAIL) return FAIL;
    }
    const sendTime = u['sendTime'];
    let s: unknown = sendTime;
    if (sendTime !== undefined) {
      s = fastInt(sendTime);
      if (s === FAIL) return FAIL;
    }
    const shared = u['shared'];
    let sh: unknown = shared;
    if (shared !== undefined && typeof shared !== 'boolean') {
      sh = fastBoolean(shared);
      if (sh === FAIL) return FAIL;
    }
    const id = u['id'];
    let i: unknown = id;
    if (id !== undefined) {
      i = fastId(id);
      if (i === FAIL) return FAIL;
    }
    if (d === data && p === params && f2 === f && s === sendTime && sh === shared && i === id) return u as unknown as PublicEnvelope<R>;
    const out: Record<string, unknown> = { ...u };
    if (d !== data) out['data'] = d;
    if (p !== params) out['params'] = p;
    if (f2 !== f) out['f'] = f2;
    if (s !== sendTime) out['sendTime'] = s;
    if (sh !== shared) out['shared'] = sh;
    if (i !== id) out['id'] = i;
    return out as unknown as PublicEnvelope<R>;
  };
}

/**
 * A public data message whose `data` records are left undecoded (`unknown[]`): what a router decodes
 * before it knows the topic. Same name, errors and values as `PublicEnvelopeCodec(t.unknown, 'PublicEnvelope')`,
 * at the cost of a hand-written check.
 *
 * @example
 * ```ts
 * import { FastRawEnvelopeCodec } from 'ex-streams';
 * FastRawEnvelopeCodec.decode({ symbol: 'BTCUSDT', topic: 'trade', f: 'false', data: [{}] });
 * // right({ symbol: 'BTCUSDT', topic: 'trade', f: false, data: [{}] })
 * ```
 */
export const FastRawEnvelopeCodec: t.Type<PublicEnvelope<unknown>, PublicEnvelope<unknown>, unknown> = fastCodec(
  PublicEnvelopeCodec(t.unknown, 'PublicEnvelope'),
  fastEnvelope(fastUnknown),
);
