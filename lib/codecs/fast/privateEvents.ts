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

/**
 * `fastStruct` of the execution report written out: monomorphic named loads and direct (inlinable) calls
 * instead of keyed loads and calls through an array, one per field. Same output: the input itself, or one
 * shallow copy with the converted fields.
 */
function fastExecutionReport(u: unknown): Fast<ExecutionReport> {
  if (!isRecord(u) || u.e !== 'executionReport') return FAIL;
  let out: Record<string, unknown> | undefined;
  const E0 = u.E;
  const E1 = fastInt(E0);
  if (E1 === FAIL) return FAIL;
  if (E1 !== E0) (out ??= { ...u }).E = E1;
  const s0 = u.s;
  const s1 = fastString(s0);
  if (s1 === FAIL) return FAIL;
  if (s1 !== s0) (out ??= { ...u }).s = s1;
  const i0 = u.i;
  const i1 = fastId(i0);
  if (i1 === FAIL) return FAIL;
  if (i1 !== i0) (out ??= { ...u }).i = i1;
  const c0 = u.c;
  const c1 = fastId(c0);
  if (c1 === FAIL) return FAIL;
  if (c1 !== c0) (out ??= { ...u }).c = c1;
  const S0 = u.S;
  const S1 = fastSide(S0);
  if (S1 === FAIL) return FAIL;
  if (S1 !== S0) (out ??= { ...u }).S = S1;
  const o0 = u.o;
  const o1 = fastString(o0);
  if (o1 === FAIL) return FAIL;
  if (o1 !== o0) (out ??= { ...u }).o = o1;
  const X0 = u.X;
  const X1 = fastStatus(X0);
  if (X1 === FAIL) return FAIL;
  if (X1 !== X0) (out ??= { ...u }).X = X1;
  const q0 = u.q;
  const q1 = fastDecimal(q0);
  if (q1 === FAIL) return FAIL;
  if (q1 !== q0) (out ??= { ...u }).q = q1;
  const p0 = u.p;
  const p1 = fastDecimal(p0);
  if (p1 === FAIL) return FAIL;
  if (p1 !== p0) (out ??= { ...u }).p = p1;
  const z0 = u.z;
  const z1 = fastDecimal(z0);
  if (z1 === FAIL) return FAIL;
  if (z1 !== z0) (out ??= { ...u }).z = z1;
  const Z0 = u.Z;
  const Z1 = fastDecimal(Z0);
  if (Z1 === FAIL) return FAIL;
  if (Z1 !== Z0) (out ??= { ...u }).Z = Z1;
  const f0 = u.f;
  if (f0 !== undefined) {
    const f1 = fastString(f0);
    if (f1 === FAIL) return FAIL;
    if (f1 !== f0) (out ??= { ...u }).f = f1;
  }
  const reqAmt0 = u.reqAmt;
  if (reqAmt0 !== undefined) {
    const reqAmt1 = fastDecimal(reqAmt0);
    if (reqAmt1 === FAIL) return FAIL;
    if (reqAmt1 !== reqAmt0) (out ??= { ...u }).reqAmt = reqAmt1;
  }
  const d0 = u.d;
  if (d0 !== undefined) {
    const d1 = fastId(d0);
    if (d1 === FAIL) return FAIL;
    if (d1 !== d0) (out ??= { ...u }).d = d1;
  }
  const l0 = u.l;
  if (l0 !== undefined) {
    const l1 = fastDecimal(l0);
    if (l1 === FAIL) return FAIL;
    if (l1 !== l0) (out ??= { ...u }).l = l1;
  }
  const r0 = u.r;
  if (r0 !== undefined) {
    const r1 = fastDecimal(r0);
    if (r1 === FAIL) return FAIL;
    if (r1 !== r0) (out ??= { ...u }).r = r1;
  }
  const L0 = u.L;
  if (L0 !== undefined) {
    const L1 = fastDecimal(L0);
    if (L1 === FAIL) return FAIL;
    if (L1 !== L0) (out ??= { ...u }).L = L1;
  }
  const V0 = u.V;
  if (V0 !== undefined) {
    const V1 = fastDecimal(V0);
    if (V1 === FAIL) return FAIL;
    if (V1 !== V0) (out ??= { ...u }).V = V1;
  }
  const n0 = u.n;
  if (n0 !== undefined) {
    const n1 = fastDecimal(n0);
    if (n1 === FAIL) return FAIL;
    if (n1 !== n0) (out ??= { ...u }).n = n1;
  }
  const N0 = u.N;
  if (N0 !== undefined) {
    const N1 = fastNullableString(N0);
    if (N1 === FAIL) return FAIL;
    if (N1 !== N0) (out ??= { ...u }).N = N1;
  }
  const u0 = u.u;
  if (u0 !== undefined) {
    const u1 = fastBoolean(u0);
    if (u1 === FAIL) return FAIL;
    if (u1 !== u0) (out ??= { ...u }).u = u1;
  }
  const w0 = u.w;
  if (w0 !== undefined) {
    const w1 = fastBoolean(w0);
    if (w1 === FAIL) return FAIL;
    if (w1 !== w0) (out ??= { ...u }).w = w1;
  }
  const m0 = u.m;
  if (m0 !== undefined) {
    const m1 = fastBoolean(m0);
    if (m1 === FAIL) return FAIL;
    if (m1 !== m0) (out ??= { ...u }).m = m1;
  }
  const O0 = u.O;
  if (O0 !== undefined) {
    const O1 = fastInt(O0);
    if (O1 === FAIL) return FAIL;
    if (O1 !== O0) (out ??= { ...u }).O = O1;
  }
  const U0 = u.U;
  if (U0 !== undefined) {
    const U1 = fastInt(U0);
    if (U1 === FAIL) return FAIL;
    if (U1 !== U0) (out ??= { ...u }).U = U1;
  }
  const x0 = u.x;
  if (x0 !== undefined) {
    const x1 = fastString(x0);
    if (x1 === FAIL) return FAIL;
    if (x1 !== x0) (out ??= { ...u }).x = x1;
  }
  return (out ?? u) as unknown as ExecutionReport;
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
