import { WebSocket } from 'ws';
import { streamsOf, type Faults } from './faults';
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
      if (!this.stalled && ws.readyState === WebSocket.OPEN) ws.pong(data);
    });
  }

  private held: Array<() => void> = [];

  /**
   * Runs `handle` now, or holds it while the stream is stalled: dropped (`stall` default) or kept for
   * {@link Peer.flushHeld} (`stall({ inbound: 'hold' })`, like a TCP peer that reads late).
   */
  receive(handle: () => void): void {
    if (!this.stalled) return handle();
    if (this.faults.isHolding(this.stream)) this.held.push(handle);
  }

  /** Processes the client frames held during a stall, in order. */
  flushHeld(): void {
    const held = this.held;
    this.held = [];
    for (const handle of held) if (this.open) handle();
  }

  get stalled(): boolean {
    return this.faults.isStalled(this.stream);
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends unless stalled or not open; true when written. */
  send(data: string | Uint8Array): boolean {
    if (this.stalled || !this.open) return false;
    this.ws.send(data, { binary: typeof data !== 'string' });
    return true;
  }

  close(code: number, reason: string): void {
    if (this.open) this.ws.close(code, reason);
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
