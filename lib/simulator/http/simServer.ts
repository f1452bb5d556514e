import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { safeDecodeUri } from './clientInput';
import { controlAuthorized } from '../control/controlToken';
import type { HttpAnswer } from './httpApi';
import { rejections } from './httpErrors';
import type { RawRequest } from './auth';

/** Largest request body and websocket message the simulator reads. @internal */
export const MAX_BODY_BYTES = 1 << 20;
/** @internal */
export const PUBLIC_PATH = '/quote/ws/v1';
/** The path of the V2 public stream (HashKey's "Public Stream (WS v2)"). @internal */
export const PUBLIC_V2_PATH = '/quote/ws/v2';
/** @internal */
export const PRIVATE_PREFIX = '/api/v1/ws/';

/** What the HTTP server hands requests and upgrades to. @internal */
export interface SimServerDeps {
  /** The HTTP API (answers may carry extra headers, e.g. `Retry-After`). */
  readonly api: (method: string, path: string, req: RawRequest, ip: string) => HttpAnswer;
  /** The control routes (`/__control/<name>`). */
  readonly control: (name: string, body: string) => HttpAnswer;
  /** Token the control routes require, if any. */
  readonly controlToken: string | undefined;
  /** Called for each API request (traffic recording). */
  readonly onRequest: (method: string, url: string, headers: IncomingMessage['headers'], body: string) => void;
  /** Called for each accepted upgrade URL (traffic recording). */
  readonly onUpgrade: (url: string) => void;
  /** Runs `fn` after `ms` on the simulator's clock (answers `loseNextAnswers` delays). */
  readonly after: (ms: number, fn: () => void) => void;
  /** Serves an accepted websocket: the public stream, or the private stream of `key`. */
  readonly serve: (ws: WebSocket, stream: { readonly kind: 'public'; readonly v2?: boolean } | { readonly kind: 'private'; readonly key: string }) => void;
}

const readBody = (req: IncomingMessage): Promise<string | undefined> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });

const reply = (res: ServerResponse, answer: HttpAnswer): void => {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    ...answer.headers,
    'content-type': 'application/json;charset=UTF-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
};

/** What a proxy in front of the service answers when it lost the service's answer. */
const BAD_GATEWAY_HTML =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** Sends an API answer, or loses it as `answer.lost` says (the request was processed either way). */
const deliver = (req: IncomingMessage, res: ServerResponse, answer: HttpAnswer, after: SimServerDeps['after']): void => {
  const lost = answer.lost;
  if (lost === undefined) return reply(res, answer);
  switch (lost.mode) {
    case 'reset':
      req.socket.resetAndDestroy();
      return;
    case 'hang':
      return; // nothing is written; the connection stays open until the client gives up or the server closes
    case 'delay':
      after(lost.delayMs, () => reply(res, answer));
      return;
    case 'gateway':
      if (res.headersSent || res.destroyed) return;
      res.writeHead(502, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(BAD_GATEWAY_HTML) });
      res.end(BAD_GATEWAY_HTML);
      return;
    default: {
      const never: never = lost;
      return never;
    }
  }
};

const fail = (status: number, code: number | string, msg: string): HttpAnswer => ({ status, body: { code, msg } });
const internalError = fail(500, -1000, 'Internal error.');

/** A bare HTTP answer on a raw socket (refused upgrades, unparsable requests), then close. */
const refuse = (socket: Duplex, status: string): void => {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
};

/**
 * The simulator's HTTP server: API requests, token-checked control routes, and websocket upgrades. Client
 * input never throws out of it: a malformed request line or oversized headers get 400 / 431, a malformed
 * escape in an upgrade path 400, a handler that throws 500, a socket error closes that socket only.
 * @internal
 */
export function createSimServer(deps: SimServerDeps): { readonly server: Server; readonly wss: WebSocketServer } {
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      try {
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        const path = q < 0 ? url : url.slice(0, q);
        const query = q < 0 ? '' : url.slice(q + 1);
        if (body === undefined) return reply(res, fail(413, rejections.bodyTooLarge.code, rejections.bodyTooLarge.msg));
        if (path.startsWith('/__control/')) {
          if (!controlAuthorized(deps.controlToken, req.headers)) {
            return reply(res, fail(401, -1002, 'Control token missing or invalid (X-SIM-CONTROL-TOKEN or Authorization: Bearer).'));
          }
          return reply(res, deps.control(path.slice('/__control/'.length), body));
        }
        const method = req.method ?? 'GET';
        deps.onRequest(method, url, req.headers, body);
        return deliver(req, res, deps.api(method, path, { query, body, headers: req.headers }, req.socket.remoteAddress ?? ''), deps.after);
      } catch {
        return reply(res, internalError);
      }
    });
  });
  const wss = new WebSocketServer({ noServer: true, autoPong: false, maxPayload: MAX_BODY_BYTES });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? url;
    const isV2 = path === PUBLIC_V2_PATH;
    const isPublic = path === PUBLIC_PATH || isV2;
    const key = path.startsWith(PRIVATE_PREFIX) ? safeDecodeUri(path.slice(PRIVATE_PREFIX.length)) : undefined;
    if (path.startsWith(PRIVATE_PREFIX) && key === undefined) return refuse(socket, '400 Bad Request');
    if (!isPublic && key === undefined) return refuse(socket, '404 Not Found');
    deps.onUpgrade(url);
    try {
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('error', () => undefined);
        deps.serve(ws, isPublic ? (isV2 ? { kind: 'public', v2: true } : { kind: 'public' }) : { kind: 'private', key: key ?? '' });
      });
    } catch {
      socket.destroy();
    }
    return undefined;
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) =>
    refuse(socket, err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request'),
  );
  return { server, wss };
}
