import { WebSocket } from 'ws';
import { streamsOf, type Faults } from '../chaos/faults';
import type { StreamKind, StreamSelector } from './streamKind';

/**
 * One accepted websocket with its stream kind; sends are dropped while its stream is stalled, and
 * protocol-level pings are answered by hand (so a stall silences them too).
 * @internal
 */
export class Peer {
  constructor(
    readonly id: number,
    readonly stream: StreamKind,
    readonly ws: WebSocket,
    private readonly faults: Faults,
  ) {
    ws.on('ping', (data) => {
      if (!this.stalled && !this.halfOpen && ws.readyState === WebSocket.OPEN) ws.pong(data);
    });
  }

  /**
   * Half-open (see {@link Peer.blackHole}): nothing is forwarded either way, yet the socket stays open and
   * sends report success, as a server writing into a dead NAT sees it.
   */
  private halfOpen = false;

  /** Black-holes this socket both ways (pushes "written" but lost, client frames and pings lost) until it closes. */
  blackHole(): void {
    this.halfOpen = true;
  }

  get blackHoled(): boolean {
    return this.halfOpen;
  }

  private held: Array<() => void> = [];

  /**
   * Runs `handle` now, or holds it while the stream is stalled: dropped (`stall` default) or kept for
   * {@link Peer.flushHeld} (`stall({ inbound: 'hold' })`, like a TCP peer that reads late).
   */
  receive(handle: () => void): void {
    if (this.halfOpen) return;
    if (!this.stalled) return this.guarded(handle);
    if (this.faults.isHolding(this.stream)) this.held.push(handle);
  }

  /** The one seam where client frames are handled: a handler that throws closes this socket (1011), nothing else. */
  private guarded(handle: () => void): void {
    try {
      handle();
    } catch {
      this.close(1011, 'internal error');
    }
  }

  /** Processes the client frames held during a stall, in order. */
  flushHeld(): void {
    const held = this.held;
    this.held = [];
    for (const handle of held) if (this.open) this.guarded(handle);
  }

  get stalled(): boolean {
    return this.faults.isStalled(this.stream);
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends unless stalled or not open; true when written (a half-open socket "writes" into the void). */
  send(data: string | Uint8Array): boolean {
    if (this.stalled || !this.open) return false;
    if (this.halfOpen) return true;
    this.ws.send(data, { binary: typeof data !== 'string' });
    return true;
  }

  /** Closes with a close frame (not on a half-open socket: nothing would reach the client). */
  close(code: number, reason: string): void {
    if (this.open && !this.halfOpen) this.ws.close(code, reason);
  }
}

/** Every open peer of one simulator. @internal */
export class Peers {
  private readonly peers = new Set<Peer>();
  private nextId = 0;
  readonly accepted: Record<StreamKind, number> = { public: 0, private: 0 };

  constructor(private readonly faults: Faults) {}

  add(stream: StreamKind, ws: WebSocket): Peer {
    this.nextId += 1;
    this.accepted[stream] += 1;
    const peer = new Peer(this.nextId, stream, ws, this.faults);
    this.peers.add(peer);
    ws.on('close', () => this.peers.delete(peer));
    return peer;
  }

  of(selector: StreamSelector): Peer[] {
    const kinds = streamsOf(selector);
    return [...this.peers].filter((p) => kinds.includes(p.stream));
  }

  count(stream: StreamKind): number {
    return this.of(stream).length;
  }

  terminateAll(): void {
    for (const p of this.peers) p.ws.terminate();
    this.peers.clear();
  }
}
