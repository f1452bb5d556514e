import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { decodeWith } from '../decode';
import { ExecutionReportCodec, type ExecutionReport } from '../executionReport';
import { OutboundAccountInfoCodec, type OutboundAccountInfo } from '../outboundAccountInfo';
import { decodePrivateFrame, PrivateEventCodec, type PrivateEvent } from '../privateEvents';
import { TicketInfoCodec, type TicketInfo } from '../ticketInfo';
import type { DecodeError } from '../../errors';
import { fastCodec } from './fastCodec';
import { fastArray, fastStruct, isRecord } from './fastStruct';
import {
  FAIL,
  type Fast,
  fastBoolean,
  fastDecimal,
  fastId,
  fastInt,
  fastKeyof,
  fastLiteral,
  fastNullableString,
  fastString,
} from './scalars';

const fastSide = fastKeyof({ BUY: null, SELL: null });
const fastStatus = fastKeyof({
  NEW: null,
  PARTIALLY_FILLED: null,
  FILLED: null,
  PARTIALLY_CANCELED: null,
  CANCELED: null,
  REJECTED: null,
});

const fastExecutionReport = fastStruct<ExecutionReport>(
  {
    e: fastLiteral('executionReport'),
    E: fastInt,
    s: fastString,
    i: fastId,
    c: fastId,
    S: fastSide,
    o: fastString,
    X: fastStatus,
    q: fastDecimal,
    p: fastDecimal,
    z: fastDecimal,
    Z: fastDecimal,
  },
  {
    f: fastString,
    reqAmt: fastDecimal,
    d: fastId,
    l: fastDecimal,
    r: fastDecimal,
    L: fastDecimal,
    V: fastDecimal,
    n: fastDecimal,
    N: fastNullableString,
    u: fastBoolean,
    w: fastBoolean,
    m: fastBoolean,
    O: fastInt,
    U: fastInt,
    x: fastString,
  },
);

const fastTicketInfo = fastStruct<TicketInfo>(
  {
    e: fastLiteral('ticketInfo'),
    E: fastInt,
    s: fastString,
    q: fastDecimal,
    t: fastInt,
    p: fastDecimal,
    T: fastId,
    o: fastId,
    S: fastSide,
  },
  { c: fastId, O: fastId, a: fastId, m: fastBoolean },
);

const fastOutboundAccountInfo = fastStruct<OutboundAccountInfo>(
  {
    e: fastLiteral('outboundAccountInfo'),
    E: fastInt,
    B: fastArray(fastStruct({ a: fastString, f: fastDecimal, l: fastDecimal })),
  },
  { T: fastBoolean, W: fastBoolean, D: fastBoolean },
);

function fastPrivateEvent(u: unknown): Fast<PrivateEvent> {
  if (!isRecord(u)) return FAIL;
  switch (u.e) {
    case 'executionReport':
      return fastExecutionReport(u);
    case 'ticketInfo':
      return fastTicketInfo(u);
    case 'outboundAccountInfo':
      return fastOutboundAccountInfo(u);
    default:
      return FAIL;
  }
}

/**
 * `ExecutionReportCodec` with a hand-written fast path (same name, values and errors).
 *
 * @example
 * ```ts
 * import { FastExecutionReportCodec } from 'ex-streams';
 * FastExecutionReportCodec.name; // 'ExecutionReport'
 * ```
 */
export const FastExecutionReportCodec: t.Type<ExecutionReport, ExecutionReport, unknown> = fastCodec(
  ExecutionReportCodec,
  fastExecutionReport,
);

/**
 * `TicketInfoCodec` with a hand-written fast path (same name, values and errors).
 *
 * @example
 * ```ts
 * import { FastTicketInfoCodec } from 'ex-streams';
 * FastTicketInfoCodec.name; // 'TicketInfo'
 * ```
 */
export const FastTicketInfoCodec: t.Type<TicketInfo, TicketInfo, unknown> = fastCodec(TicketInfoCodec, fastTicketInfo);

/**
 * `OutboundAccountInfoCodec` with a hand-written fast path (same name, values and errors).
 *
 * @example
 * ```ts
 * import { FastOutboundAccountInfoCodec } from 'ex-streams';
 * FastOutboundAccountInfoCodec.name; // 'OutboundAccountInfo'
 * ```
 */
export const FastOutboundAccountInfoCodec: t.Type<OutboundAccountInfo, OutboundAccountInfo, unknown> = fastCodec(
  OutboundAccountInfoCodec,
  fastOutboundAccountInfo,
);

/**
 * `PrivateEventCodec` with a hand-written fast path: dispatch on `e`, then the event's fast check. Same
 * name, values and errors (`: PrivateEvent/executionReport: ExecutionReport/i: IdFromNumberOrString`).
 *
 * @example
 * ```ts
 * import { FastPrivateEventCodec } from 'ex-streams';
 * FastPrivateEventCodec.decode({ e: 'outboundAccountInfo', E: 1, B: [] }); // right({ e: 'outboundAccountInfo', E: 1, B: [] })
 * ```
 */
export const FastPrivateEventCodec: t.Type<PrivateEvent, PrivateEvent, unknown> = fastCodec(PrivateEventCodec, fastPrivateEvent);

/**
 * `decodePrivateFrame` over {@link FastPrivateEventCodec}: one `Either` per event of the frame, exactly
 * as `decodePrivateFrame` returns them (non-array, non-object frames go to it unchanged).
 *
 * @example
 * ```ts
 * import { decodePrivateFrameFast } from 'ex-streams';
 * decodePrivateFrameFast([{ e: 'outboundAccountInfo', E: 1, B: [] }, { e: 'nope' }]).map((r) => r._tag); // ['Right', 'Left']
 * ```
 */
export function decodePrivateFrameFast(json: unknown): Array<E.Either<DecodeError, PrivateEvent>> {
  if (Array.isArray(json)) return json.map((element) => decodeWith(FastPrivateEventCodec, element));
  if (isRecord(json)) return [decodeWith(FastPrivateEventCodec, json)];
  return decodePrivateFrame(json);
}
