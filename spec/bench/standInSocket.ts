import type { WebSocketCtor } from '../../lib/socket/webSocketLike';

/** The `'message'` listener ex-streams registers on a `ws` socket: the frame's bytes as `ws` delivers them. */
export type FrameListener = (data: Buffer, isBinary: boolean) => void;

/**
 * A `ws`-like socket for the socket-free benchmarks: it opens on the next microtask, swallows what the
 * library sends (`sub`, pings) and lets the benchmark call the library's `'message'` listener with
 * pre-received `Buffer`s, as `ws` would. `standInSockets()` returns the constructor to inject with
 * `WebSocketCtor` and the listener of the socket opened last.
 */
export function standInSockets(): { readonly Ctor: WebSocketCtor; readonly listener: () => FrameListener } {
  let last: FrameListener | undefined;
  class StandInSocket {
    readyState = 0;
    binaryType = 'nodebuffer';
    onopen: (() => void) | null = null;
    onmessage: unknown = null;
    onclose: unknown = null;
    onerror: unknown = null;
    constructor(_url: string) {
      queueMicrotask(() => {
        this.readyState = 1;
        this.onopen?.();
      });
    }
    send(_text: string): void {}
    close(): void {
      this.readyState = 3;
    }
    terminate(): void {}
    on(event: string, l: FrameListener): void {
      if (event === 'message') last = l; // not the 'unexpected-response' listener of the upgrade
    }
    removeListener(): void {
      last = undefined;
    }
  }
  return {
    Ctor: StandInSocket as unknown as WebSocketCtor,
    listener: () => {
      if (last === undefined) throw new Error('the session did not listen');
      return last;
    },
  };
}
