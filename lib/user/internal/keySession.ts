import * as E from 'fp-ts/Either';
import { catchError, defer, EMPTY, from, map, merge, mergeMap, skip, tap, throwError, type Observable } from 'rxjs';
import { decodePrivateFrame } from '../../codecs/privateEvents';
import { ConnectionClosedError } from '../../errors';
import { connection, type ConnectionConfig } from '../../socket/connection';
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

/** Splits one message of the private stream into event and error items (heartbeats give nothing). @internal */
export function decodeMessage(message: unknown): SessionItem[] {
  if (isHeartbeat(message)) return [];
  return decodePrivateFrame(message).map(
    (r): SessionItem => (E.isRight(r) ? { type: 'event', event: r.right } : { type: 'error', error: r.left }),
  );
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
  return defer(() => {
    const conn = connection({ ...s.connection, url: s.url });
    const watch = keySuspicion(s.suspectAfterFailures, s.onKeySuspect);
    return merge(
      conn.status$.pipe(
        skip(1), // the replayed initial `closed` of a connection that has not started
        tap(watch),
        map((status): SessionItem => ({ type: 'status', status })),
      ),
      conn.errors$.pipe(map((error): SessionItem => ({ type: 'error', error }))),
      conn.messages$.pipe(
        mergeMap((message) => from(decodeMessage(message))),
        catchError((error: unknown) => (isKeyClose(error) ? EMPTY : throwError(() => error))),
      ),
    );
  });
}
