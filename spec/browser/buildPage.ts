import { nodeResolve } from '@rollup/plugin-node-resolve';
import { rollup, type Plugin } from 'rollup';
import * as ts from 'typescript';
import { browserVariants } from '../../scripts/browser-variants';

/**
 * Strips types from `.ts` modules (transpile only: `tsc --noEmit` in `npm test` does the type checking),
 * which keeps the bundle build to about a second.
 */
function transpileTypeScript(): Plugin {
  return {
    name: 'transpile-typescript',
    transform(code, id) {
      if (!id.endsWith('.ts')) return null;
      const out = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext, sourceMap: true, isolatedModules: true },
      });
      return { code: out.outputText, map: out.sourceMapText ? JSON.parse(out.sourceMapText) : null };
    },
  };
}

/** Fails the build when anything imports `ws`: the browser build must never mention it (not even lazily). */
function noWs(): Plugin {
  return {
    name: 'no-ws',
    resolveId(source, importer) {
      if (/^ws(\/|$)/.test(source)) throw new Error(`the browser build imports ws (from ${importer ?? 'the entry'})`);
      return null;
    },
  };
}

/**
 * Bundles the page entry with the core sources of ex-streams and their dependencies (rxjs, io-ts, fp-ts,
 * fflate, resolved for browsers) into one ES module file, with the modules of the package's browser build
 * (scripts/browser-variants.js: the global `WebSocket` only, no default inflater). Any import of `ws` fails
 * the build, and so does a warning about our sources (such as a circular import), as in the package build.
 */
export async function buildPage(entry: string, outFile: string): Promise<void> {
  const bundle = await rollup({
    input: entry,
    plugins: [noWs(), browserVariants(), nodeResolve({ browser: true, extensions: ['.ts', '.mjs', '.js', '.json'] }), transpileTypeScript()],
    onwarn: (warning) => {
      // Dependencies' own warnings (io-ts and fp-ts helpers' top-level `this`) are theirs; any warning about
      // our sources (a circular import, a missing export) fails the build.
      if (/node_modules/.test(`${warning.id ?? ''} ${warning.message}`)) return;
      throw new Error(`rollup: ${warning.message}`);
    },
  });
  try {
    await bundle.write({ file: outFile, format: 'es', sourcemap: true });
  } finally {
    await bundle.close();
  }
}
