import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { decodeWith } from '../decode';
import { ExecutionReportCodec, type ExecutionReport } from '../executionReport';
import { OutboundAccountInfoCodec, type OutboundAccountInfo } from '../outboundAccountInfo';
import { decodePrivateFrame, PrivateEventCodec, type PrivateEvent } from '../privateEvents';
import { TicketInfoCodec, type TicketInfo } from '../ticketInfo';
import type { DecodeError } from '../../errors';
import { fastCodec } from './fastCodec';
import { isRecord } from '../../internal/guards';
import { fastArray, fastStruct } from './fastStruct';
import {
  FAIL,
  type Fast,
  fastBoolean,
  fastDecimal,
  fastDecimalOrEmpty,
  fastId,
  fastInt,
  fastLiteral,
  fastNullableString,
  fastString,
  fastText,
} from './scalars';

/** `t.keyof({ BUY, SELL })` as two comparisons (no `hasOwnProperty` call through a dictionary). */
const fastSide = (u: unknown): Fast<'BUY' | 'SELL'> => (u === 'BUY' || u === 'SELL' ? u : FAIL);

/** `t.keyof` of the six order statuses, as a `switch`. */
function fastStatus(u: unknown): Fast<ExecutionReport['X']> {
  switch (u) {
    case 'NEW':
    case 'PARTIALLY_FILLED':
    case 'FILLED':
    case 'PARTIALLY_CANCELED':
    case 'CANCELED':
    case 'REJECTED':
      return u;
    default:
      return FAIL;
  }
}

/**
 * `fastStruct` of the execution report written out: monomorphic named loads and direct (inlinable) calls
 * instead of keyed loads and calls through an array, one per field. Same output: the input itself when
 * nothing converts, else one shallow copy with the converted fields — or, with `inPlace`, the input with
 * the converted fields written into it. Nothing is written (or copied) before every field has passed, so a
 * failed check leaves the input as it was.
 */
