/**
 * Step 2 of the private path (see `userCore`): the decoding of private stream frames. Each message of a
 * listen-key session becomes events, handed on one by one by a plain call to the session's sink (the guard
 * in front of the reorder buffer, step 3), and at most one `DecodeError` item.
 * @internal
 * @module
 */
import * as E from 'fp-ts/Either';
import type { Subscriber } from 'rxjs';
import { countedDecodeError, decodeWith } from '../../codecs/decode';
import { FAIL, inPlaceCheckOf } from '../../codecs/fastCheck';
import { decodePrivateFrame, type PrivateEvent, PrivateEventCodec } from '../../codecs/privateEvents';
import type { DecodeError } from '../../errors';
import type { FrameSink } from '../../frame/frameSink';
import type { SessionItem } from './items';
import { elementTexts } from './elementTexts';
import { ReadEvents } from './privateFrameReader';

/** The private event check in place: the parsed frame is this session's alone (converted fields are written into it). */
const eventInPlace = inPlaceCheckOf(PrivateEventCodec);

const isHeartbeat = (message: unknown): boolean =>
  typeof message === 'object' &&
  message !== null &&
  !Array.isArray(message) &&
  ('ping' in message || 'pong' in message);

/**
 * The decoding frame sink of a session: events go to `onEvent` in frame order, synchronously (the usual
 * frame, an array of events: each element checked and handed on at once, with no item object or array per
 * event). The events of a frame that fail to decode are left out and reported as ONE `DecodeError` item per
 * frame, after its good events: it counts them and carries the exact paths of the first one only. After
 * that first failure an element the fast check refuses is counted without running the codec (the check
 * refuses exactly what the codec refuses, property-tested in `spec/codecs/fastCheck.spec.ts`), so a frame of two
 * million bad events costs about what its `JSON.parse` cost. Nothing is handed on once the session is
 * unsubscribed. Heartbeat frames give nothing. The session parses frames as they are (`exactIntegers:
 * 'on-demand'`): an event refused by its check is checked again in the frame's exact parse (`exact()`), so
 * bare 64-bit ids arrive exact and frames without them skip the long-integer scan.
 *
 * An event of a type the library does not model (`OtherPrivateEvent`) is handed on like any other, with its
 * element's exact text (`text`, from the frame's text) and its fields from the frame's exact parse (its check
 * accepts any number, so it asks for the exact parse itself): it never costs the frame's other events.
 * @internal
 */
export function frameSink(
  subscriber: Subscriber<SessionItem>,
  onEvent: (event: PrivateEvent, now: number) => void,
): FrameSink {
  return (message, now, exact, text) => {
    // The usual frame, read from its text with its events checked (privateFrameReader): handed on as they are.
    if (message instanceof ReadEvents) {
      const events = message.events;
      for (let i = 0; i < events.length && !subscriber.closed; i++) onEvent(events[i]!, now);
      return;
    }
    if (!Array.isArray(message)) {
      if (isHeartbeat(message)) return;
      // One event object, or something that is no frame at all: one result either way (after a failure,
      // the frame's exact parse, if its long integers were rounded).
      let r = decodePrivateFrame(message)[0]!;
      if (E.isLeft(r) && exact !== undefined) {
        const precise = exact();
        if (precise !== undefined) r = decodePrivateFrame(precise)[0]!;
      }
      if (E.isRight(r) && r.right.e === 'other') {
        // Its fields exact (its check accepts a rounded number), and its text.
        const precise = exact?.();
        if (precise !== undefined) r = decodePrivateFrame(precise)[0]!;
        if (E.isRight(r) && r.right.e === 'other' && text !== undefined) r = E.right({ ...r.right, text: text.trim() });
      }
      if (E.isRight(r)) onEvent(r.right, now);
      else subscriber.next({ type: 'error', error: r.left });
      return;
    }
    // The parsed frame is this sink's alone (the session's connection has no other sink): converted
    // fields are written into the element rather than into a copy of it.
    const n = message.length;
    let first: DecodeError | undefined;
    let failed = 0;
    let frame: readonly unknown[] = message;
    // Long integers were parsed as numbers (rounded past 2^53); every check refuses an unsafe integer, so the
    // first element refused is checked again in the frame's exact parse, which the rest then comes from.
    let exactTried = exact === undefined;
    // The texts of the frame's elements, once an event the library does not model needs its own.
    let texts: readonly string[] | undefined;
    for (let i = 0; i < n && !subscriber.closed; i++) {
      let element: unknown = frame[i];
      let event = eventInPlace(element);
      // Its check accepts any number, a rounded one too: an event of another type takes its fields from the exact parse.
      if ((event === FAIL || event.e === 'other') && !exactTried) {
        exactTried = true;
        const precise = exact!();
        if (Array.isArray(precise) && precise.length === n) {
          frame = precise;
          element = precise[i];
          event = eventInPlace(element);
        }
      }
      if (event !== FAIL && event.e === 'other' && text !== undefined) {
        texts ??= elementTexts(text);
        if (texts.length === n) event = { ...event, text: texts[i]! };
      }
      if (event !== FAIL) onEvent(event, now);
      else if (first !== undefined) failed++;
      else {
        const r = decodeWith(PrivateEventCodec, element);
        if (E.isRight(r)) onEvent(r.right, now);
        else {
          first = r.left;
          failed++;
        }
      }
    }
    if (first !== undefined && !subscriber.closed) {
      subscriber.next({ type: 'error', error: countedDecodeError(first, failed, n, 'private events') });
    }
  };
}
