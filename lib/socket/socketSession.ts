// Data path (notes/architecture.md, "The data path"): step 1, one websocket (heartbeats, watchdog, close → error); its frames go to frameHandler (steps 2-3).
import { Observable, type SchedulerLike, Subscription } from 'rxjs';
import type { DecodeError } from '../errors';
import { redact } from '../internal/redact';
import { scheduleRepeating } from '../internal/scheduleRepeating';
import { defaultInflateRaw } from '../frame/defaultInflateRaw';
import { frameHandler } from '../frame/frameHandler';
import type { FrameLimits } from '../frame/frameLimits';
import type { FrameSink } from '../frame/frameSink';
import { handleHeartbeat, type HeartbeatState, pingSent } from './heartbeat';
import { missingInflater } from '../frame/missingInflater';
import type { ServerClockSampler } from './serverClock';
import { silenceWatchdog } from './silenceWatchdog';
import { closedError, displayAddress, type TransportError, transportError, unusableAddress, upgradeAnswer } from './socketFailure';
import { WS_CONNECTING, WS_OPEN, type WebSocketCtor, type WebSocketLike } from './webSocketLike';

/** Everything one socket's life needs. @internal */
export interface SessionSettings {
  readonly url: string;
  readonly Ctor: WebSocketCtor;
  readonly scheduler: SchedulerLike;
  readonly pingIntervalMs: number;
  readonly heartbeatTimeoutMs: number;
  readonly limits: FrameLimits;
  readonly clock: ServerClockSampler;
  /** The socket opened: flush queued frames, announce the new epoch. */
  readonly onOpen: (socket: WebSocketLike) => void;
  /**
   * The socket can no longer send (closed by either side, heartbeat timeout, or torn down). `wasOpen` tells
   * whether it had opened; `lastSeenAt` is the scheduler time of the last frame received on it (any frame,
   * pongs included), or of its open when none came: from then on the service's messages may be lost.
   * `lastPongServerTime`: the server time of the last public pong it received, if any (when the service wrote it).
   */
  readonly onEnd: (wasOpen: boolean, lastSeenAt: number, lastPongServerTime: number | undefined) => void;
  /**
   * Each decoded JSON message (heartbeats included), by one plain call per frame, with the scheduler's time
   * at which the frame arrived (read once per frame, for the watchdog; sinks reuse it instead of reading again).
   */
  readonly onMessage: FrameSink;
  readonly onDecodeError: (error: DecodeError) => void;
  /**
   * How integer literals of 16+ digits (64-bit ids) are kept exact: `'eager'` quotes them before `JSON.parse`
   * (every message is exact as handed over); `'on-demand'` parses as is and hands `onMessage` an `exact()` that
   * re-parses the frame with them quoted, for a sink that checks every number it reads (a rounded id fails its
   * check) and asks only then. Default `'eager'`.
   */
  readonly exactIntegers?: 'eager' | 'on-demand' | undefined;
  /**
   * A reader of the frames' usual shape (the market feed's, `marketFrameReader`): what it reads from a frame's
   * text (never `FAIL`, never a heartbeat) goes to `onMessage` instead of a parse; on `FAIL` the text is parsed.
   */
  readonly readFrame?: ((text: string) => unknown) | undefined;
}

const noop = (): void => undefined;

/**
 * One websocket, cold: created on subscribe, closed with code 1000 on unsubscribe. Hands each decoded
 * JSON message (heartbeats included) to `onMessage` (it emits nothing itself); sends `{ ping: now }` on open and every `pingIntervalMs`; answers
 * server pings; feeds the server clock; errors with `ConnectionClosedError` when the socket closes (with what
 * failed and the redacted address when it never opened or the runtime reported an error, see `closedError`),
 * with `HeartbeatTimeoutError` when nothing (not even the open) arrives for `heartbeatTimeoutMs`, and with a
 * `ConfigError` on `url` when the constructor throws (an address the runtime cannot use), and with a `ConfigError`
 * on `inflateRaw` at the first binary frame when there is no inflater (browser build, none in `limits`).
 * Bad frames go to `onDecodeError` and the socket keeps going; so does anything thrown while a frame is
 * decoded or handled (decoders, heartbeat, sinks: one try/catch per frame), as a `DecodeError`
 * `frame handling failed: …`. The close reason is redacted (the address's `/ws/` segment, then the generic
 * rules) and cut to 123 characters.
 * @internal
 */
