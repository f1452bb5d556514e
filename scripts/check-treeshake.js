#!/usr/bin/env node
'use strict';
/*
 * Tree-shaking check: a user module that imports one function from the built package must not pull in the
 * whole library. Bundles `import { decodeWith } from 'ex-streams/codecs'` (the wire codecs' entry) with rollup + @rollup/plugin-node-resolve
 * (through the package's own `exports` map, `import` condition, the way a browser bundler does), keeps the
 * peer and runtime dependencies external as an application's bundler would count them separately, and fails
 * when the bundle is larger than the bound.
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
const CASES = [
  { name: 'decodeWith', maxBytes: 12_000 },
  // 35 953 since issue 15's fifth pass (comments kept, unminified): a codec now carries its fast check, derived from
  // its declaration, so one codec pulls the derivation for every io-ts built-in (fastCheckOf), the generic and the
  // compiled record checks and the primitives' checks, besides the bounded reporter, declaredAs and the decimal
  // grammar (13 952 before). The regression this guards against is the 65 KB of every codec built at load.
  { name: 'TradeRecordCodec', maxBytes: 40_000 },
].map((c) => ({ ...c, source: `import { ${c.name} } from 'ex-streams/codecs';\nexport { ${c.name} };\n` }));

const external = (id) => /^(rxjs|io-ts|fp-ts|ws|fflate)(\/|$)/.test(id) || id.startsWith('node:');

async function main() {
  const { rollup } = await import('rollup');
  const { nodeResolve } = await import('@rollup/plugin-node-resolve');
  const root = path.resolve(__dirname, '..');
  const dir = mkdtempSync(path.join(tmpdir(), 'treeshake-'));
  let failed = false;
  try {
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(root, path.join(dir, 'node_modules', 'ex-streams'), 'dir');
    for (const c of CASES) {
      const entry = path.join(dir, `${c.name}.mjs`);
      writeFileSync(entry, c.source);
      const bundle = await rollup({
        input: entry,
        external,
        plugins: [nodeResolve({ rootDir: dir, exportConditions: ['import', 'default'], preferBuiltins: true })],
        onwarn: () => undefined,
      });
      const { output } = await bundle.generate({ format: 'es' });
      await bundle.close();
      const code = output.map((o) => (o.type === 'chunk' ? o.code : '')).join('');
      const bytes = Buffer.byteLength(code);
      const ok = bytes <= c.maxBytes;
      failed ||= !ok;
      console.log(`${ok ? 'ok  ' : 'FAIL'} import { ${c.name} } from 'ex-streams/codecs': ${bytes} bytes (bound ${c.maxBytes})`);
      if (process.argv.includes('--print') || !ok) console.log(code);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (failed) {
    console.error('A single import pulls more of the library than it should: a module-level value is built at load ' +
      '(an io-ts codec, a table) without a /*#__PURE__*/ annotation or a manualPureFunctions entry in rollup.config.js.');
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
