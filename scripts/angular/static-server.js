'use strict';
/*
 * A tiny static file server for the built Angular app (node:http only), on 127.0.0.1 and an ephemeral port.
 * Unknown paths without a file extension fall back to index.html (client-side routes); everything else is 404.
 */
const { createServer } = require('node:http');
const { readFile } = require('node:fs/promises');
const path = require('node:path');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `dir` on http://127.0.0.1:<ephemeral port>.
 * @param {string} dir the built app (the folder holding index.html)
 * @returns {Promise<{ origin: string, close(): Promise<void> }>}
 */
async function serveStatic(dir) {
  const root = path.resolve(dir);
  const server = createServer((req, res) => {
    const send = (status, type, body) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url || '/', 'http://localhost').pathname);
    } catch {
      return send(400, 'text/plain', 'bad request');
    }
    const file = path.resolve(root, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`);
    if (file !== root && !file.startsWith(root + path.sep)) return send(403, 'text/plain', 'forbidden');
    const ext = path.extname(file);
    const target = ext === '' ? path.join(root, 'index.html') : file;
    readFile(target).then(
      (body) => send(200, TYPES[path.extname(target)] || 'application/octet-stream', body),
      () => send(404, 'text/plain', 'not found'),
    );
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

module.exports = { serveStatic };

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: node scripts/angular/static-server.js <dir>\n');
    process.exit(2);
  }
  serveStatic(dir).then((s) => process.stdout.write(`serving ${dir} at ${s.origin}\n`));
}
