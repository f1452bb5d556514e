// Data path (notes/architecture.md, "The data path"): the connection around steps 1-3 (reconnect, epochs, status) and the FrameSink seam (connectionCore.frames).
import {
  BehaviorSubject,
  defer,
  filter,
  identity,
  map,
  Observable,
  type SchedulerLike,
  Subject,
  asyncScheduler,
  share,
  switchMap,
  tap,
} from 'rxjs';
import { ConfigError, SendQueueFullError } from '../errors';
import { reconnect, type ReconnectConfig } from '../operators/reconnect';
import type { ConnectionStatus } from './connectionStatus';
import { defaultWebSocketCtor } from './defaultWebSocketCtor';
import { DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_INFLATED_BYTES, type RawInflater } from '../frame/frameLimits';
import { type ServerClock, serverClockSampler } from './serverClock';
import type { FrameSink } from '../frame/frameSink';
import { socketSession } from './socketSession';
import type { WebSocketCtor, WebSocketLike } from './webSocketLike';

/**
 * Configuration of {@link connection}. Only `url` is required; every default is explained in
 * docs/reliability.md.
 *
 * @example
 * ```ts
 * import { connection } from 'ex-streams/connection';
 * declare function currentListenKey(): string;
 * const conn = connection({
 *   url: () => `wss://example.test/api/v1/ws/${currentListenKey()}`,
 *   heartbeatTimeoutMs: 45_000,
 *   reconnect: { maxDelayMs: 10_000 },
 * });
 * ```
 */
export interface ConnectionConfig {
  /** The stream address, or a function evaluated at every connect attempt (e.g. to put in a fresh listen key). */
  readonly url: string | (() => string);
  /**
   * The websocket constructor. Default: `ws` (dynamic import) on Node, the global `WebSocket` elsewhere; the
   * browser build (the `browser` export condition) only ever uses the global `WebSocket` and never mentions `ws`.
   */
  readonly WebSocketCtor?: WebSocketCtor | undefined;
  /** Clock and timers. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
  /** Client ping cadence; the first ping leaves as soon as the socket opens. Default 10 000 (the spec's recommendation). */
  readonly pingIntervalMs?: number | undefined;
  /**
   * Silence (no frame at all, or no open after connecting) that marks the peer dead. Default 30 000: three
   * ping intervals, so two lost pongs in a row are tolerated while a dead peer is still noticed within half a minute.
   * A silence found just after a stall of this process (a long GC, a busy loop: the frames waiting on the socket
   * are not read yet) gets one `pingIntervalMs` more, from the stall's end, before it counts.
   */
  readonly heartbeatTimeoutMs?: number | undefined;
  /** Largest frame accepted, in bytes. Default 4 MiB (see `FrameLimits`). */
  readonly maxFrameBytes?: number | undefined;
  /** Largest inflated zip entry, in bytes. Default 16 MiB (see `FrameLimits`). */
  readonly maxInflatedBytes?: number | undefined;
  /**
   * Inflater of zip frames' entries (see {@link RawInflater}). Default on Node: `inflateRaw` from
   * `ex-streams/zip` (fflate); `nodeInflateRaw` from `ex-streams/node` (native zlib) decodes zip frames faster.
   * Browser build: none (fflate stays out of the bundle), so an app that asks for binary frames passes
   * `inflateRaw` from `ex-streams/zip`; without it the first binary frame ends the streams with a `ConfigError`.
   */
  readonly inflateRaw?: RawInflater | undefined;
  /** Frames `send` may hold while no socket is open. Default 1000. */
  readonly maxQueuedFrames?: number | undefined;
  /**
   * Reconnection settings (see `reconnect`), or `false` to fail on the first loss. Default `{}`: backoff
   * 500 ms … 30 s with full jitter, forever, whatever ended the socket (a close with any code, 4000-4999
   * included, a network error, a heartbeat timeout), except a `ConfigError` (no websocket implementation, or a
   * `url` the runtime cannot open at all, such as a wrong scheme). An upgrade answered with `Retry-After` (a 429,
   * a 503; read on Node only) waits at least that long, capped at `maxDelayMs`.
   * A `shouldReconnect` given here replaces that rule (e.g. to stop on a 4001 "invalid listen key").
   */
  readonly reconnect?: ReconnectConfig | false | undefined;
}

/**
 * One logical connection to a stream endpoint, surviving socket losses. See {@link connection}.
 *
 * @example
 * ```ts
 * import { connection } from 'ex-streams/connection';
 * const conn = connection({ url: 'wss://example.test/quote/ws/v1' });
 * conn.status$.subscribe((s) => console.log(s.type, s.epoch)); // closed 0, connecting 0, open 1, …
 * conn.errors$.subscribe((e) => console.warn(e.name, e.message));
 * const sub = conn.messages$.subscribe();
 * ```
 */
