import { ExecutionReportCodec } from '../executionReport';
import { inPlaceCheckOf } from '../fastCheck';
import { OutboundAccountInfoCodec } from '../outboundAccountInfo';
import { decodePrivateFrame, PrivateEventCodec } from '../privateEvents';
import { TicketInfoCodec } from '../ticketInfo';

/**
 * Aliases of the private event codecs, which carry their derived fast checks themselves.
 * @internal
 * @module
 */

/** @deprecated internal alias, removed at integration: use `ExecutionReportCodec`. @internal */
export const FastExecutionReportCodec = ExecutionReportCodec;
/** @deprecated internal alias, removed at integration: use `TicketInfoCodec`. @internal */
export const FastTicketInfoCodec = TicketInfoCodec;
/** @deprecated internal alias, removed at integration: use `OutboundAccountInfoCodec`. @internal */
export const FastOutboundAccountInfoCodec = OutboundAccountInfoCodec;
/** @deprecated internal alias, removed at integration: use `PrivateEventCodec`. @internal */
export const FastPrivateEventCodec = PrivateEventCodec;
/** @deprecated internal alias, removed at integration: use `decodePrivateFrame` (now on the fast path). @internal */
export const decodePrivateFrameFast = decodePrivateFrame;
/**
 * @deprecated internal alias, removed at integration: use `inPlaceCheckOf(PrivateEventCodec)` (from
 * `lib/codecs/fastCheck`): the derived check that writes converted fields into a value the caller owns
 * (any of the three events, not only execution reports). @internal
 */
export const fastPrivateEventInPlace = inPlaceCheckOf(PrivateEventCodec);
