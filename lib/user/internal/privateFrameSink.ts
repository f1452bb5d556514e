import * as E from 'fp-ts/Either';
import type { Subscriber } from 'rxjs';
import { decodeWith } from '../../codecs/decode';
import { fastCheckOf } from '../../codecs/fast/fastCodec';
import { decodePrivateFrameFast, fastPrivateEventInPlace, FastPrivateEventCodec } from '../../codecs/fast/privateEvents';
import { FAIL } from '../../codecs/fast/scalars';
import type { PrivateEvent } from '../../codecs/privateEvents';
import type { DecodeError } from '../../errors';
import type { SessionItem } from './items';

/**
 * The decoding of private stream frames: each message of a listen-key session becomes events (handed on by
 * one plain call) and `DecodeError` items.
 * @internal
 * @module
 */

/** One element of a private frame, decoded: an event or its `DecodeError`. @internal */
export type DecodedElement = { readonly type: 'event'; readonly event: PrivateEvent } | { readonly type: 'error'; readonly error: DecodeError };

const isHeartbeat = (message: unknown): boolean =>
  typeof message === 'object' &&
  message !== null &&
  !Array.isArray(message) &&
  ('ping' in message || 'pong' in message);

const privateEventCheck = fastCheckOf(FastPrivateEventCodec)!;

/** The exact decoding of an element the fast check refused: the event after all, or its `DecodeError`. */
function decodeSlow(element: unknown): DecodedElement {
  const r = decodeWith(FastPrivateEventCodec, element);
  return E.isRight(r) ? { type: 'event', event: r.right } : { type: 'error', error: r.left };
}

/**
 * Splits one message of the private stream into decoded elements (heartbeats give nothing), exactly as
 * `decodePrivateFrame` would decode it. @internal
 */
function decodeMessage(message: unknown): DecodedElement[] {
  if (isHeartbeat(message)) return [];
  if (Array.isArray(message)) {
    const items: DecodedElement[] = [];
    for (let i = 0; i < message.length; i++) {
      const event = privateEventCheck(message[i]);
      items.push(event !== FAIL ? { type: 'event', event } : decodeSlow(message[i]));
    }
    return items;
  }
  return decodePrivateFrameFast(message).map(
    (r): DecodedElement => (E.isRight(r) ? { type: 'event', event: r.right } : { type: 'error', error: r.left }),
  );
}

/**
 * The decoding frame sink of a session: events go to `onEvent`, decode errors to the subscriber, in frame
 * order, synchronously (the usual frame, an array of events: each element checked and handed on at once,
 * with no item object or array per event). Nothing is handed on once the session is unsubscribed.
 * @internal
 */
export function frameSink(
  subscriber: Subscriber<SessionItem>,
  onEvent: (event: PrivateEvent, now: number) => void,
): (message: unknown, now: number) => void {
  const emit = (d: DecodedElement, now: number): void => {
    if (d.type === 'event') onEvent(d.event, now);
    else subscriber.next(d);
  };
  return (message, now) => {
    if (Array.isArray(message)) {
      // The parsed frame is this sink's alone (the session's connection has no other sink): converted
      // fields are written into the element rather than into a copy of it.
      for (let i = 0; i < message.length && !subscriber.closed; i++) {
        const event = fastPrivateEventInPlace(message[i]);
        if (event !== FAIL) onEvent(event, now);
        else emit(decodeSlow(message[i]), now);
      }
      return;
    }
    const items = decodeMessage(message);
    for (let i = 0; i < items.length && !subscriber.closed; i++) emit(items[i]!, now);
  };
}