export function socketSession(s: SessionSettings): Observable<never> {
  return new Observable<never>((subscriber) => {
    const { scheduler } = s;
    const secrets = urlSecrets(s.url);
    const timers = new Subscription();
    const heartbeat: HeartbeatState = { pingsSentAt: [], lastPongServerTime: undefined };
    let lastSeenAt = scheduler.now();
    let opened = false;
    let ended = false;
    /** The first transport error reported (`ws` only: a browser's error event says nothing). */
    let failure: TransportError | undefined;
    const reply = (text: string): void => socket.send(text);

    const end = (): void => {
      if (ended) return;
      ended = true;
      timers.unsubscribe();
      socket.onopen = socket.onmessage = socket.onclose = null;
      emitter?.removeListener('message', onData);
      emitter?.removeListener('unexpected-response', onAnswer);
      socket.onerror = noop; // `ws` throws on an 'error' event nobody listens to
      s.onEnd(opened, lastSeenAt, heartbeat.lastPongServerTime);
    };

    let created: WebSocketLike;
    try {
      created = new s.Ctor(s.url);
    } catch (thrown: unknown) {
      // an address the runtime cannot use at all (wrong scheme, fragment): the user's mistake, not retried
      subscriber.error(unusableAddress(thrown, displayAddress(s.url, secrets), secrets));
      return undefined;
    }
    const socket = created;
    const emitter = wsEmitter(socket);
    // `ws` hands binary frames over as Buffers without a copy; other sockets give ArrayBuffers.
    socket.binaryType = emitter ? 'nodebuffer' : 'arraybuffer';
    // Always followed by a close event; `ws`'s error says why (ECONNREFUSED, an HTTP status), a browser's nothing.
    socket.onerror = (event) => {
      failure ??= transportError(event, secrets);
    };
    /** How late a timer may run before the process counts as stalled (see `silenceWatchdog`). */
    const toleranceMs = s.pingIntervalMs / 10;
    /** When the ping timer last found the process stalled (it ran more than `toleranceMs` late). */
    let stalledAt: number | undefined;
    socket.onopen = () => {
      opened = true;
      lastSeenAt = scheduler.now();
      s.onOpen(socket);
      timers.add(pings(socket, scheduler, lastSeenAt, s.pingIntervalMs, heartbeat, toleranceMs, (at) => (stalledAt = at)));
    };
    /** Whether zip frames can be inflated: always, but in the browser build without `inflateRaw`. */
    const inflates = (s.limits.inflateRaw ?? defaultInflateRaw) !== undefined;
    const handle = frameHandler({
      limits: s.limits,
      secrets,
      exactIntegers: s.exactIntegers,
      readFrame: s.readFrame,
      onParsed: (message, now) => handleHeartbeat(message, now, heartbeat, s.clock, reply),
      onMessage: s.onMessage,
      onDecodeError: s.onDecodeError,
    });
    const onFrame = (data: unknown): void => {
      const now = scheduler.now();
      lastSeenAt = now;
      // A binary frame without an inflater (browser build, none configured): the user's mistake, told once.
      if (!inflates && typeof data !== 'string') return subscriber.error(missingInflater());
      handle(data, now);
    };
    // `ws` (Node): its own 'message' event, without the `MessageEvent` its `onmessage` builds per frame.
    // A text frame arrives as its UTF-8 bytes (a `Buffer`): decoded to a string, then handled like any text frame.
    const onData = (data: WsData, isBinary: boolean): void => onFrame(isBinary || !(data instanceof Uint8Array) ? data : data.toString());
    if (emitter) emitter.on('message', onData);
    else socket.onmessage = (event) => onFrame(event.data);
    // `ws` (Node) shows an upgrade answered with an HTTP status (a 429, a 503) to an 'unexpected-response'
    // listener, headers included: its status and `Retry-After` are kept, then the handshake is dropped as `ws`
    // does without a listener (the error and close events follow). A browser shows neither.
    const onAnswer = (_request: unknown, response: unknown): void => {
      failure ??= upgradeAnswer(response, scheduler.now());
      try {
        abort(socket);
      } catch {
        // nothing to drop: ws's own close event still ends the session
      }
    };
    emitter?.on('unexpected-response', onAnswer);
    socket.onclose = (event) => {
      end();
      subscriber.error(closedError(event, closeReason(event.reason, secrets), opened, failure, displayAddress(s.url, secrets)));
    };
    timers.add(
      // A silence found just after a stall of this process waits one ping interval for the frames already on the
      // socket and the answer to the ping sent at the stall's end (see `silenceWatchdog`).
      silenceWatchdog(s.heartbeatTimeoutMs, () => lastSeenAt, scheduler, { graceMs: s.pingIntervalMs, toleranceMs, stalledAt: () => stalledAt }).subscribe({
        error: (error: unknown) => {
          end();
          abort(socket);
          subscriber.error(error);
        },
      }),
    );

    return () => {
      if (ended) return;
      end();
      if (socket.readyState === WS_OPEN || socket.readyState === WS_CONNECTING) socket.close(1000);
    };
  });
}

