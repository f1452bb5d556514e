/**
 * Step 1 of the private path (see `userCore`): one connection per listen key. The session is given its event
 * sink (`onEvent`, the run's `toBuffer`) when it is made; its frames go to the decoder (`frameSink`, step 2)
 * and on by plain calls; statuses and errors come out as items.
 * @internal
 * @module
 */
import { Observable, skip } from 'rxjs';
import { ConfigError, ConnectionClosedError } from '../../errors';
import { connectionCore, type ConnectionConfig } from '../../socket/connection';
import type { ConnectionStatus } from '../../socket/connectionStatus';
import type { PrivateEvent } from '../../codecs/privateEvents';
import type { SessionItem } from './items';
import { frameSink } from './privateFrameSink';
import { privateFrameReader } from './privateFrameReader';

/** Close code with which the service (and the simulator) ends a stream whose listen key is not valid. @internal */
export const INVALID_KEY_CLOSE_CODE = 4001;

const isKeyClose = (error: unknown): boolean =>
  error instanceof ConnectionClosedError && error.code === INVALID_KEY_CLOSE_CODE;

/**
 * The private stream's reconnection rule: retry everything except a close 4001 (the key is dead: the session
 * ends and the key is recreated) and a `ConfigError`. Other 4000-4999 closes are the service's word too, and
 * retried with the connection's backoff.
 * @internal
 */
export const retryUnlessKeyDead = (error: unknown): boolean => !isKeyClose(error) && !(error instanceof ConfigError);

/**
 * Where a session writes the time (scheduler clock) of the last frame it received, heartbeats included; the
 * user stream lowers it to the write time of that frame's events (their `E` on the local clock) when earlier:
 * a frame read late by a busy process still dates the end of delivery from when the service wrote it.
 * @internal
 */
export interface FrameClock {
  lastFrameAt: number | undefined;
}

/** Settings of one listen-key session. @internal */
export interface KeySessionSettings {
  /** Full stream URL, key included. */
  readonly url: string;
  readonly connection: ConnectionConfig;
  /** Consecutive failed (re)connection attempts, without an open in between, that make the key suspect. */
  readonly suspectAfterFailures: number;
  /** Called when the key looks dead: `dead` for a close 4001, not `dead` after repeated failures. */
  readonly onKeySuspect: (dead: boolean) => void;
  /** Each decoded event, in frame order, by one plain call (while the session is subscribed), with the
   * scheduler's time at which its frame arrived. */
  readonly onEvent: (event: PrivateEvent, now: number) => void;
  /** Called after each frame's events went to `onEvent`. */
  readonly onFrameEnd?: (() => void) | undefined;
  /** Updated on every frame (the end of a gap is the last frame received, not the time the loss was noticed). */
  readonly frameClock: FrameClock;
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
 * One connection to the private stream of one listen key: decoded events to `onEvent`, and as items decode
 * and connection errors and statuses. Cold: subscribing opens the socket, unsubscribing closes it. A close with code 4001
 * (key not valid) ends the connection but not the session: it waits, silent, to be replaced by the session
 * of a new key. Every other loss is retried ({@link retryUnlessKeyDead}, unless the caller's `reconnect`
 * says otherwise); a reconnection the caller's own settings give up errors the session.
 * @internal
 */
export function keySession(s: KeySessionSettings): Observable<SessionItem> {
  // `merge` of statuses, errors and decoded frames written as plain observers: frames come from the
  // connection's sink and reach the session's subscriber in one call (no `merge` / `catchError` hop).
  return new Observable<SessionItem>((subscriber) => {
    const { reconnect } = s.connection;
    const core = connectionCore({
      ...s.connection,
      url: s.url,
      reconnect: reconnect === false ? false : { ...reconnect, shouldReconnect: reconnect?.shouldReconnect ?? retryUnlessKeyDead },
    }, { exactIntegers: 'on-demand', readFrame: privateFrameReader() });
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
    const sink = frameSink(subscriber, s.onEvent);
    const clock = s.frameClock;
    subscription.add(
      core
        .frames((message, now, exact, text) => {
          clock.lastFrameAt = now;
          sink(message, now, exact, text);
          s.onFrameEnd?.();
        })
        .subscribe({
          // A key closed as not valid ends the connection, not the session.
          error: (e: unknown) => (isKeyClose(e) ? complete() : error(e)),
          complete,
        }),
    );
    return subscription;
  });
}
