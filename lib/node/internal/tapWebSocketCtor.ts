import type { WebSocketCloseEventLike, WebSocketCtor, WebSocketLike, WebSocketMessageEventLike } from '../../socket/webSocketLike';

/** What a tapped socket reports, in order, before its client sees it. @internal */
export interface SocketTap {
  /** A socket was constructed for `url` (the address is not kept: a private one holds the listen key). */
  created(url: string): void;
  opened(): void;
  /** A frame as received: a string, or binary data. `url` is the socket's, to redact what it must. */
  frame(data: unknown, url: string): void;
  /** The client asked to close the socket (its first `close()`). */
  closing?(): void;
  /** The socket closed; `byClient`: after the client's `close()`. */
  closed(code: number, wasClean: boolean, byClient: boolean): void;
}

/** Calls a tap's method; whatever it throws is swallowed (the tap never disturbs the connection: its owner reports its own failures). */
const safely = (f: () => void): void => {
  try {
    f();
  } catch {
    // the tap's to report
  }
};

/**
 * The one tap on the `WebSocketCtor` seam (the recorder's and the Redis gateway's): a {@link WebSocketCtor} whose
 * sockets wrap `Inner`'s and report their creation, their open, every frame (until the client closes the socket)
 * and their close to `tap` before handing them to the client. Whatever `tap` throws is swallowed. Everything else
 * passes through. The client sees a plain `WebSocketLike` (read through `onmessage`; a `ws` socket's `'message'`
 * event and its `terminate()` are not used).
 * @internal
 */
export function tapWebSocketCtor(Inner: WebSocketCtor, tap: SocketTap): WebSocketCtor {
  return class TappedWebSocket implements WebSocketLike {
    onopen: ((event: unknown) => void) | null = null;
    onmessage: ((event: WebSocketMessageEventLike) => void) | null = null;
    onclose: ((event: WebSocketCloseEventLike) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;
    private readonly inner: WebSocketLike;
    private closing = false;

    constructor(url: string) {
      const inner = new Inner(url);
      safely(() => tap.created(url));
      this.inner = inner;
      inner.onopen = (event) => {
        safely(() => tap.opened());
        this.onopen?.(event);
      };
      inner.onmessage = (event) => {
        // After the client's close() nothing more is for it (its session has ended): not tapped either.
        if (!this.closing) safely(() => tap.frame(event.data, url));
        this.onmessage?.(event);
      };
      inner.onclose = (event) => {
        safely(() => tap.closed(event.code, event.wasClean, this.closing));
        this.onclose?.(event);
      };
      inner.onerror = (event) => this.onerror?.(event);
    }

    get readyState(): number {
      return this.inner.readyState;
    }

    get binaryType(): string {
      return this.inner.binaryType;
    }

    set binaryType(value: string) {
      this.inner.binaryType = value === 'nodebuffer' ? 'arraybuffer' : value;
    }

    send(data: string): void {
      this.inner.send(data);
    }

    close(code?: number, reason?: string): void {
      // a socket that closed already (its close reported) is not closing: told once, while it is open or opening
      if (!this.closing && this.inner.readyState !== 3) safely(() => tap.closing?.());
      this.closing = true;
      this.inner.close(code, reason);
    }
  };
}
