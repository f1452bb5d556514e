/**
 * The venue of the tick-to-order benchmark (`tickToOrder.ts`), in its own process (child_process.fork): a `ws`
 * public stream on 127.0.0.1 (V1 frames, pongs) and a `node:http` server (keep-alive) for `GET /api/v1/time` and
 * order placements. On `{ type: 'tick', symbol, n }` it sends the client subscribed to `symbol` a 200-level depth
 * frame whose best bid is `bidOf(n)` and notes the time (`performance.now()`, just before `send`); when a POST on
 * an order path arrives (its request line and headers read), it notes the time again and, once the body is read,
 * reports `{ type: 'placed', symbol, price, ms }` to the parent (`ms`: from the frame's send to the POST's arrival,
 * both on this process's clock). Answers each placement with a NEW order.
 *
 *   → { type: 'tick', symbol, n } / { type: 'exit' }
 *   ← { type: 'ready', wsUrl, httpUrl } / { type: 'placed', symbol, price, ms }
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket } from 'ws';

type Order = { type: 'tick'; symbol: string; n: number } | { type: 'exit' };

const send = (msg: unknown): void => void process.send?.(msg);

/** The best bid of tick `n`: a new price each tick. */
const bidOf = (n: number): string => (70_000 + (n % 50_000) / 100).toFixed(2);

const T0 = 1_731_300_000_000;

function levels(best: number, step: number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < 200; i++) out.push(`["${(best + i * step).toFixed(2)}","${(0.001 + (((i + n) * 7919) % 1000) / 997).toFixed(5)}"]`);
  return out.join(',');
}

/** A real-shaped 200×2-level depth frame of `symbol` whose best bid is `bidOf(n)`. */
function depthFrame(symbol: string, n: number): string {
  const bid = Number(bidOf(n));
  return (
    `{"symbol":"${symbol}","symbolName":"${symbol}","topic":"depth","params":{"binary":"false","realtimeInterval":"24h"},` +
    `"data":[{"e":301,"s":"${symbol}","t":"${T0 + n}","v":"${6583 + n}_18","o":0,"a":[${levels(bid + 0.5, 0.37, n)}],"b":[${levels(bid, -0.41, n)}]}],` +
    `"f":false,"sendTime":"${T0 + n}","shared":false,"site":"SG","channelId":"0242acfffe110002-00000001"}`
  );
}

const subscribers = new Map<string, WebSocket>();
const sentAt = new Map<string, number>();

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
wss.on('connection', (ws) => {
  ws.on('error', () => undefined);
  ws.on('message', (data) => {
    const text = data.toString();
    const ping = /^\{"ping":(\d+)\}$/.exec(text);
    if (ping) return void ws.send(`{"pong":${ping[1]}}`);
    if (!text.includes('"sub"')) return undefined;
    const symbols = /"symbol":"([^"]+)"/.exec(text)?.[1] ?? '';
    for (const s of symbols.split(',')) subscribers.set(s, ws);
    return undefined;
  });
  ws.on('close', () => {
    for (const [s, w] of subscribers) if (w === ws) subscribers.delete(s);
  });
});

const ORDER_PATH = /\/spot\/order$/;

function answerOrder(req: IncomingMessage, res: ServerResponse, arrived: number): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = new URLSearchParams(Buffer.concat(chunks).toString());
    const symbol = body.get('symbol') ?? '';
    const price = body.get('price') ?? '';
    const at = sentAt.get(symbol);
    if (at !== undefined) send({ type: 'placed', symbol, price, ms: arrived - at });
    const answer = JSON.stringify({
      orderId: '1920153487203598336', clientOrderId: body.get('newClientOrderId') ?? 'x', symbol, price, origQty: body.get('quantity') ?? '0',
      executedQty: '0', status: 'NEW', timeInForce: 'GTC', type: 'LIMIT', side: body.get('side') ?? 'BUY', transactTime: String(Date.now()),
    });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) }).end(answer);
  });
}

const http = createServer({ keepAlive: true, keepAliveTimeout: 60_000 }, (req, res) => {
  const arrived = performance.now();
  const path = (req.url ?? '').split('?')[0] ?? '';
  if (req.method === 'POST' && ORDER_PATH.test(path)) return answerOrder(req, res, arrived);
  req.resume();
  const text = path === '/api/v1/time' ? JSON.stringify({ serverTime: Date.now() }) : '{}';
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
  return undefined;
});
http.keepAliveTimeout = 60_000;

let listening = 0;
const ready = (): void => {
  if (++listening < 2) return;
  const w = wss.address();
  const h = http.address();
  const port = (a: typeof w | typeof h): number => (typeof a === 'object' && a ? a.port : 0);
  send({ type: 'ready', wsUrl: `ws://127.0.0.1:${port(w)}/quote/ws/v1`, httpUrl: `http://127.0.0.1:${port(h)}` });
};
wss.on('listening', ready);
http.listen(0, '127.0.0.1', ready);

process.on('message', (order: Order) => {
  switch (order.type) {
    case 'tick': {
      const ws = subscribers.get(order.symbol);
      if (!ws) return send({ type: 'placed', symbol: order.symbol, price: '', ms: NaN });
      const frame = depthFrame(order.symbol, order.n);
      sentAt.set(order.symbol, performance.now());
      ws.send(frame);
      return undefined;
    }
    case 'exit':
      for (const c of wss.clients) c.terminate();
      http.closeAllConnections();
      wss.close();
      http.close(() => process.exit(0));
      return undefined;
    default: {
      const never: never = order;
      return never;
    }
  }
});
process.on('disconnect', () => process.exit(0));
