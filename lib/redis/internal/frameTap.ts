import type { WebSocketCloseEventLike, WebSocketCtor, WebSocketLike, WebSocketMessageEventLike } from '../../socket/webSocketLike';

/** What a {@link frameTap} reports. @internal */
export interface TapSink {
  /** A text frame received (before the connection handles it). */
  frame(text: string): void;
  /** The socket opened. */
  opened(): void;
  /** The socket closed (after it had opened). */
  closed(): void;
}

/**
 * A websocket constructor that wraps `Inner` like a recorder on the `WebSocketCtor` seam: each socket behaves as
 * its inner one, and every text frame it receives, its open and its close are reported to `sink` first. Whatever
 * `sink` throws is swallowed (the tap never disturbs the connection). @internal
 */
export function frameTap(Inner: WebSocketCtor, sink: TapSink): WebSocketCtor {
  const safely = (f: () => void): void => {
    try {
      f();
    } catch {
      // the tap's own failure is the gateway's to report; the connection goes on
    }
  };
  return class TappedWebSocket implements WebSocketLike {
    private readonly inner: WebSocketLike;
    private opened = false;
    onopen: ((event: unknown) => void) | null = null;
    onmessage: ((event: WebSocketMessageEventLike) => void) | null = null;
    onclose: ((event: WebSocketCloseEventLike) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;

    constructor(url: string) {
      const inner = new Inner(url);
      this.inner = inner;
      inner.onopen = (event) => {
        this.opened = true;
        safely(() => sink.opened());
        this.onopen?.(event);
      };
      inner.onmessage = (event) => {
        const { data } = event;
        if (typeof data === 'string') safely(() => sink.frame(data));
        this.onmessage?.(event);
      };
      inner.onclose = (event) => {
        if (this.opened) safely(() => sink.closed());
        this.opened = false;
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
    set binaryType(type: string) {
      this.inner.binaryType = type;
    }
    send(data: string): void {
      this.inner.send(data);
    }
    close(code?: number, reason?: string): void {
      this.inner.close(code, reason);
    }
  };
}

/**
 * The symbol and request topic of a data frame's text (`kline` + `params.klineType` → `kline_1m`), else `undefined` (a
 * pong, an error frame, anything else). Never throws. Reads only the envelope's head where it can: the keys before
 * `"data":[` parsed as one small object (a 9.4 KB book costs ~1 µs instead of a whole `JSON.parse`, which was a third
 * of the gateway's CPU: issue 28's fan-out bench); a frame whose head is not a complete object before a top-level
 * `"data":[` is parsed whole, as before. The frame itself is published verbatim either way (its body is the consumers'
 * `marketStreams` to check, as a direct subscriber's would). @internal
 */
export function frameRoute(text: string): { readonly symbol: string; readonly topic: string } | undefined {
  // Not a data frame: heartbeats and error frames are short and carry no `"topic"`.
  if (!text.includes('"topic"')) return undefined;
  const data = text.indexOf('"data":[');
  // `{…,"data":[`: the head up to its comma parses as a complete object only if `"data"` is a key of the envelope itself
  if (data > 1 && text.charCodeAt(0) === 123 && text.charCodeAt(data - 1) === 44) {
    let head: unknown;
    try {
      head = JSON.parse(`${text.slice(0, data - 1)}}`);
    } catch {
      head = undefined;
    }
    if (head !== undefined) return routeOf(head, true);
  }
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  return routeOf(message, false);
}

/** The route of a parsed envelope (`dataChecked`: its `data` is known to be an array). */
function routeOf(message: unknown, dataChecked: boolean): { readonly symbol: string; readonly topic: string } | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { symbol, topic, params, data } = message as { symbol?: unknown; topic?: unknown; params?: { klineType?: unknown }; data?: unknown };
  if (typeof symbol !== 'string' || typeof topic !== 'string' || !(dataChecked || Array.isArray(data))) return undefined;
  if (topic !== 'kline') return { symbol, topic };
  const interval = typeof params === 'object' && params !== null ? params.klineType : undefined;
  return typeof interval === 'string' ? { symbol, topic: `kline_${interval}` } : undefined;
}
