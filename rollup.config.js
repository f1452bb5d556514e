import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

/**
 * One build for every entry point. Each entry gets ESM (`.mjs`), CJS (`.js`) and bundled types (`.d.ts` and
 * the same as `.d.mts`, for the `import` condition).
 * Runtime dependencies stay external: rxjs, io-ts, fp-ts, ws, fflate and Node built-ins.
 */
const entries = {
  index: 'lib/index.ts',
  codecs: 'lib/codecs/index.ts',
  simulator: 'lib/simulator/index.ts',
  testing: 'lib/testing/index.ts',
  node: 'lib/node/index.ts',
};

const external = (id) =>
  /^(rxjs|io-ts|fp-ts|ws|fflate)(\/|$)/.test(id) || id.startsWith('node:');

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
      { dir: 'dist/esm', format: 'es', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs', sourcemap: true },
      { dir: 'dist/cjs', format: 'cjs', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true, exports: 'named' },
    ],
  },
  ...Object.entries(entries).map(([name, input]) => ({
    input,
    external,
    plugins: [dts({ tsconfig: './tsconfig.json', compilerOptions: { stripInternal: true } })],
    // `.d.ts` for `require` and Node (whose `node` condition loads the CJS build), `.d.mts` for `import` (bundlers).
    output: [
      { file: `dist/types/${name}.d.ts`, format: 'es' },
      { file: `dist/types/${name}.d.mts`, format: 'es' },
    ],
  })),
];