/**
 * Sends `{"ping":now}` on `socket` (opened at `openedAt`) now and every `pingIntervalMs` (noted in `heartbeat`), one action at a time for a
 * socket open any length of time (see `scheduleRepeating`: not `timer(0, period)`); `onStall(at)` when a ping ran
 * more than `toleranceMs` late (the process was stalled).
 */
function pings(
  socket: WebSocketLike,
  scheduler: SchedulerLike,
  openedAt: number,
  pingIntervalMs: number,
  heartbeat: HeartbeatState,
  toleranceMs: number,
  onStall: (at: number) => void,
): Subscription {
  let pingDueAt = openedAt;
  return scheduleRepeating(
    scheduler,
    () => {
      const at = scheduler.now();
      if (at - pingDueAt > toleranceMs) onStall(at);
      pingDueAt = at + pingIntervalMs;
      pingSent(heartbeat, at);
      socket.send(`{"ping":${at}}`);
      return pingIntervalMs;
    },
    0,
  );
}

/**
 * The secret of a stream address: the path segment after `/ws/` (the private stream's listen key), as
 * written and percent-decoded, for {@link redact}. @internal
 */
export function urlSecrets(url: string): string[] {
  const segment = /\/ws\/([^/?#\s]+)/.exec(url)?.[1];
  if (segment === undefined) return [];
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // a malformed escape: the raw segment is the secret
  }
  return decoded === segment ? [segment] : [segment, decoded];
}

/** Longest close reason kept, in UTF-16 code units: the protocol allows 123 bytes. @internal */
export const MAX_CLOSE_REASON_LENGTH = 123;

/** A peer's close reason, redacted (the address's secret, then the generic rules) and cut short. @internal */
export function closeReason(reason: string | undefined, secrets: readonly string[]): string {
  const text = typeof reason === 'string' ? reason : '';
  const clean = redact(text, secrets);
  return clean.length > MAX_CLOSE_REASON_LENGTH ? `${clean.slice(0, MAX_CLOSE_REASON_LENGTH)}…` : clean;
}

/** What `ws` hands its `'message'` listeners on Node: a text frame's UTF-8 bytes, or a binary frame, as a `Buffer`. */
interface WsData extends Uint8Array {
  toString(): string;
}

/** The listener API of a `ws` WebSocket (Node): its `'message'` and `'unexpected-response'` events. @internal */
interface WsEmitter {
  on(event: 'message', listener: (data: WsData, isBinary: boolean) => void): unknown;
  on(event: 'unexpected-response', listener: (request: unknown, response: unknown) => void): unknown;
  removeListener(event: 'message', listener: (data: WsData, isBinary: boolean) => void): unknown;
  removeListener(event: 'unexpected-response', listener: (request: unknown, response: unknown) => void): unknown;
}

/** The socket's `ws` listener API when it is a `ws` WebSocket (`on`, `removeListener` and `terminate`), else `undefined`. */
function wsEmitter(socket: WebSocketLike): WsEmitter | undefined {
  const s = socket as Partial<WsEmitter> & { terminate?: unknown };
  return typeof s.on === 'function' && typeof s.removeListener === 'function' && typeof s.terminate === 'function'
    ? (s as WsEmitter)
    : undefined;
}

/** Drops a dead socket at once: `ws`'s `terminate()` where it exists (no closing handshake to wait for). */
function abort(socket: WebSocketLike): void {
  const terminate = (socket as { terminate?: () => void }).terminate;
  if (typeof terminate === 'function') terminate.call(socket);
  else socket.close(4000, 'heartbeat timeout');
}
