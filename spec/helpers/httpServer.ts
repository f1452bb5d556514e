import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the test server saw it: raw query and raw body bytes (UTF-8 text), headers lower-cased. */
export interface RecordedRequest {
  readonly method: string;
  /** Path without query string. */
  readonly path: string;
  /** Raw query string after `?` (empty when none), exactly as received. */
  readonly rawQuery: string;
  /** Raw body text, exactly as received. */
  readonly rawBody: string;
  readonly headers: IncomingHttpHeaders;
  /** Resolves when the client closed the connection before any answer was sent (an abort). */
  readonly closedBeforeAnswer: Promise<void>;
}

/** What the handler answers: a status and a body (objects are sent as JSON), or `'hang'` for no answer. */
export type Reply = { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> } | 'hang';

export interface TestHttpServer {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  /** Every request received so far, in order. */
  readonly requests: RecordedRequest[];
  /** Resolves with the next request once its body has arrived (or the one already waiting). */
  nextRequest(): Promise<RecordedRequest>;
  /** Closes the server and every connection. */
  close(): Promise<void>;
}

/**
 * Starts a real HTTP server on 127.0.0.1 with an ephemeral port. `handle` decides each answer (default:
 * 200 with `{}`).
 */
export async function startHttpServer(
  handle: (request: RecordedRequest) => Reply = () => ({ status: 200, body: {} }),
): Promise<TestHttpServer> {
  const requests: RecordedRequest[] = [];
  const waiting: Array<(r: RecordedRequest) => void> = [];
  let delivered = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      let onClosed: () => void = () => undefined;
      const closedBeforeAnswer = new Promise<void>((resolve) => (onClosed = resolve));
      res.on('close', () => {
        if (!res.writableEnded) onClosed();
      });
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: q < 0 ? url : url.slice(0, q),
        rawQuery: q < 0 ? '' : url.slice(q + 1),
        rawBody: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
        closedBeforeAnswer,
      };
      requests.push(recorded);
      const waiter = waiting.shift();
      if (waiter) {
        delivered++;
        waiter(recorded);
      }
      const reply = handle(recorded);
      if (reply === 'hang') return;
      const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    nextRequest: () =>
      delivered < requests.length
        ? Promise.resolve(requests[delivered++]!)
        : new Promise<RecordedRequest>((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Verifies a request's signature the way the service does: finds `signature=` in the raw query or the raw
 * body, removes that parameter, and compares HMAC SHA256 (node:crypto) of rawQuery + rawBody (SPEC,
 * Authentication 6-8). Returns false when there is no signature.
 */
export function signatureIsValid(secret: string, request: Pick<RecordedRequest, 'rawQuery' | 'rawBody'>): boolean {
  const strip = (raw: string): { text: string; signature?: string } => {
    const pairs = raw === '' ? [] : raw.split('&');
    const index = pairs.findIndex((p) => p.startsWith('signature='));
    if (index < 0) return { text: raw };
    const signature = pairs[index]!.slice('signature='.length);
    pairs.splice(index, 1);
    return { text: pairs.join('&'), signature };
  };
  const query = strip(request.rawQuery);
  const body = strip(request.rawBody);
  const signature = query.signature ?? body.signature;
  if (signature === undefined || (query.signature !== undefined && body.signature !== undefined)) return false;
  const expected = createHmac('sha256', secret).update(query.text + body.text, 'utf8').digest('hex');
  return expected === signature.toLowerCase();
}
