import * as E from 'fp-ts/Either';
import { Observable, skip, type Subscriber } from 'rxjs';
import { decodeWith } from '../../codecs/decode';
import { fastCheckOf } from '../../codecs/fast/fastCodec';
import { decodePrivateFrameFast, FastPrivateEventCodec } from '../../codecs/fast/privateEvents';
import { FAIL } from '../../codecs/fast/scalars';
import { ConnectionClosedError } from '../../errors';
import { connectionCore, type ConnectionConfig } from '../../socket/connection';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import type { SessionItem } from './items';

/** Close code with which the service (and the simulator) ends a stream whose listen key is not valid. @internal */
export const INVALID_KEY_CLOSE_CODE = 4001;

/** Settings of one listen-key session. @internal */
export interface KeySessionSettings {
  /** Full stream URL, key included. */
  readonly url: string;
  readonly connection: ConnectionConfig;
  /** Consecutive failed (re)connection attempts, without an open in between, that make the key suspect. */
  readonly suspectAfterFailures: number;
  /** Called when the key looks dead: `dead` for a close 4001, not `dead` after repeated failures. */
  readonly onKeySuspect: (dead: boolean) => void;
}

const isKeyClose = (error: unknown): boolean =>
  error instanceof ConnectionClosedError && error.code === INVALID_KEY_CLOSE_CODE;

const isHeartbeat = (message: unknown): boolean =>
  typeof message === 'object' &&
  message !== null &&
  !Array.isArray(message) &&
  ('ping' in message || 'pong' in message);

const privateEventCheck = fastCheckOf(FastPrivateEventCodec)!;

/** One element of a private frame as an item: the fast check first, `decodeWith` (exact errors) when it fails. */
function decodeElement(element: unknown): SessionItem {
  const event = privateEventCheck(element);
  if (event !== FAIL) return { type: 'event', event };
  const r = decodeWith(FastPrivateEventCodec, element);
  return E.isRight(r) ? { type: 'event', event: r.right } : { type: 'error', error: r.left };
}

/**
 * Splits one message of the private stream into event and error items (heartbeats give nothing), exactly as
 * `decodePrivateFrame` would decode it. @internal
 */
export function decodeMessage(message: unknown): SessionItem[] {
  if (isHeartbeat(message)) return [];
  if (Array.isArray(message)) {
    const items: SessionItem[] = [];
    for (let i = 0; i < message.length; i++) items.push(decodeElement(message[i]));
    return items;
  }
  return decodePrivateFrameFast(message).map(
    (r): SessionItem => (E.isRight(r) ? { type: 'event', event: r.right } : { type: 'error', error: r.left }),
  );
}

/**
 * The decoding frame sink of a session: the items of each message go to `next` synchronously, in order
 * (the usual frame, an array of events: each element decoded and emitted at once, no array of items).
 */
function frameSink(subscriber: Subscriber<SessionItem>): (message: unknown) => void {
  return (message) => {
    if (Array.isArray(message)) {
      for (let i = 0; i < message.length && !subscriber.closed; i++) subscriber.next(decodeElement(message[i]));
      return;
    }
    const items = decodeMessage(message);
    for (let i = 0; i < items.length && !subscriber.closed; i++) subscriber.next(items[i]!);
  };
}

/**
 * Watches the statuses of one connection and calls `onKeySuspect` when the key looks dead: a close with
 * code 4001, or `threshold` reconnections in a row without an open. The count restarts after each call.
 * @internal
 */
export function keySuspicion(
  threshold: number,
  onKeySuspect: (dead: boolean) => void,
): (status: ConnectionStatus) => void {
  let failures = 0;
  return (status) => {
    switch (status.type) {
      case 'open':
        failures = 0;
        return;
      case 'connecting':
        return;
      case 'reconnecting':
      case 'closed': {
        if (status.cause === undefined) return; // closed on purpose (unsubscribe)
        failures += 1;
        const dead = isKeyClose(status.cause);
        if (dead || failures >= threshold) {
          failures = 0;
          onKeySuspect(dead);
        }
        return;
      }
      default: {
        const never: never = status;
        return never;
      }
    }
  };
}

/**
 * One connection to the private stream of one listen key, as items: decoded events, decode and connection
 * errors, statuses. Cold: subscribing opens the socket, unsubscribing closes it. A close with code 4001
 * (key not valid) ends the connection but not the session: it waits, silent, to be replaced by the session
 * of a new key. Any other fatal connection error (reconnection given up) errors the session.
 * @internal
 */
export function keySession(s: KeySessionSettings): Observable<SessionItem> {
  // `merge` of statuses, errors and decoded frames written as plain observers: frames come from the
  // connection's sink and reach the session's subscriber in one call (no `merge` / `catchError` hop).
  return new Observable<SessionItem>((subscriber) => {
    const core = connectionCore({ ...s.connection, url: s.url });
    const conn = core.connection;
    const watch = keySuspicion(s.suspectAfterFailures, s.onKeySuspect);
    let live = 3;
    const complete = (): void => {
      if (--live === 0) subscriber.complete();
    };
    const error = (e: unknown): void => subscriber.error(e);
    const subscription = conn.status$.pipe(skip(1)).subscribe({
      // skip(1): the replayed initial `closed` of a connection that has not started
      next: (status) => {
        watch(status);
        subscriber.next({ type: 'status', status });
      },
      error,
      complete,
    });
    subscription.add(conn.errors$.subscribe({ next: (e) => subscriber.next({ type: 'error', error: e }), error, complete }));
    subscription.add(
      core.frames(frameSink(subscriber)).subscribe({
        // A key closed as not valid ends the connection, not the session.
        error: (e: unknown) => (isKeyClose(e) ? complete() : error(e)),
        complete,
      }),
    );
    return subscription;
  });
}
