import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

/**
 * One build for every entry point. Each entry gets ESM (`.mjs`), CJS (`.js`) and one bundled `.d.ts`.
 * Runtime dependencies stay external: rxjs, io-ts, fp-ts, ws, fflate and Node built-ins.
 */
const entries = {
  index: 'lib/index.ts',
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
    plugins: [ts()],
    output: [
      { dir: 'dist/esm', format: 'es', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs', sourcemap: true },
      { dir: 'dist/cjs', format: 'cjs', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true, exports: 'named' },
    ],
  },
  ...Object.entries(entries).map(([name, input]) => ({
    input,
    external,
    plugins: [dts({ tsconfig: './tsconfig.json', compilerOptions: { stripInternal: true } })],
    output: { file: `dist/types/${name}.d.ts`, format: 'es' },
  })),
];
