import { readFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The test page's HTTP server. */
export interface PageServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html>
<head><meta charset="utf-8"><title>ex-streams in a browser</title>
<style>body{font:14px monospace;margin:1em} pre{background:#f4f4f4;padding:.5em;min-height:1.2em}</style></head>
<body>
<h1>ex-streams in a browser</h1>
<h2>Status</h2><pre id="status">-</pre>
<h2>Book</h2><pre id="book">-</pre>
<h2>Last trades</h2><pre id="trades">-</pre>
<h2>Web Crypto signature</h2><pre id="signature">-</pre>
<h2>Signed request</h2><pre id="listen-key">-</pre>
<h2>Errors</h2><pre id="errors"></pre>
<script type="module" src="/page.js"></script>
</body>
</html>
`;

function proxy(req: IncomingMessage, res: ServerResponse, target: URL): void {
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}

/**
 * Serves the test page and its bundle on 127.0.0.1 (ephemeral port), and forwards `/api/*` to the simulator so
 * the page's signed REST calls are same-origin (the simulator sends no CORS headers).
 */
export async function startPageServer(bundleFile: string, apiBaseUrl: string): Promise<PageServer> {
  const target = new URL(apiBaseUrl);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path.startsWith('/api/')) return proxy(req, res, target);
    const send = (type: string, body: string | Buffer): void => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (path === '/') return send('text/html;charset=utf-8', PAGE);
    if (path === '/page.js' || path === '/page.js.map') {
      readFile(path === '/page.js' ? bundleFile : `${bundleFile}.map`).then(
        (body) => send('text/javascript;charset=utf-8', body),
        () => {
          res.writeHead(500);
          res.end();
        },
      );
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
