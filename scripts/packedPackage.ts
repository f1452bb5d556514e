import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What `npm pack --json` says of the tarball. */
export interface PackedPackage {
  readonly filename: string;
  readonly size: number;
  readonly unpackedSize: number;
  /** Where the package was unpacked: `<work>/node_modules/ex-streams`. */
  readonly dir: string;
}

/**
 * The repository as npm would install it: `npm pack` into `work`, unpacked as `work/node_modules/ex-streams`, with a
 * `package.json` of its own in `work`: without one, the files there belong to the repository's package (`work` is
 * under it), and `import 'ex-streams'` resolves to the repository itself (a package importing its own name), not to
 * the packed copy (Node and Deno both did). Shared by the CI checks that look at the packed package
 * (scripts/check-packed-readme.ts, scripts/check-strict-consumers.ts, scripts/check-runtimes.ts). Throws when npm
 * prints nothing.
 */
export function packInto(root: string, work: string): PackedPackage {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [packed] = JSON.parse(out) as Array<{ filename: string; size: number; unpackedSize: number }>;
  if (packed === undefined) throw new Error('npm pack printed nothing');
  fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'packed-check', private: true, type: 'commonjs' }, null, 2));
  const dir = path.join(work, 'node_modules', 'ex-streams');
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(work, packed.filename), '-C', dir, '--strip-components=1']);
  return { ...packed, dir };
}
