import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';
import type {
  WebSocketCloseEventLike,
  WebSocketCtor,
  WebSocketLike,
  WebSocketMessageEventLike,
} from '../socket/webSocketLike';

/**
 * The lifetime of one fake socket in scheduler frames, shaped like an RxJS `SubscriptionLog`.
 * @example
 * ```ts
 * import type { RunHelpers } from 'rxjs/testing';
 * import type { FakeWebSocketFactory } from 'ex-streams/testing';
 * declare const fake: FakeWebSocketFactory, expectSubscriptions: RunHelpers['expectSubscriptions']; // in a run
 * expectSubscriptions(fake.logs).toBe(['^ 7ms !', '13ms ^ 16ms !']); // two sockets
 * ```
 */
export interface FakeSocketLog {
  /** When the socket was constructed. */
  readonly subscribedFrame: number;
  /** When it closed (by the client or the server); `Infinity` while it is not closed. */
  readonly unsubscribedFrame: number;
}

/**
 * A scheduler-driven stand-in for a websocket, implementing {@link WebSocketLike}. It never does anything
 * by itself: the test opens it, pushes frames and closes it, typically at virtual times through
 * {@link FakeWebSocketFactory.at}.
 *
 * @example
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * import { fakeWebSocket } from 'ex-streams/testing';
 * declare const testScheduler: TestScheduler;
 * const fake = fakeWebSocket({ scheduler: testScheduler });
 * fake.at(1, (s) => s.open());
 * fake.at(5, (s) => s.receive({ ping: 1, channelId: 'c' }));
 * fake.at(9, (s) => s.closeFromServer({ code: 4001, reason: 'invalid listen key' }));
 * // later: fake.latest().sent → ['{"ping":1}', '{"pong":1}']
 * ```
 */
export class FakeWebSocket implements WebSocketLike {
  readyState = 0;
  binaryType = 'blob';
  /** Every frame the client sent, in order. */
  readonly sent: string[] = [];
  /** Whether {@link sent} keeps them (a test exchange with `recordSent: false` keeps none). @internal */
  protected keepsSent = true;
  /** The code and reason of the client's `close()` call, once made. */
  closedByClient: { readonly code?: number | undefined; readonly reason?: string | undefined } | undefined;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: WebSocketMessageEventLike) => void) | null = null;
  onclose: ((event: WebSocketCloseEventLike) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  /** @internal */
  readonly log: { subscribedFrame: number; unsubscribedFrame: number };
  private readonly autoOpen: Subscription | undefined;

  /** `autoOpenMs`: open by itself that long after construction (cancelled if it closes first). */
  constructor(
    readonly url: string,
    private readonly scheduler: SchedulerLike,
    autoOpenMs?: number,
  ) {
    this.log = { subscribedFrame: scheduler.now(), unsubscribedFrame: Infinity };
    this.autoOpen = autoOpenMs === undefined ? undefined : scheduler.schedule(() => this.open(), autoOpenMs);
  }

  /** The handshake completes: `readyState` 1 and an `open` event. */
  open(): void {
    if (this.readyState !== 0) throw new Error(`FakeWebSocket.open: socket is not connecting (readyState ${this.readyState})`);
    this.readyState = 1;
    this.onopen?.({ type: 'open' });
  }

  /** The server sends a frame: a string, or binary data (`ArrayBuffer`, `Uint8Array`). Objects are JSON-encoded. */
  receive(data: unknown): void {
    if (this.readyState !== 1) throw new Error(`FakeWebSocket.receive: socket is not open (readyState ${this.readyState})`);
    const payload =
      typeof data === 'string' || data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? data : JSON.stringify(data);
    this.onmessage?.({ data: payload });
  }

  /** The server (or the network) ends the connection: a `close` event with this code (default 1006). */
  closeFromServer({ code = 1006, reason = '', wasClean = code !== 1006 }: Partial<WebSocketCloseEventLike> = {}): void {
    if (this.readyState === 3) return;
    this.finish();
    this.onclose?.({ code, reason, wasClean });
  }

  /** Like the browser: throws while connecting, drops frames once closing. */
  send(data: string): void {
    if (this.readyState === 0) throw new Error('FakeWebSocket.send: still connecting');
    if (this.readyState === 1 && this.keepsSent) this.sent.push(data);
  }

  /** The client closes: recorded in {@link closedByClient}; a `close` event follows at once. */
  close(code?: number, reason?: string): void {
    if (this.readyState === 3) return;
    this.closedByClient = { code, reason };
    this.finish();
    this.onclose?.({ code: code ?? 1005, reason: reason ?? '', wasClean: true });
  }

  /** The frames sent, JSON-decoded. */
  sentJson(): unknown[] {
    return this.sent.map((s) => JSON.parse(s) as unknown);
  }

  private finish(): void {
    this.autoOpen?.unsubscribe();
    this.readyState = 3;
    this.log.unsubscribedFrame = this.scheduler.now();
  }
}