export interface Connection {
  /**
   * Cold and shared: the first subscriber opens the socket, the last one leaving closes it (code 1000) and
   * stops every timer. Emits each decoded JSON message, heartbeat frames included, over all epochs. Errors
   * only when reconnection gives up: with the default policy only on a `ConfigError`; with a custom
   * `shouldReconnect` or `maxRetries`, with the cause it stopped on (`ConnectionClosedError`, …).
   */
  readonly messages$: Observable<unknown>;
  /** The epoch of each socket that opens; replays the current one when open. Does not open anything by itself. */
  readonly opened$: Observable<number>;
  /**
   * The current {@link ConnectionStatus} (replayed), then every change. Starts as `{ type: 'closed', epoch: 0 }`.
   * Never errors and never completes.
   */
  readonly status$: Observable<ConnectionStatus>;
  /**
   * Non-fatal errors: `DecodeError`s of bad frames (and of anything thrown while handling one) and the cause
   * of every lost socket. A socket that never opened (or that the runtime reported an error on) fails with a
   * `ConnectionClosedError` telling what failed (`failure`: refused, HTTP status, DNS, …) and where (the
   * redacted `address`). Never errors and never completes.
   */
  readonly errors$: Observable<Error>;
  /** RTT-corrected estimate of `serverTime - localTime`, from the heartbeat pongs. */
  readonly serverClock: ServerClock;
  /**
   * Sends `frame` JSON-encoded: now if a socket is open, else when the next one opens (queued frames go
   * first, in order). Throws a `SendQueueFullError` when `maxQueuedFrames` frames already wait. The queue
   * is dropped when the last subscriber leaves.
   */
  send(frame: unknown): void;
  /** Sends `frame` JSON-encoded if a socket is open and returns true; otherwise drops it and returns false. */
  sendIfOpen(frame: unknown): boolean;
}

/**
 * Retry everything but the user's own mistake (a `ConfigError`): the service's word (a 4000-4999 close, a
 * network error, a dead peer) never ends a stream. @internal
 */
export function defaultShouldReconnect(error: unknown): boolean {
  return !(error instanceof ConfigError);
}

function positive(option: string, value: number): void {
  if (!(value > 0)) throw new ConfigError(option, 'must be a positive number');
}

const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/**
 * Creates a resilient connection: websocket → frame decoding (text or zip, with guard rails) → heartbeats
 * (client pings, answers to server pings, dead-peer detection) → `reconnect` → `share`. Nothing happens
 * until `messages$` is subscribed. Throws a `ConfigError` for a non-positive duration or size, or an
 * `inflateRaw` that is not a function. Each successful open starts a new epoch, announced on `opened$` and
 * `status$` (with `downSince`, when delivery stopped: see `ConnectionStatus`) so consumers can
 * resubscribe topics and signal gaps. Every loss is retried with backoff (see `reconnect` in the config).
 *
 * @example
 * ```ts
 * import { connection } from 'ex-streams/connection';
 * const conn = connection({ url: 'wss://example.test/quote/ws/v1' });
 * conn.opened$.subscribe(() =>
 *   conn.send({ symbol: 'BTCUSDT', topic: 'trade', event: 'sub', params: { binary: false }, id: 1 }));
 * const sub = conn.messages$.subscribe((m) => console.log(m)); // { pong: 1700000000123 }, { topic: 'trade', … }
 * sub.unsubscribe(); // closes the socket (1000), no timer left
 * ```
 */
export function connection(config: ConnectionConfig): Connection {
  return connectionCore(config).connection;
}

/**
 * A {@link Connection} plus its internal frame sink. `frames(sink)` is cold like `messages$` (subscribing
 * opens and keeps the shared socket, errors when reconnection gives up) but emits nothing: each decoded
 * message is handed to `sink` by one plain call from the socket session, with no RxJS hop per frame.
 * Reconnect, `share` and status stay around it for the lifecycle only. `messages$` is built on it.
 * @internal
 */
export interface ConnectionCore {
  readonly connection: Connection;
  frames(sink: FrameSink): Observable<never>;
}

/** Options of {@link connectionCore} that are not the public connection's. @internal */
export interface CoreOptions {
  /**
   * `'on-demand'`: frames are parsed without quoting long integers first, and each sink gets `exact()` (see
   * `FrameSink`); only for a core whose every sink checks every number it reads (`messages$` is then not
   * exact). Default `'eager'`.
   */
  readonly exactIntegers?: 'eager' | 'on-demand' | undefined;
  /** A reader of the frames' usual shape, tried before the parse (see `SessionSettings.readFrame`). Default none. */
  readonly readFrame?: ((text: string) => unknown) | undefined;
  /**
   * When the service wrote the last message the socket of `epoch` delivered, on the service's clock, if the stream
   * knows it (`marketStreams`: the envelope's `sendTime`), else `undefined`. A message read late (a busy event
   * loop, TCP backpressure) was written well before it arrived, and whatever the service wrote after it (or after
   * a later public pong, whose time says when it was written) may be lost with the socket: the gap starts there, at
   * the earliest local time that server time can stand for (minus the clock estimate's offset and how far off it
   * can be). Default none: the public pongs' times alone.
   */
  readonly sentAt?: ((epoch: number) => number | undefined) | undefined;
}

