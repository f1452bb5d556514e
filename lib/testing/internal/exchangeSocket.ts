import type { SchedulerLike } from 'rxjs';
import { FakeWebSocket } from '../fakeWebSocket';
import type { ExchangeStream } from '../sentFrame';

/** A live public subscription of one socket, as the server saw its `sub` frame. @internal */
export interface LiveSubscription {
  readonly id: string;
  readonly binary: boolean;
}

/** What the test exchange does when a socket is constructed and when its client sends. @internal */
export interface SocketHooks {
  /** Whether the sockets keep what their client sends in `sent` (default `true`). */
  readonly settings?: { readonly recordSent?: boolean | undefined } | undefined;
  created(socket: ExchangeSocket): void;
  sent(socket: ExchangeSocket, text: string): void;
}

const PRIVATE_PATH = /\/api\/v1\/ws(?:\/|$|\?)/;

/** The stream an address belongs to: the private stream path `/api/v1/ws/{listenKey}`, else public. @internal */
export function streamOf(url: string): ExchangeStream {
  return PRIVATE_PATH.test(url) ? 'private' : 'public';
}

/**
 * A {@link FakeWebSocket} that belongs to the test exchange: it reports its construction and every frame
 * its client sends, and carries the server's view of the connection.
 * @internal
 */
export class ExchangeSocket extends FakeWebSocket {
  /** The stream, from the address. */
  readonly stream: ExchangeStream;
  /** 1-based index among the sockets of its stream that opened; 0 until it opens. */
  connection = 0;
  /** Public subscriptions by `symbol|topic` (request topic, e.g. `kline_1m`). */
  readonly live = new Map<string, LiveSubscription>();

  constructor(
    url: string,
    scheduler: SchedulerLike,
    private readonly hooks: SocketHooks,
  ) {
    super(url, scheduler);
    this.keepsSent = hooks.settings?.recordSent !== false;
    this.stream = streamOf(url);
    hooks.created(this);
  }

  /** The last path segment of a private stream address (the listen key). */
  get listenKey(): string | undefined {
    if (this.stream !== 'private') return undefined;
    const path = this.url.split(/[?#]/)[0] ?? '';
    return path.slice(path.lastIndexOf('/') + 1) || undefined;
  }

  override send(data: string): void {
    const open = this.readyState === 1;
    super.send(data);
    if (open) this.hooks.sent(this, data);
  }
}
