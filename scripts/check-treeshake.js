#!/usr/bin/env node
'use strict';
/*
 * Tree-shaking check: a user module that imports one function from the built package must not pull in the
 * whole library, and a browser bundle never mentions what it does not use. Bundles one-line user modules
 * (`import { decodeWith } from 'ex-streams/codecs'`, `import { marketStreams } from 'ex-streams'`, ...) with
 * rollup + @rollup/plugin-node-resolve through the package's own `exports` map with a browser bundler's
 * conditions (`browser`, `import`, `default`: the `browser` condition picks dist/browser), keeps the peer and
 * runtime dependencies external as an application's bundler would count them separately, and fails when a
 * bundle is larger than its bound, imports `ws` (statically or lazily), or imports fflate although nothing asked
 * for zip frames (fflate comes only with `ex-streams/zip`). scripts/bundle-size.js prints the sizes of every entry.
 *
 *   node scripts/check-treeshake.js            (after `npm run build`)
 *   node scripts/check-treeshake.js --print    (also prints the bundle)
 */
const { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

/**
 * Bound on the bytes of the bundled ex-streams code (rollup output, not minified, comments kept). Measured
 * 2026-11-23: `decodeWith` alone 75 720 bytes before the pure annotations (every codec built), 10 478 after
 * (the function, `DecodeError`, redaction and path reporting); `TradeRecordCodec` alone 65 355 before, 9 566 after.
 * Both import from `ex-streams/codecs` since the codecs left the core entry (issue 15).
 */
const CODEC_CASES = [
  { name: 'decodeWith', maxBytes: 12_000 },
  // 35 953 since issue 15's fifth pass (comments kept, unminified): a codec now carries its fast check, derived from
  // its declaration, so one codec pulls the derivation for every io-ts built-in (fastCheckOf), the generic and the
  // compiled record checks and the primitives' checks, besides the bounded reporter, declaredAs and the decimal
  // grammar (13 952 before). The regression this guards against is the 65 KB of every codec built at load.
  { name: 'TradeRecordCodec', maxBytes: 40_000 },
].map((c) => ({ ...c, label: `import { ${c.name} } from 'ex-streams/codecs'`, source: `export { ${c.name} } from 'ex-streams/codecs';\n` }));

/**
 * Browser bundles of the core (issue 27): no `ws` ever (the browser build's default socket is the global
 * WebSocket), fflate only with `ex-streams/zip`. Bounds: unminified with comments, measured 2026-11-26 (see
 * scripts/bundle-size.js for minified and gzip sizes).
 */
const BROWSER_CASES = [
  { label: "import { marketStreams } from 'ex-streams'", source: "export { marketStreams } from 'ex-streams';\n", forbid: ['ws', 'fflate'] },
  { label: "import { userStream } from 'ex-streams'", source: "export { userStream } from 'ex-streams';\n", forbid: ['ws', 'fflate'] },
  { label: "import * from 'ex-streams'", source: "export * from 'ex-streams';\n", forbid: ['ws', 'fflate'] },
  { label: "import * from 'ex-streams/codecs'", source: "export * from 'ex-streams/codecs';\n", forbid: ['ws', 'fflate'] },
  ...['signing', 'connection', 'orders', 'folds', 'history', 'rest'].map((entry) => ({
    label: `import * from 'ex-streams/${entry}'`,
    source: `export * from 'ex-streams/${entry}';\n`,
    forbid: ['ws', 'fflate'],
  })),
  {
    label: "import { inflateRaw } from 'ex-streams/zip'",
    source: "export { inflateRaw } from 'ex-streams/zip';\n",
    forbid: ['ws'],
    require: ['fflate'],
    maxBytes: 4_000,
  },
];

const CASES = [...CODEC_CASES, ...BROWSER_CASES];

const external = (id) => /^(rxjs|io-ts|fp-ts|ws|fflate)(\/|$)/.test(id) || id.startsWith('node:');
const packageOf = (id) => (id.startsWith('node:') ? id : id.split('/')[0]);

async function main() {
  const { rollup } = await import('rollup');
  const { nodeResolve } = await import('@rollup/plugin-node-resolve');
  const root = path.resolve(__dirname, '..');
  const dir = mkdtempSync(path.join(tmpdir(), 'treeshake-'));
  let failed = false;
  try {
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(root, path.join(dir, 'node_modules', 'ex-streams'), 'dir');
    for (const [i, c] of CASES.entries()) {
      const entry = path.join(dir, `case${i}.mjs`);
      writeFileSync(entry, c.source);
      const bundle = await rollup({
        input: entry,
        external,
        plugins: [nodeResolve({ rootDir: dir, browser: true, exportConditions: ['browser', 'import', 'default'], preferBuiltins: true })],
        onwarn: () => undefined,
      });
      const { output } = await bundle.generate({ format: 'es', inlineDynamicImports: true });
      await bundle.close();
      const chunks = output.filter((o) => o.type === 'chunk');
      const code = chunks.map((o) => o.code).join('');
      const imported = new Set(chunks.flatMap((o) => [...o.imports, ...o.dynamicImports]).map(packageOf));
      const bytes = Buffer.byteLength(code);
      const problems = [
        ...(c.maxBytes !== undefined && bytes > c.maxBytes ? [`larger than its bound ${c.maxBytes}`] : []),
        ...(c.forbid ?? []).filter((p) => imported.has(p)).map((p) => `imports ${p}`),
        ...(c.require ?? []).filter((p) => !imported.has(p)).map((p) => `does not import ${p}`),
      ];
      failed ||= problems.length > 0;
      const bound = c.maxBytes === undefined ? '' : ` (bound ${c.maxBytes})`;
      const imports = [...imported].sort().join(', ') || 'nothing';
      console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${c.label}: ${bytes} bytes${bound}, imports ${imports}${problems.length ? `: ${problems.join('; ')}` : ''}`);
      if (process.argv.includes('--print') || (c.maxBytes !== undefined && bytes > c.maxBytes)) console.log(code);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (failed) {
    console.error('A single import pulls more of the library than it should: a module-level value is built at load ' +
      '(an io-ts codec, a table) without a /*#__PURE__*/ annotation or a manualPureFunctions entry in rollup.config.js; ' +
      'or the browser build mentions ws or fflate (a module without its .browser.ts variant, see scripts/browser-variants.js, ' +
      'or a missing "browser" condition in package.json).');
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