/** A {@link ConnectionConfig} with its defaults, checked (a `ConfigError` for a value it cannot take). */
function resolved(config: ConnectionConfig) {
  const {
    url,
    WebSocketCtor,
    scheduler = asyncScheduler,
    pingIntervalMs = 10_000,
    heartbeatTimeoutMs = 30_000,
    maxFrameBytes = DEFAULT_MAX_FRAME_BYTES,
    maxInflatedBytes = DEFAULT_MAX_INFLATED_BYTES,
    inflateRaw,
    maxQueuedFrames = 1000,
    reconnect: reconnectConfig = {},
  } = config;
  positive('pingIntervalMs', pingIntervalMs);
  positive('heartbeatTimeoutMs', heartbeatTimeoutMs);
  positive('maxFrameBytes', maxFrameBytes);
  positive('maxInflatedBytes', maxInflatedBytes);
  if (inflateRaw !== undefined && typeof inflateRaw !== 'function') throw new ConfigError('inflateRaw', 'must be a function');
  if (!Number.isInteger(maxQueuedFrames) || maxQueuedFrames < 0) {
    throw new ConfigError('maxQueuedFrames', 'must be an integer >= 0');
  }
  return { url, WebSocketCtor, scheduler, pingIntervalMs, heartbeatTimeoutMs, maxFrameBytes, maxInflatedBytes, inflateRaw, maxQueuedFrames, reconnectConfig };
}

/**
 * Where the gap of a lost socket starts: the last frame received (`lastSeenAt`), or earlier, when the last frame whose
 * server time is known (`sent`: a data message, a public pong) was written, if it arrived late; never before the
 * socket opened (`openedAt`). `offsetMs`: the server clock's offset plus how far off it can be.
 */
function gapStart(lastSeenAt: number, openedAt: number, sent: number | undefined, offsetMs: number): number {
  const written = sent === undefined ? undefined : sent - offsetMs;
  return written === undefined || !(written < lastSeenAt) ? lastSeenAt : Math.max(openedAt, written);
}

/** The frame sinks of one connection, in subscription order, copied on change (a sink may leave while a frame is delivered). */
class FrameSinks {
  private sinks: readonly FrameSink[] = [];
  /** Hands a frame to every sink, in one plain call each. */
  readonly deliver: FrameSink = (message, now, exact, text, scanned) => {
    const current = this.sinks;
    if (current.length === 1) current[0]!(message, now, exact, text, scanned);
    else for (let i = 0; i < current.length; i++) current[i]!(message, now, exact, text, scanned);
  };
  add(sink: FrameSink): void {
    this.sinks = [...this.sinks, sink];
  }
  remove(sink: FrameSink): void {
    this.sinks = this.sinks.filter((s) => s !== sink);
  }
}

/** The frames sent on a connection: on the open socket at once, else queued (at most `max`) for the next one. */
class Outbox {
  private socket: WebSocketLike | undefined;
  private readonly queue: string[] = [];
  constructor(private readonly max: number) {}
  /** A socket opened: the queued frames go first, in order. */
  open(socket: WebSocketLike): void {
    this.socket = socket;
    for (const frame of this.queue) socket.send(frame);
    this.queue.length = 0;
  }
  /** The socket can no longer send. */
  close(): void {
    this.socket = undefined;
  }
  /** Drops the queued frames (the connection closed for good). */
  clear(): void {
    this.queue.length = 0;
  }
  /** See {@link Connection.send}. */
  send(frame: unknown): void {
    const text = JSON.stringify(frame);
    if (this.socket) {
      this.socket.send(text);
      return;
    }
    if (this.queue.length >= this.max) throw new SendQueueFullError(this.max);
    this.queue.push(text);
  }
  /** See {@link Connection.sendIfOpen}. */
  sendIfOpen(frame: unknown): boolean {
    if (!this.socket) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }
}

