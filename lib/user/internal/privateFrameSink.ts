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
import type { SessionItem } from './items';

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
 * unsubscribed. Heartbeat frames give nothing.
 * @internal
 */
export function frameSink(
  subscriber: Subscriber<SessionItem>,
  onEvent: (event: PrivateEvent, now: number) => void,
): (message: unknown, now: number) => void {
  return (message, now) => {
    if (!Array.isArray(message)) {
      if (isHeartbeat(message)) return;
      // One event object, or something that is no frame at all: one result either way.
      const r = decodePrivateFrame(message)[0]!;
      if (E.isRight(r)) onEvent(r.right, now);
      else subscriber.next({ type: 'error', error: r.left });
      return;
    }
    // The parsed frame is this sink's alone (the session's connection has no other sink): converted
    // fields are written into the element rather than into a copy of it.
    const n = message.length;
    let first: DecodeError | undefined;
    let failed = 0;
    for (let i = 0; i < n && !subscriber.closed; i++) {
      const element: unknown = message[i];
      const event = eventInPlace(element);
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
