import * as t from 'io-ts';
import { isRecord } from '../internal/guards';
import { CheckedType, FAIL, type FastCheck } from './fastCheck';
import { IntFromNumberOrString } from './primitives';

/**
 * A private stream event of a type the library does not model, delivered as it came instead of as a decode
 * error: HashKey pushes more than `outboundAccountInfo`, `executionReport` and `ticketInfo` (custody, fiat and
 * contract account updates, `contractExecutionReport`, contract positions, an element whose `e` is `""`, …).
 * It is tagged `e: 'other'` so that a `switch (event.e)` over `PrivateEvent` stays exhaustive and narrows; the
 * event's own type is {@link OtherPrivateEvent.type}. It is never folded into `orders$` or `balances$`.
 *
 * @example
 * ```ts
 * import type { OtherPrivateEvent } from 'ex-streams';
 *
 * const position = (event: OtherPrivateEvent): string | undefined =>
 *   event.type === 'outboundContractPositionInfo' ? `${String(event.raw['s'])} ${String(event.raw['P'])}` : undefined;
 * // 'ETHUSDT-PERPETUAL 2'
 * ```
 */
export interface OtherPrivateEvent {
  /** Always `'other'`: the tag of an event type the library does not model. */
  readonly e: 'other';
  /** The event's type as sent (its `e` on the wire), e.g. `'outboundContractPositionInfo'`; may be `''`. */
  readonly type: string;
  /**
   * Event time in ms, when the element has an integer `E` (a number or numeric text); absent otherwise (then the
   * user stream delivers the event at once, without holding it for order).
   */
  readonly E?: number;
  /** The element's fields as parsed (64-bit integers exact, as text), its `e` and `E` included, unchanged. */
  readonly raw: Readonly<Record<string, unknown>>;
  /** The element's JSON text exactly as received, when it came from a stream frame (`userStream`). */
  readonly text?: string;
}

const OTHER = 'other';
const checkTime = (IntFromNumberOrString as CheckedType<number>).check;

/** The event `u` stands for, or `FAIL` when it is not an object whose `e` is text. */
const otherEvent: FastCheck<OtherPrivateEvent> = (u) => {
  if (!isRecord(u) || typeof u['e'] !== 'string') return FAIL;
  const E = u['E'] === undefined ? FAIL : checkTime(u['E']);
  return E === FAIL ? { e: OTHER, type: u['e'], raw: u } : { e: OTHER, type: u['e'], E, raw: u };
};

const isOther = (u: unknown): u is OtherPrivateEvent =>
  isRecord(u) &&
  u['e'] === OTHER &&
  typeof u['type'] === 'string' &&
  isRecord(u['raw']) &&
  (u['E'] === undefined || IntFromNumberOrString.is(u['E'])) &&
  (u['text'] === undefined || typeof u['text'] === 'string');

/**
 * The codec of {@link OtherPrivateEvent}: any object whose `e` is text becomes `{ e: 'other', type: <its e>, E?,
 * raw: <the object> }` (`E` when the object's `E` is an integer, as a number; an `E` of another kind is left in
 * `raw` only). Anything else fails at `: OtherPrivateEvent`. Encodes back to `raw`. `PrivateEventCodec` uses it
 * for every `e` it does not model; on its own it accepts known events too.
 *
 * @example
 * ```ts
 * import { OtherPrivateEventCodec } from 'ex-streams/codecs';
 * OtherPrivateEventCodec.decode({ e: 'outboundCustodyAccountInfo', E: '1714717314118', B: [] });
 * // right({ e: 'other', type: 'outboundCustodyAccountInfo', E: 1714717314118, raw: { e: ..., E: ..., B: [] } })
 * ```
 */
export const OtherPrivateEventCodec: t.Type<OtherPrivateEvent, Readonly<Record<string, unknown>>, unknown> = new CheckedType<
  OtherPrivateEvent,
  Readonly<Record<string, unknown>>
>(
  'OtherPrivateEvent',
  isOther,
  otherEvent,
  (u, c) => {
    const a = otherEvent(u);
    return a === FAIL ? t.failure(u, c) : t.success(a);
  },
  (a) => a.raw,
);
