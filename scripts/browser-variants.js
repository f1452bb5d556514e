'use strict';
const { existsSync } = require('node:fs');

/**
 * Rollup plugin of the browser build: a relative import of `lib/**\/X.ts` resolves to `X.browser.ts` when that
 * file exists. Four modules have one: `lib/socket/defaultWebSocketCtor` (the global `WebSocket` only, never
 * `import('ws')`), `lib/frame/defaultInflateRaw` (no default inflater, so fflate is bundled only by an app
 * that imports `ex-streams/zip`), `lib/auth/secretKeySigner` (HMAC through Web Crypto, never `node:crypto`) and
 * `lib/rest/defaultFetch` (the global `fetch`, never `node:http`). Used by rollup.config.js (`dist/browser`, the `browser` export condition)
 * and by the Chromium spec's page build (spec/browser/buildPage.ts), so both run the same variants.
 */
function browserVariants() {
  return {
    name: 'browser-variants',
    async resolveId(source, importer, options) {
      if (importer === undefined || !source.startsWith('.')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved === null || resolved.external || !/\.ts$/.test(resolved.id) || /\.browser\.ts$/.test(resolved.id)) return resolved;
      const variant = resolved.id.replace(/\.ts$/, '.browser.ts');
      return existsSync(variant) ? { ...resolved, id: variant } : resolved;
    },
  };
}

module.exports = { browserVariants };