/**
 * What {@link fakeWebSocket} returns.
 * @example
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * import { connection } from 'ex-streams/connection';
 * import { fakeWebSocket } from 'ex-streams/testing';
 * declare const testScheduler: TestScheduler;
 * const fake = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
 * const conn = connection({ url: 'ws://test', WebSocketCtor: fake.WebSocketCtor, scheduler: testScheduler });
 * ```
 */
export interface FakeWebSocketFactory {
  /** Pass this as `WebSocketCtor`. */
  readonly WebSocketCtor: WebSocketCtor;
  /** Every socket constructed so far, oldest first. */
  readonly sockets: readonly FakeWebSocket[];
  /** The most recent socket; throws when none was constructed yet. */
  latest(): FakeWebSocket;
  /** Runs `action` on the latest socket `delayMs` from now on the scheduler. */
  at(delayMs: number, action: (socket: FakeWebSocket) => void): void;
  /**
   * Each socket's lifetime, live (read when the test scheduler flushes), for
   * `expectSubscriptions(factory.logs).toBe([...])`.
   */
  readonly logs: FakeSocketLog[];
}

/**
 * A {@link WebSocketCtor} whose sockets are {@link FakeWebSocket}s driven from a scheduler (usually a
 * `TestScheduler`), for marble tests of code built on `connection`. Set `autoOpenMs` to open every new
 * socket that long after its construction.
 *
 * @example
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * import { connection } from 'ex-streams/connection';
 * import { fakeWebSocket } from 'ex-streams/testing';
 * const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
 * testScheduler.run(({ expectObservable }) => {
 *   const fake = fakeWebSocket({ scheduler: testScheduler, autoOpenMs: 1 });
 *   const conn = connection({ url: 'ws://test', WebSocketCtor: fake.WebSocketCtor, scheduler: testScheduler });
 *   fake.at(5, (s) => s.receive({ pong: 1 }));
 *   expectObservable(conn.messages$, '^ 9ms !').toBe('5ms a', { a: { pong: 1 } });
 * });
 * ```
 */
export function fakeWebSocket(config: { scheduler?: SchedulerLike | undefined; autoOpenMs?: number | undefined } = {}): FakeWebSocketFactory {
  const { scheduler = asyncScheduler, autoOpenMs } = config;
  const sockets: FakeWebSocket[] = [];
  const logs: FakeSocketLog[] = [];
  const latest = (): FakeWebSocket => {
    const socket = sockets[sockets.length - 1];
    if (!socket) throw new Error('fakeWebSocket: no socket was constructed yet');
    return socket;
  };
  class Ctor extends FakeWebSocket {
    constructor(url: string) {
      super(url, scheduler, autoOpenMs);
      sockets.push(this);
      logs.push(this.log);
    }
  }
  return {
    WebSocketCtor: Ctor,
    sockets,
    latest,
    at: (delayMs, action) => {
      scheduler.schedule(() => action(latest()), delayMs);
    },
    logs,
  };
}