function fastExecutionReport(u: unknown, inPlace?: boolean): Fast<ExecutionReport> {
  if (!isRecord(u) || u['e'] !== 'executionReport') return FAIL;
  const E0 = u['E'];
  const E1 = fastInt(E0);
  if (E1 === FAIL) return FAIL;
  const s0 = u['s'];
  const s1 = fastString(s0);
  if (s1 === FAIL) return FAIL;
  const i0 = u['i'];
  const i1 = fastId(i0);
  if (i1 === FAIL) return FAIL;
  const c0 = u['c'];
  const c1 = fastText(c0);
  if (c1 === FAIL) return FAIL;
  const S0 = u['S'];
  const S1 = fastSide(S0);
  if (S1 === FAIL) return FAIL;
  const o0 = u['o'];
  const o1 = fastString(o0);
  if (o1 === FAIL) return FAIL;
  const X0 = u['X'];
  const X1 = fastStatus(X0);
  if (X1 === FAIL) return FAIL;
  const q0 = u['q'];
  const q1 = fastDecimal(q0);
  if (q1 === FAIL) return FAIL;
  const p0 = u['p'];
  const p1 = fastDecimal(p0);
  if (p1 === FAIL) return FAIL;
  const z0 = u['z'];
  const z1 = fastDecimal(z0);
  if (z1 === FAIL) return FAIL;
  const Z0 = u['Z'];
  const Z1 = fastDecimal(Z0);
  if (Z1 === FAIL) return FAIL;
  const f0 = u['f'];
  const f1 = f0 === undefined ? f0 : fastString(f0);
  if (f1 === FAIL) return FAIL;
  const reqAmt0 = u['reqAmt'];
  const reqAmt1 = reqAmt0 === undefined ? reqAmt0 : fastDecimalOrEmpty(reqAmt0);
  if (reqAmt1 === FAIL) return FAIL;
  const d0 = u['d'];
  const d1 = d0 === undefined ? d0 : fastText(d0);
  if (d1 === FAIL) return FAIL;
  const l0 = u['l'];
  const l1 = l0 === undefined ? l0 : fastDecimalOrEmpty(l0);
  if (l1 === FAIL) return FAIL;
  const r0 = u['r'];
  const r1 = r0 === undefined ? r0 : fastDecimalOrEmpty(r0);
  if (r1 === FAIL) return FAIL;
  const L0 = u['L'];
  const L1 = L0 === undefined ? L0 : fastDecimalOrEmpty(L0);
  if (L1 === FAIL) return FAIL;
  const V0 = u['V'];
  const V1 = V0 === undefined ? V0 : fastDecimalOrEmpty(V0);
  if (V1 === FAIL) return FAIL;
  const n0 = u['n'];
  const n1 = n0 === undefined ? n0 : fastDecimalOrEmpty(n0);
  if (n1 === FAIL) return FAIL;
  const N0 = u['N'];
  const N1 = N0 === undefined ? N0 : fastNullableString(N0);
  if (N1 === FAIL) return FAIL;
  const u0 = u['u'];
  const u1 = u0 === undefined ? u0 : fastBoolean(u0);
  if (u1 === FAIL) return FAIL;
  const w0 = u['w'];
  const w1 = w0 === undefined ? w0 : fastBoolean(w0);
  if (w1 === FAIL) return FAIL;
  const m0 = u['m'];
  const m1 = m0 === undefined ? m0 : fastBoolean(m0);
  if (m1 === FAIL) return FAIL;
  const O0 = u['O'];
  const O1 = O0 === undefined ? O0 : fastInt(O0);
  if (O1 === FAIL) return FAIL;
  const U0 = u['U'];
  const U1 = U0 === undefined ? U0 : fastInt(U0);
  if (U1 === FAIL) return FAIL;
  const x0 = u['x'];
  const x1 = x0 === undefined ? x0 : fastString(x0);
  if (x1 === FAIL) return FAIL;
  if (
    E1 === E0 && s1 === s0 && i1 === i0 && c1 === c0 && S1 === S0 &&
    o1 === o0 && X1 === X0 && q1 === q0 && p1 === p0 && z1 === z0 &&
    Z1 === Z0 && f1 === f0 && reqAmt1 === reqAmt0 && d1 === d0 && l1 === l0 &&
    r1 === r0 && L1 === L0 && V1 === V0 && n1 === n0 && N1 === N0 &&
    u1 === u0 && w1 === w0 && m1 === m0 && O1 === O0 && U1 === U0 &&
    x1 === x0
  ) {
    return u as unknown as ExecutionReport;
  }
  const out: Record<string, unknown> = inPlace === true ? u : { ...u };
  if (E1 !== E0) out['E'] = E1;
  if (s1 !== s0) out['s'] = s1;
  if (i1 !== i0) out['i'] = i1;
  if (c1 !== c0) out['c'] = c1;
  if (S1 !== S0) out['S'] = S1;
  if (o1 !== o0) out['o'] = o1;
  if (X1 !== X0) out['X'] = X1;
  if (q1 !== q0) out['q'] = q1;
  if (p1 !== p0) out['p'] = p1;
  if (z1 !== z0) out['z'] = z1;
  if (Z1 !== Z0) out['Z'] = Z1;
  if (f1 !== f0) out['f'] = f1;
  if (reqAmt1 !== reqAmt0) out['reqAmt'] = reqAmt1;
  if (d1 !== d0) out['d'] = d1;
  if (l1 !== l0) out['l'] = l1;
  if (r1 !== r0) out['r'] = r1;
  if (L1 !== L0) out['L'] = L1;
  if (V1 !== V0) out['V'] = V1;
  if (n1 !== n0) out['n'] = n1;
  if (N1 !== N0) out['N'] = N1;
  if (u1 !== u0) out['u'] = u1;
  if (w1 !== w0) out['w'] = w1;
  if (m1 !== m0) out['m'] = m1;
  if (O1 !== O0) out['O'] = O1;
  if (U1 !== U0) out['U'] = U1;
  if (x1 !== x0) out['x'] = x1;
  return out as unknown as ExecutionReport;
}

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
  { c: fastText, O: fastId, a: fastId, m: fastBoolean },
);

const fastOutboundAccountInfo = fastStruct<OutboundAccountInfo>(
  {
    e: fastLiteral('outboundAccountInfo'),
    E: fastInt,
    B: fastArray(fastStruct({ a: fastString, f: fastDecimal, l: fastDecimal })),
  },
  { T: fastBoolean, W: fastBoolean, D: fastBoolean },
);

/**
 * The fast check of {@link FastPrivateEventCodec} for a value the caller owns alone (a freshly parsed
 * frame element): an execution report's converted fields (`O` as text, say) are written into the value
 * instead of into a copy. Other events are checked as by the codec. Same result by value, and the value is
 * untouched when the check fails (`FAIL`).
 * @internal
 */
export function fastPrivateEventInPlace(u: unknown): Fast<PrivateEvent> {
  return isRecord(u) && u['e'] === 'executionReport' ? fastExecutionReport(u, true) : fastPrivateEvent(u);
}

function fastPrivateEvent(u: unknown): Fast<PrivateEvent> {
  if (!isRecord(u)) return FAIL;
  switch (u['e']) {
    case 'executionReport':
      return fastExecutionReport(u, false);
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