/** {@link connection} with its frame sink (see {@link ConnectionCore}). @internal */
export function connectionCore(config: ConnectionConfig, options: CoreOptions = {}): ConnectionCore {
  const { url, WebSocketCtor, scheduler, pingIntervalMs, heartbeatTimeoutMs, maxFrameBytes, maxInflatedBytes, inflateRaw, maxQueuedFrames, reconnectConfig } =
    resolved(config);
  const status = new BehaviorSubject<ConnectionStatus>({ type: 'closed', epoch: 0 });
  const errors = new Subject<Error>();
  const clock = serverClockSampler();
  const outbox = new Outbox(maxQueuedFrames);
  let epoch = 0;
  let attempt = 0;
  let downSince: number | undefined;
  /** When the socket now open opened. */
  let openedAt = 0;

  const onOpen = (socket: WebSocketLike): void => {
    outbox.open(socket);
    const since = scheduler.now();
    openedAt = since;
    epoch += 1;
    status.next(epoch > 1 && downSince !== undefined ? { type: 'open', epoch, since, downSince } : { type: 'open', epoch, since });
  };
  const onEnd = (wasOpen: boolean, lastSeenAt: number, lastPongServerTime: number | undefined): void => {
    outbox.close();
    if (!wasOpen) return;
    // Delivery stopped with the last frame received, not when the loss was noticed (a heartbeat timeout
    // fires `heartbeatTimeoutMs` later): whatever the service sent after it may be lost. Or earlier: when the
    // last frame whose server time is known (a data message, a public pong; TCP delivers in order, so the later
    // one) was written, if it arrived late; but not before the socket opened (nothing written before was sent on
    // it; a server clock far behind does not stretch the gap).
    const message = options.sentAt?.(epoch);
    const sent = message === undefined ? lastPongServerTime : lastPongServerTime === undefined ? message : Math.max(message, lastPongServerTime);
    downSince = gapStart(lastSeenAt, openedAt, sent, clock.offsetMs() + clock.offsetErrorMs());
  };
  const finish = (cause?: Error): void => {
    outbox.clear();
    attempt = 0;
    status.next(cause ? { type: 'closed', epoch, cause } : { type: 'closed', epoch });
  };

  const sinks = new FrameSinks();

  const session$ = defer(() => {
    status.next({ type: 'connecting', epoch, attempt });
    const address = typeof url === 'function' ? url() : url;
    const session = (Ctor: WebSocketCtor): Observable<never> =>
      socketSession({
        url: address,
        Ctor,
        scheduler,
        pingIntervalMs,
        heartbeatTimeoutMs,
        limits: inflateRaw ? { maxFrameBytes, maxInflatedBytes, inflateRaw } : { maxFrameBytes, maxInflatedBytes },
        clock,
        onOpen,
        onEnd,
        onMessage: sinks.deliver,
        onDecodeError: (e) => errors.next(e),
        exactIntegers: options.exactIntegers,
        readFrame: options.readFrame,
      });
    // A given constructor needs no `switchMap`: two fewer subscriber hops for every frame.
    return WebSocketCtor ? session(WebSocketCtor) : defaultWebSocketCtor().pipe(switchMap(session));
  });

  const retrying =
    reconnectConfig === false
      ? identity
      : reconnect<unknown>({
          scheduler,
          ...reconnectConfig,
          shouldReconnect: reconnectConfig.shouldReconnect ?? defaultShouldReconnect,
          onReconnecting: (info) => {
            attempt = info.attempt;
            status.next({ type: 'reconnecting', epoch, attempt, delayMs: info.delayMs, cause: toError(info.cause) });
            reconnectConfig.onReconnecting?.(info);
          },
        });

  // The lifecycle only: frames bypass this chain (see `deliver`), so its operators cost nothing per frame.
  const lifecycle$ = session$.pipe(
    tap({ error: (e: unknown) => errors.next(toError(e)) }),
    retrying,
    tap({ error: (e: unknown) => finish(toError(e)), unsubscribe: () => finish() }),
    share({ resetOnRefCountZero: true }),
  );
  const frames = (sink: FrameSink): Observable<never> =>
    new Observable<never>((subscriber) => {
      sinks.add(sink);
      const subscription = lifecycle$.subscribe({
        error: (e: unknown) => subscriber.error(e),
        complete: () => subscriber.complete(),
      });
      return () => {
        sinks.remove(sink);
        subscription.unsubscribe();
      };
    });
  const messages$ = new Observable<unknown>((subscriber) =>
    frames((message) => subscriber.next(message)).subscribe({
      error: (e: unknown) => subscriber.error(e),
      complete: () => subscriber.complete(),
    }),
  );

  const conn: Connection = {
    messages$,
    opened$: status.pipe(
      filter((s): s is Extract<ConnectionStatus, { type: 'open' }> => s.type === 'open'),
      map((s) => s.epoch),
    ),
    status$: status.asObservable(),
    errors$: errors.asObservable(),
    serverClock: clock,
    send: (frame) => outbox.send(frame),
    sendIfOpen: (frame) => outbox.sendIfOpen(frame),
  };
  return { connection: conn, frames };
}
