import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/** One accepted websocket: the server's end and a client's end on 127.0.0.1. */
export interface WsPair {
  /** The server side, as the simulator's server hands it over. */
  readonly server: WebSocket;
  readonly client: PairClient;
}

/** The client end: frames received in order, and awaitable arrivals and close. */
export interface PairClient {
  readonly ws: WebSocket;
  /** Text frames as text, binary frames as bytes, in order of arrival. */
  readonly frames: Array<string | Uint8Array>;
  /** Resolves when `count` frames have arrived in total (at once when they already have). */
  nextFrames(count: number): Promise<ReadonlyArray<string | Uint8Array>>;
  /** Resolves with the close code and reason when the connection has ended. */
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>;
}

/** A plain `ws` server on 127.0.0.1 (ephemeral port) that pairs each accepted socket with its client. */
export interface WsPairs {
  /** Connects a new client and resolves with both ends once both are open. */
  connect(): Promise<WsPair>;
  /** Terminates every socket and closes the server. */
  close(): Promise<void>;
}

const client = (ws: WebSocket): PairClient => {
  const frames: Array<string | Uint8Array> = [];
  let waiters: Array<() => void> = [];
  ws.on('message', (data, isBinary) => {
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    frames.push(isBinary ? new Uint8Array(buf) : buf.toString('utf8'));
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  });
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const nextFrames = async (count: number): Promise<ReadonlyArray<string | Uint8Array>> => {
    while (frames.length < count) {
      const ended = await Promise.race([new Promise<false>((resolve) => waiters.push(() => resolve(false))), closed.then(() => true)]);
      if (ended && frames.length < count) throw new Error(`closed with ${frames.length} of ${count} frames`);
    }
    return frames;
  };
  return { ws, frames, nextFrames, closed };
};

/**
 * Starts a `ws` server on 127.0.0.1 with the simulator's settings (`autoPong: false`: the code under test
 * answers protocol pings itself).
 */
export async function startWsPairs(): Promise<WsPairs> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const { port } = wss.address() as AddressInfo;
  const accepted: WebSocket[] = [];
  let onAccept: Array<(ws: WebSocket) => void> = [];
  wss.on('connection', (ws) => {
    ws.on('error', () => undefined);
    const waiting = onAccept.shift();
    if (waiting === undefined) accepted.push(ws);
    else waiting(ws);
  });
  const clients: WebSocket[] = [];
  return {
    connect: async () => {
      const server = new Promise<WebSocket>((resolve) => {
        const ready = accepted.shift();
        if (ready !== undefined) resolve(ready);
        else onAccept.push(resolve);
      });
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
      clients.push(ws);
      const c = client(ws);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('close', () => reject(new Error('closed before open')));
      });
      return { server: await server, client: c };
    },
    close: async () => {
      onAccept = [];
      const ends = clients.map((ws) => (ws.readyState === WebSocket.CLOSED ? Promise.resolve() : new Promise<void>((resolve) => ws.once('close', () => resolve()))));
      for (const ws of wss.clients) ws.terminate();
      for (const ws of clients) ws.terminate();
      await Promise.all(ends);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
