/**
 * An event handler, declared through a method so that its parameter is checked bivariantly: the browser
 * `WebSocket` and `ws` (whose event objects carry more fields than ex-streams reads) can be assigned.
 */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/**
 * The part of a websocket `message` event that ex-streams reads.
 *
 * @example
 * ```ts
 * import type { WebSocketMessageEventLike } from 'ex-streams/connection';
 *
 * const frameSize = (event: WebSocketMessageEventLike): number =>
 *   typeof event.data === 'string' ? event.data.length : event.data instanceof ArrayBuffer ? event.data.byteLength : 0;
 * ```
 */
export interface WebSocketMessageEventLike {
  /** A string for text frames; an `ArrayBuffer` or an `ArrayBufferView` (a Node `Buffer`) for binary frames. */
  readonly data: unknown;
}

/**
 * The part of a websocket `close` event that ex-streams reads.
 *
 * @example
 * ```ts
 * import type { WebSocketCloseEventLike } from 'ex-streams/connection';
 *
 * const isKeyInvalid = (event: WebSocketCloseEventLike): boolean => event.code === 4001;
 * ```
 */
export interface WebSocketCloseEventLike {
  /** Close code: 1000 normal, 1006 abnormal (no close frame), 4000-4999 decided by the service. */
  readonly code: number;
  /** Close reason text sent by the peer (may be empty). */
  readonly reason: string;
  /** Whether the closing handshake completed. */
  readonly wasClean: boolean;
}

/**
 * The minimal websocket shape ex-streams needs: the browser `WebSocket` interface, which the `ws` package
 * also implements. Anything with these members can carry a {@link Connection}: a browser socket, `ws`,
 * or the scheduler-driven fake of `ex-streams/testing`.
 *
 * Only the `on…` handler properties are used (no `addEventListener`), except that a `ws` socket (Node) is
 * read through its own `'message'` event; `binaryType` is set to `'arraybuffer'` (`'nodebuffer'` for a `ws`
 * socket, whose binary frames then arrive without a copy) before the socket opens.
 *
 * @example
 * ```ts
 * import type { WebSocketLike } from 'ex-streams/connection';
 * import WebSocket from 'ws';
 * const socket: WebSocketLike = new WebSocket('ws://127.0.0.1:8080/quote/ws/v1');
 * ```
 */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed (the browser constants). */
  readonly readyState: number;
  /** ex-streams sets `'arraybuffer'` (`'nodebuffer'` on a `ws` socket). */
  binaryType: string;
  /** Sends one text frame (ex-streams sends JSON text only). */
  send(data: string): void;
  /** Closes the socket; ex-streams uses code 1000 when the last subscriber leaves. */
  close(code?: number, reason?: string): void;
  /** Set by ex-streams: called once the socket is open. */
  onopen: Handler<unknown> | null;
  /** Set by ex-streams: called with every frame received. */
  onmessage: Handler<WebSocketMessageEventLike> | null;
  /** Set by ex-streams: called once when the socket has closed, with its code and reason. */
  onclose: Handler<WebSocketCloseEventLike> | null;
  /** Set by ex-streams: called on a transport error (a close event follows). */
  onerror: Handler<unknown> | null;
}

/**
 * A websocket constructor: the global `WebSocket`, the `WebSocket` class of the `ws` package, or a fake.
 * Injected through `ConnectionConfig.WebSocketCtor`; tests never patch `globalThis.WebSocket`.
 *
 * @example
 * ```ts
 * import { connection, type WebSocketCtor } from 'ex-streams/connection';
 * import { WebSocket } from 'ws';
 * const Ctor: WebSocketCtor = WebSocket;
 * const conn = connection({ url: 'ws://127.0.0.1:8080/quote/ws/v1', WebSocketCtor: Ctor });
 * ```
 */
export type WebSocketCtor = new (url: string) => WebSocketLike;

/** `WebSocket.OPEN`. @internal */
export const WS_OPEN = 1;
/** `WebSocket.CONNECTING`. @internal */
export const WS_CONNECTING = 0;
