#!/usr/bin/env node
'use strict';
/*
 * Bundle cost of each entry and of typical imports, as an application's bundler sees the built package.
 *
 * Each case is a one-line module (`import { marketStreams } from 'ex-streams'`, `export * from 'ex-streams/codecs'`)
 * bundled with rollup + @rollup/plugin-node-resolve through the package's `exports` map (a symlink in a temp
 * node_modules, as scripts/check-treeshake.js does): browser cases with the conditions of a browser bundler
 * (`browser`, `import`, `default`; Angular's esbuild, Vite and webpack set the same), Node-only entries with
 * `import`, `default` (their ESM build; Node built-ins external). Three bundles per case split the cost:
 *   - ex-streams: everything external but the library itself;
 *   - fflate: what bundling fflate (the zip inflater) adds;
 *   - rxjs + io-ts + fp-ts: what the peer dependencies add (an app that already uses rxjs pays that part once).
 * Sizes are minified with uglify-js when node_modules has it (it comes with ts-jest's handlebars; the script
 * says "unminified" otherwise), then gzip -9 (node:zlib). `ws` is never bundled: a case whose bundle refers to
 * it (a static or dynamic import) is flagged.
 *
 *   node scripts/bundle-size.js                  (after `npm run build`)
 *   node scripts/bundle-size.js --root DIR       (another built checkout, e.g. to compare before and after)
 *   node scripts/bundle-size.js --json           (machine-readable)
 */
const { mkdtempSync, mkdirSync, symlinkSync, writeFileSync, rmSync, existsSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { gzipSync } = require('node:zlib');

const BROWSER = ['browser', 'import', 'default'];
/** The `node` condition leads to the CommonJS build, which rollup does not tree-shake: Node entries are read in their ESM build. */
const NODE = ['import', 'default'];

/** The cases: an entry imported whole, then typical imports. `node: true` for the Node-only entries. */
const CASES = [
  { name: "ex-streams (everything)", source: "export * from 'ex-streams';" },
  { name: "ex-streams/codecs (everything)", source: "export * from 'ex-streams/codecs';" },
  { name: "ex-streams/testing (everything)", source: "export * from 'ex-streams/testing';" },
  { name: "ex-streams/zip (everything)", source: "export * from 'ex-streams/zip';", needs: 'zip' },
  { name: "ex-streams/simulator (Node)", source: "export * from 'ex-streams/simulator';", node: true },
  { name: "ex-streams/node (Node)", source: "export * from 'ex-streams/node';", node: true },
  { name: "{ marketStreams }", source: "export { marketStreams } from 'ex-streams';" },
  { name: "{ marketStreams, orderBook }", source: "export { marketStreams, orderBook } from 'ex-streams';" },
  {
    name: "{ marketStreams } + { inflateRaw } from ex-streams/zip",
    source: "export { marketStreams } from 'ex-streams';\nexport { inflateRaw } from 'ex-streams/zip';",
    needs: 'zip',
  },
  { name: "{ userStream }", source: "export { userStream } from 'ex-streams';" },
  { name: "{ decodeWith } from ex-streams/codecs", source: "export { decodeWith } from 'ex-streams/codecs';" },
];

const PEERS = /^(rxjs|io-ts|fp-ts)(\/|$)/;
const FFLATE = /^fflate(\/|$)/;
const WS = /^ws(\/|$)/;

function loadMinifier() {
  try {
    const uglify = require('uglify-js');
    return {
      name: `uglify-js ${require('uglify-js/package.json').version}`,
      minify(code) {
        const out = uglify.minify(code, { module: true, compress: true, mangle: true });
        if (out.error) throw out.error;
        return out.code;
      },
    };
  } catch {
    return undefined;
  }
}

async function bundleOf(rollup, nodeResolve, dir, entry, conditions, external) {
  const bundle = await rollup({
    input: entry,
    external: (id) => id.startsWith('node:') || WS.test(id) || external(id),
    plugins: [nodeResolve({ rootDir: dir, browser: conditions.includes('browser'), exportConditions: conditions, preferBuiltins: true })],
    onwarn: () => undefined,
  });
  try {
    const { output } = await bundle.generate({ format: 'es', inlineDynamicImports: true });
    const chunks = output.filter((o) => o.type === 'chunk');
    const imports = chunks.flatMap((c) => [...c.imports, ...c.dynamicImports]);
    return { code: chunks.map((c) => c.code).join('\n'), ws: imports.some((id) => WS.test(id)) };
  } finally {
    await bundle.close();
  }
}

const sizeOf = (code, minifier) => {
  const min = minifier ? minifier.minify(code) : code;
  return { min: Buffer.byteLength(min), gzip: gzipSync(min, { level: 9 }).length };
};

const kb = (bytes) => (bytes / 1000).toFixed(1);

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = path.resolve(at >= 0 ? args[at + 1] : path.join(__dirname, '..'));
  if (!existsSync(path.join(root, 'dist', 'esm', 'index.mjs'))) throw new Error(`${root} is not built: run 'npm run build' there first`);
  const pkg = require(path.join(root, 'package.json'));
  const { rollup } = await import('rollup');
  const { nodeResolve } = await import('@rollup/plugin-node-resolve');
  const minifier = loadMinifier();
  const dir = mkdtempSync(path.join(tmpdir(), 'bundle-size-'));
  const rows = [];
  try {
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(root, path.join(dir, 'node_modules', 'ex-streams'), 'dir');
    for (const [i, c] of CASES.entries()) {
      if (c.needs && !pkg.exports[`./${c.needs}`]) continue;
      const entry = path.join(dir, `case${i}.mjs`);
      writeFileSync(entry, `${c.source}\n`);
      const conditions = c.node ? NODE : BROWSER;
      const lib = await bundleOf(rollup, nodeResolve, dir, entry, conditions, (id) => PEERS.test(id) || FFLATE.test(id));
      const withFflate = await bundleOf(rollup, nodeResolve, dir, entry, conditions, (id) => PEERS.test(id));
      const all = await bundleOf(rollup, nodeResolve, dir, entry, conditions, () => false);
      const [l, f, a] = [lib, withFflate, all].map((b) => sizeOf(b.code, minifier));
      rows.push({
        case: c.name,
        conditions: conditions.join(', '),
        library: l,
        fflate: { min: f.min - l.min, gzip: f.gzip - l.gzip },
        peers: { min: a.min - f.min, gzip: a.gzip - f.gzip },
        total: a,
        ws: all.ws,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (args.includes('--json')) {
    console.log(JSON.stringify({ root, minifier: minifier?.name ?? 'none', rows }, null, 2));
    return;
  }
  const how = minifier ? `minified (${minifier.name}) / gzip -9` : 'unminified (no minifier in node_modules) / gzip -9';
  console.log(`Bundle cost, kB (1000 bytes), ${how}; browser cases resolved with ${BROWSER.join(', ')}, Node entries with ${NODE.join(', ')}.`);
  console.log('');
  console.log('| import | ex-streams | fflate | rxjs + io-ts + fp-ts | total | ws |');
  console.log('|---|---:|---:|---:|---:|---|');
  const cell = (s) => (s.min <= 0 ? '0' : `${kb(s.min)} / ${kb(s.gzip)}`);
  for (const r of rows) {
    console.log(`| ${r.case} | ${cell(r.library)} | ${cell(r.fflate)} | ${cell(r.peers)} | ${cell(r.total)} | ${r.ws ? 'referenced' : 'no'} |`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
