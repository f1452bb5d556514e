import * as t from 'io-ts';
import { FAIL, inPlaceCheckOf } from '../../codecs/fastCheck';
import { envelopeHead } from './envelopeHead';
import { RawEnvelopeCodec, ReadMessage, type MarketFrameReader } from './marketFrameReader';

/**
 * The record codec of a forwarded topic (`forwardingMarketStreams`): any value passes, nothing is read. The router
 * delivers a {@link forwardingFrameReader} message as it is to a subscription with this codec, and parses the frame
 * for any other. @internal
 */
export const ForwardedRecordCodec = t.unknown;

const envelopeCheck = /*#__PURE__*/ inPlaceCheckOf(RawEnvelopeCodec);

/**
 * The frame reader of a connection whose topics are held for a gateway that forwards the frames themselves (the
 * Redis relay's `publishMarket`): a data message's envelope is read from its text without its records (by
 * `envelopeOf`, default `envelopeHead`: the gateway hands the one it already read to route the frame, so a frame's
 * envelope is parsed once) and checked (in place: the object is the reader's from then on), and handed over with no
 * records (`data: []`) and {@link ForwardedRecordCodec}. Anything else (`FAIL`) takes the general path: a heartbeat,
 * an error frame, a batch, an envelope that fails its check. @internal
 */
export const forwardingFrameReader =
  (envelopeOf: (text: string) => Record<string, unknown> | undefined = envelopeHead): MarketFrameReader =>
  (text) => {
    const head = envelopeOf(text);
    // A heartbeat key beside an envelope's is the heartbeat's to answer: such a frame is parsed.
    if (head === undefined || 'ping' in head || 'pong' in head) return FAIL;
    head['data'] = [];
    const envelope = envelopeCheck(head);
    return envelope === FAIL ? FAIL : new ReadMessage(envelope, ForwardedRecordCodec, text);
  };
