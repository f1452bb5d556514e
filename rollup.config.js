import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

// CommonJS, shared with the Chromium spec's page build (spec/browser/buildPage.ts); this config is bundled as CJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { browserVariants } = require('./scripts/browser-variants.js');

/**
 * One build for every entry point. Each entry gets ESM (`.mjs`), CJS (`.js`) and bundled types (`.d.ts`, and a
 * one-line `.d.mts` that re-exports it for the `import` condition; what two entries share is declared once, in a
 * shared chunk, as their code is, so each public type is one type whichever entry it comes from). No source maps:
 * the package ships no sources for them to point at. The entries that run in browsers
 * also get a browser build (`dist/browser/*.mjs`, the `browser` export condition for `import`): the same sources
 * but for the modules that have a `.browser.ts` variant (scripts/browser-variants.js): no `import('ws')` (the global
 * `WebSocket` only), no default zip inflater (fflate only through `ex-streams/zip`), HMAC through Web Crypto
 * (`node:crypto`, synchronous, in the others) and the global `fetch` (`node:http` keep-alive in the others). Its entries share their
 * chunks with each other, never with `dist/esm`, so they are all in it: an app gets one copy of the library whatever
 * it imports.
 * Runtime dependencies stay external: rxjs, io-ts, fp-ts, ws, fflate, ioredis (the optional peer of `ex-streams/redis`,
 * the only entry that imports it) and Node built-ins.
 */
const entries = {
  index: 'lib/index.ts',
  signing: 'lib/signing.ts',
  connection: 'lib/connection.ts',
  orders: 'lib/orders/index.ts',
  folds: 'lib/folds.ts',
  history: 'lib/history.ts',
  rest: 'lib/rest/index.ts',
  codecs: 'lib/codecs/index.ts',
  simulator: 'lib/simulator/index.ts',
  testing: 'lib/testing/index.ts',
  node: 'lib/node/index.ts',
  zip: 'lib/zip/index.ts',
  redis: 'lib/redis/index.ts',
};
const browserEntries = {
  index: entries.index,
  signing: entries.signing,
  connection: entries.connection,
  orders: entries.orders,
  folds: entries.folds,
  history: entries.history,
  rest: entries.rest,
  codecs: entries.codecs,
  testing: entries.testing,
  zip: entries.zip,
};

const external = (id) =>
  /^(rxjs|io-ts|fp-ts|ws|fflate|ioredis)(\/|$)/.test(id) || id.startsWith('node:');

const onwarn = (warning, warn) => {
  if (warning.code === 'CIRCULAR_DEPENDENCY') {
    throw new Error(`Circular import: ${warning.message}`);
  }
  warn(warning);
};

/**
 * Tree-shaking for users' bundles: marks every call and `new` in the initializer of a module-level `const` of
 * `lib/codecs/**` (`struct(...)`, `t.keyof(...)`, `new t.Type(...)`, `fastStruct(...)`, ...) with the
 * pure annotation comment (`PURE` below), so a bundler drops the codecs an application does not use (`import { decodeWith } from
 * 'ex-streams/codecs'` would otherwise build every codec, and so would the core's streams, which import the few
 * codecs they run). Codec construction has no side effects; function bodies
 * (run later, not at load) are left alone. Rollup's own `treeshake.manualPureFunctions` would not help: it
 * only affects this build (which keeps every export) and leaves no annotation in the output.
 * `scripts/check-treeshake.js` checks the effect on the built package.
 */
const PURE_SCOPE = /[\\/]lib[\\/]codecs[\\/].*\.ts$/;
const PURE = '/*#__PURE__*/ ';
const pureCodecs = () => ({
  name: 'pure-codecs',
  transform(code, id) {
    if (!PURE_SCOPE.test(id)) return null;
    const starts = new Set();
    const visit = (node) => {
      if (!node || typeof node.type !== 'string') return;
      if (/^(ArrowFunctionExpression|FunctionExpression|ClassExpression)$/.test(node.type)) return;
      if (node.type === 'CallExpression' || node.type === 'NewExpression') starts.add(node.start);
      for (const value of Object.values(node)) {
        if (Array.isArray(value)) value.forEach(visit);
        else if (value && typeof value === 'object' && typeof value.type === 'string') visit(value);
      }
    };
    for (const statement of this.parse(code).body) {
      const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
      if (declaration?.type !== 'VariableDeclaration') continue;
      for (const declarator of declaration.declarations) visit(declarator.init);
    }
    if (starts.size === 0) return null;
    let out = '';
    let last = 0;
    for (const start of [...starts].sort((x, y) => x - y)) {
      if (code.slice(Math.max(0, start - PURE.length), start) === PURE) continue;
      out += code.slice(last, start) + PURE;
      last = start;
    }
    // Only comments are inserted, on the lines concerned: lines stay where they are, so the map is kept.
    return { code: out + code.slice(last), map: null };
  },
});

/**
 * The `.d.mts` of each entry, for the `import` condition (an ESM declaration file, as publint and attw want there):
 * `export * from './<entry>.js'`, the entry's `.d.ts`, so there is one declaration of each type for both conditions.
 */
const esmTypeStubs = () => ({
  name: 'esm-type-stubs',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
      const name = chunk.fileName.replace(/\.d\.ts$/, '');
      this.emitFile({ type: 'asset', fileName: `${name}.d.mts`, source: `export * from './${name}.js';\n` });
    }
  },
});

const ts = () =>
  typescript({
    tsconfig: './tsconfig.json',
    compilerOptions: { declaration: false, noEmitOnError: true, rootDir: 'lib', types: ['node'] },
    noEmitOnError: true,
  });

export default [
  {
    input: entries,
    external,
    onwarn,
    plugins: [ts(), pureCodecs()],
    output: [
      { dir: 'dist/esm', format: 'es', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
      { dir: 'dist/cjs', format: 'cjs', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', exports: 'named' },
    ],
  },
  {
    input: browserEntries,
    external,
    onwarn,
    plugins: [browserVariants(), ts(), pureCodecs()],
    // ESM only: a `require` under the browser condition (jest's jsdom environment, webpack's CommonJS) gets the
    // CJS build (package.json), which picks `ws` or the global WebSocket at connect time as on Node.
    output: { dir: 'dist/browser', format: 'es', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
  },
  {
    // Every entry's types in one build, so the types two entries share are declared once, in a chunk both import
    // (`dist/types/chunks/`), as the JS builds share theirs: `MarketStreams` of `ex-streams/redis` is the very
    // `MarketStreams` of `ex-streams` (a copy per entry would be another type wherever it holds a `unique symbol`
    // or a class with private members, such as `OrdersState`). `.d.ts` for `require` and Node (whose `node`
    // condition loads the CJS build); the `.d.mts` of `import` (bundlers) re-exports the entry's `.d.ts`.
    input: entries,
    external,
    plugins: [dts({ tsconfig: './tsconfig.json', compilerOptions: { stripInternal: true } }), esmTypeStubs()],
    output: { dir: 'dist/types', format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
  },
];
