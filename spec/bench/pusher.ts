/**
 * The pushing server of the benchmarks, run in its own process (child_process.fork) so that the client
 * being measured has a core to itself. A `ws` server on 127.0.0.1:0 that writes pre-serialized frames in
 * cork()ed batches, on orders from the parent over IPC:
 *
 *   → { type: 'push', frame, binary?, count }        send `count` copies as fast as the socket drains
 *   → { type: 'steady', template, ratePerSecond, count }  paced, with the send time spliced into each frame
 *   → { type: 'kick' }                                 close every client socket (code 1012)
 *   → { type: 'reset' } / { type: 'stats' }            count of client frames (sub requests) seen
 *   ← { type: 'ready', port } / { type: 'done' } / { type: 'stats', subs, received }
 */
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket } from 'ws';

type Order =
  | { type: 'push'; frame: string; binary?: boolean; count: number }
  | { type: 'steady'; template: string; ratePerSecond: number; count: number }
  | { type: 'kick' }
  | { type: 'reset' }
  | { type: 'stats' }
  | { type: 'exit' };

const BATCH = 256;
const HIGH_WATER = 4 * 1024 * 1024;
const send = (msg: unknown): void => void process.send?.(msg);

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
const clients = new Set<WebSocket>();
let subs = 0;
let received = 0;

server.on('connection', (ws) => {
  clients.add(ws);
  ws.on('close', () => clients.delete(ws));
  ws.on('error', () => undefined);
  ws.on('message', (data) => {
    received++;
    const text = data.toString();
    if (text.includes('"sub"')) subs++;
    const ping = /^\{"ping":(\d+)\}$/.exec(text);
    if (ping) ws.send(`{"pong":${ping[1]}}`);
  });
});
server.on('listening', () => {
  const address = server.address();
  send({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
});

const target = (): WebSocket | undefined => [...clients].find((c) => c.readyState === c.OPEN);

function push(frame: string, binary: boolean, count: number): void {
  const ws = target();
  if (!ws) return void send({ type: 'done', sent: 0 });
  const payload = binary ? Buffer.from(frame, 'base64') : frame;
  const options = { binary };
  // Frames with a sequence placeholder get now + n (ms) spliced in: a distinct event each, with an event time the
  // user stream accepts (it drops events more than maxEventTimeSkewMs, 5 minutes, off its clock).
  const parts = binary ? [] : frame.split('"@N@"');
  const base = Math.floor(performance.timeOrigin + performance.now());
  let sent = 0;
  const step = (): void => {
    if (ws.readyState !== ws.OPEN) return void send({ type: 'done', sent });
    if (ws.bufferedAmount > HIGH_WATER) return void setImmediate(step);
    const socket = (ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
    socket.cork();
    const end = Math.min(count, sent + BATCH);
    if (parts.length > 1) for (; sent < end; sent++) ws.send(parts.join(String(base + sent)), options);
    else for (; sent < end; sent++) ws.send(payload, options);
    socket.uncork();
    if (sent < count) setImmediate(step);
    else send({ type: 'done', sent });
  };
  step();
}

function steady(template: string, ratePerSecond: number, count: number): void {
  const ws = target();
  if (!ws) return void send({ type: 'done', sent: 0 });
  const [prefix, suffix] = template.split('"@N@"').join('1499405658658').split('"@BT@"') as [string, string];
  const start = performance.now();
  let sent = 0;
  const step = (): void => {
    if (ws.readyState !== ws.OPEN) return void send({ type: 'done', sent });
    const due = Math.min(count, Math.floor(((performance.now() - start) * ratePerSecond) / 1000));
    for (; sent < due; sent++) ws.send(prefix + (performance.timeOrigin + performance.now()) + suffix);
    if (sent < count) setImmediate(step);
    else send({ type: 'done', sent });
  };
  step();
}

process.on('message', (order: Order) => {
  switch (order.type) {
    case 'push':
      return push(order.frame, order.binary === true, order.count);
    case 'steady':
      return steady(order.template, order.ratePerSecond, order.count);
    case 'kick':
      for (const c of clients) c.close(1012, 'bench kick');
      return send({ type: 'kicked' });
    case 'reset':
      subs = 0;
      received = 0;
      return send({ type: 'stats', subs, received });
    case 'stats':
      return send({ type: 'stats', subs, received });
    case 'exit':
      for (const c of clients) c.terminate();
      server.close(() => process.exit(0));
      return undefined;
    default: {
      const never: never = order;
      return never;
    }
  }
});
process.on('disconnect', () => process.exit(0));
