import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 (ephemeral port) in front of a real server, to play the faults the network plays:
 * - `stall()`: a half-open link (dead NAT, pulled cable): both directions stop being forwarded, nothing is
 *   closed, and whatever either side writes meanwhile is lost for good (not delivered later);
 * - `resume()`: forwarding starts again (for connections that survived the stall);
 * - `stallLive()`: the connections open now go silent for good (a NAT entry that died: nothing closed, nothing
 *   forwarded either way, ever), while new connections are forwarded as usual; `stallLive(n)`: only the `n`-th
 *   connection accepted (from 1);
 * - `refuse(true)`: new connections are accepted and destroyed at once;
 * - `reset()`: every live connection is destroyed (an RST-like abrupt end);
 * - `downstreamDelayMs` (option): what the server writes reaches the client that much later (a slow or queued
 *   link one way); a stall also swallows what is still on its way.
 * Counters tell how many bytes went each way and how many were swallowed by a stall.
 */
export interface TcpProxy {
  /** `127.0.0.1:<port>` of the proxy. */
  readonly host: string;
  readonly port: number;
  stall(): void;
  resume(): void;
  stallLive(nth?: number): void;
  refuse(on: boolean): void;
  reset(): void;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Bytes written by the upstream server and dropped while stalled. */
  readonly droppedDownstreamBytes: number;
  /** Resolves when `n` connections have been accepted. */
  connections(n: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to `targetPort` on 127.0.0.1. */
export async function startTcpProxy(targetPort: number, options: { readonly downstreamDelayMs?: number } = {}): Promise<TcpProxy> {
  const { downstreamDelayMs = 0 } = options;
  /** Chunks on their way to a client (`downstreamDelayMs`), cleared on close. */
  const inFlight = new Set<NodeJS.Timeout>();
  const pairs = new Set<{ client: Socket; upstream: Socket; dead: boolean; nth: number }>();
  let stalled = false;
  let refusing = false;
  let accepted = 0;
  let droppedDownstreamBytes = 0;
  const waiters: Array<{ n: number; resolve: () => void }> = [];

  const server: Server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    accepted += 1;
    for (const w of waiters.splice(0)) {
      if (accepted >= w.n) w.resolve();
      else waiters.push(w);
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    const pair = { client, upstream, dead: false, nth: accepted };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      if (!stalled && !pair.dead) upstream.write(chunk);
    });
    const forward = (chunk: Buffer): void => {
      if (stalled || pair.dead) droppedDownstreamBytes += chunk.length;
      else client.write(chunk);
    };
    upstream.on('data', (chunk: Buffer) => {
      if (downstreamDelayMs === 0) return forward(chunk);
      const timer = setTimeout(() => {
        inFlight.delete(timer);
        forward(chunk);
      }, downstreamDelayMs);
      inFlight.add(timer);
    });
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    host: '127.0.0.1',
    port,
    stall: () => void (stalled = true),
    resume: () => void (stalled = false),
    stallLive: (nth) => {
      for (const p of pairs) if (nth === undefined || p.nth === nth) p.dead = true;
    },
    refuse: (on) => void (refusing = on),
    reset: () => {
      for (const p of [...pairs]) {
        p.client.resetAndDestroy();
        p.upstream.destroy();
      }
    },
    get accepted() {
      return accepted;
    },
    get droppedDownstreamBytes() {
      return droppedDownstreamBytes;
    },
    connections: (n) =>
      accepted >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    close: async () => {
      for (const timer of inFlight) clearTimeout(timer);
      inFlight.clear();
      for (const p of [...pairs]) {
        p.client.destroy();
        p.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
