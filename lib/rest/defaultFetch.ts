import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What the REST transport reads of an answer: the status, the body text and a header. @internal */
function answerOf(res: IncomingMessage, text: string): Response {
  const headers = { get: (name: string): string | null => (res.headers[name.toLowerCase()] as string | undefined) ?? null };
  return { status: res.statusCode ?? 0, text: () => Promise.resolve(text), headers } as unknown as Response;
}

/**
 * The `fetch` of a `restClient` given none, in the Node build (and the default ESM/CJS builds, which are Node's):
 * one request through `node:http` / `node:https` on this client's own keep-alive agents (made on first use, kept
 * only in this closure), so a placement goes out on a warm connection with no more work than a hand-written
 * `http.request` (Node's built-in fetch, undici, costs ~0.4 ms more from the call to the first byte on loopback:
 * spec/bench/tickToOrder.ts). It reads only what the transport reads: the status, the text and `Retry-After`;
 * redirects are not followed (the venue's API sends none). `init.signal` aborts the request. An idle connection
 * stays open while the server keeps it (Node honours a `Keep-Alive: timeout` hint); `rest.warm()` opens one.
 * The browser build swaps this module for `defaultFetch.browser.ts` (the global `fetch`). @internal
 */
export function defaultFetch(): typeof fetch | undefined {
  let http: HttpAgent | undefined;
  let https: HttpsAgent | undefined;
  return ((input: string | URL, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = input instanceof URL ? input : new URL(String(input));
      const secure = url.protocol === 'https:';
      if (!secure && url.protocol !== 'http:') return reject(new TypeError(`unsupported protocol ${url.protocol}`));
      const { signal } = init;
      if (signal?.aborted) return reject(new Error('This operation was aborted'));
      const agent = secure ? (https ??= new HttpsAgent({ keepAlive: true })) : (http ??= new HttpAgent({ keepAlive: true }));
      const options = { method: init.method ?? 'GET', headers: init.headers as Record<string, string> | undefined, agent };
      const req = (secure ? httpsRequest : httpRequest)(url, options, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(answerOf(res, text)));
        res.on('error', reject);
        res.on('close', () => {
          if (!res.complete) reject(new Error('the answer was cut off (socket hang up)'));
        });
      });
      req.on('error', reject);
      signal?.addEventListener('abort', () => req.destroy(new Error('This operation was aborted')), { once: true });
      req.end(typeof init.body === 'string' ? init.body : undefined);
      return undefined;
    })) as typeof fetch;
}
