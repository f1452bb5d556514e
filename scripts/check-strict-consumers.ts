/**
 * "A user's strict project", checked on the packed package (CI, after `npm run build`):
 *
 * 1. `npm pack` the repository and unpack it as `node_modules/ex-streams` of a scratch folder in the system's
 *    temp directory, beside links to the peers and dependencies of the repository's node_modules (rxjs, io-ts,
 *    fp-ts, ws, fflate, @types/node): no network, no `npm install`; not `@types/ws` (a user need not have it);
 * 2. three projects in it, each with the flags of `@tsconfig/strictest` and `skipLibCheck: false` (so every
 *    declaration file of the package is checked too) and no DOM library (a Node project):
 *    - `esm`: `"type": "module"`, `module` / `moduleResolution` `nodenext`;
 *    - `cjs`: CommonJS, `module` / `moduleResolution` `node16`;
 *    - `bundler`: `module` `esnext`, `moduleResolution` `bundler` (a browser app's bundler setup, with DOM);
 * 3. each compiles, with the repository's own `typescript`, the README's TypeScript blocks as written, the
 *    user files of `spec/types/*.strict.ts` (the README pipelines, optional settings forwarded as
 *    `T | undefined`), an import of every entry (`ex-streams`, `/codecs`, `/simulator`, `/testing`, `/node`, `/zip`,
 *    `/redis`) and a small `/redis` usage (without `ioredis`, an optional peer, installed: its types must not be needed); none of
 *    these sources may hold a cast (`as`, `<T>x`, `x!`; `as const` is fine).
 *
 *   node -r ts-node/register/transpile-only scripts/check-strict-consumers.ts
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { tsBlocks } from '../spec/docs/markdownBlocks';
import { packInto } from './packedPackage';

const root = path.resolve(__dirname, '..');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** Linked from the repository's node_modules: the peers and dependencies a user's install brings. */
const LINKED = ['rxjs', 'io-ts', 'fp-ts', 'ws', 'fflate', 'tslib', '@types/node', 'undici-types'];

/** `@tsconfig/strictest` (2.x), with the declaration files checked. */
const STRICTEST = {
  strict: true,
  allowUnusedLabels: false,
  allowUnreachableCode: false,
  exactOptionalPropertyTypes: true,
  noFallthroughCasesInSwitch: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  noUncheckedIndexedAccess: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  isolatedModules: true,
  esModuleInterop: true,
  forceConsistentCasingInFileNames: true,
  skipLibCheck: false,
  noEmit: true,
  types: ['node'],
};

interface Consumer {
  readonly name: string;
  readonly packageType: 'module' | 'commonjs';
  readonly compilerOptions: Readonly<Record<string, unknown>>;
}

const CONSUMERS: readonly Consumer[] = [
  { name: 'esm', packageType: 'module', compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'nodenext', moduleResolution: 'nodenext' } },
  { name: 'cjs', packageType: 'commonjs', compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'node16', moduleResolution: 'node16' } },
  {
    name: 'bundler',
    packageType: 'module',
    compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM'], module: 'esnext', moduleResolution: 'bundler' },
  },
];

const fail = (message: string): never => {
  throw new Error(message);
};

/** The casts of a source (a README pipeline must compile as a user writes it, with no assertion). */
function castsIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const isCast = ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node);
    const isConstAssertion = ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
    if (isCast && !isConstAssertion) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${fileName}:${line + 1}: ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The sources every consumer compiles, by file name. */
function sources(): Map<string, string> {
  const files = new Map<string, string>();
  const readme = tsBlocks('README.md', fs.readFileSync(path.join(root, 'README.md'), 'utf8')).filter((b) => !b.skip);
  if (readme.length === 0) fail('README.md has no TypeScript block');
  for (const block of readme) files.set(`readme_L${block.line}.ts`, `${block.code}\nexport {};\n`);
  const typeTests = path.join(root, 'spec', 'types');
  for (const name of fs.readdirSync(typeTests).filter((f) => f.endsWith('.strict.ts'))) files.set(name, fs.readFileSync(path.join(typeTests, name), 'utf8'));
  files.set(
    'entries.ts',
    [
      "import * as main from 'ex-streams';",
      "import * as codecs from 'ex-streams/codecs';",
      "import * as simulator from 'ex-streams/simulator';",
      "import * as testing from 'ex-streams/testing';",
      "import * as node from 'ex-streams/node';",
      "import * as zip from 'ex-streams/zip';",
      "import * as redis from 'ex-streams/redis';",
      'export const entries = [main, codecs, simulator, testing, node, zip, redis];',
      '',
    ].join('\n'),
  );
  // `ex-streams/redis` as a user writes it. `ioredis` is an optional peer the project does not have here: the
  // entry's declarations must not need its types.
  files.set(
    'redis.ts',
    [
      "import { orderBook, type TradeGap } from 'ex-streams';",
      "import { publishMarket, redisMarketStreams, RedisRelayError, type RedisTarget, type RelayGap } from 'ex-streams/redis';",
      '',
      "const target: RedisTarget = { cluster: ['redis://127.0.0.1:7000'] };",
      "const gateway = publishMarket({ redis: target, url: 'ws://127.0.0.1:8080/quote/ws/v1', symbols: ['BTCUSDT'], topics: ['trade', 'depth'], maxLen: 200_000 });",
      "const market = redisMarketStreams({ redis: 'redis://md-reader:secret@127.0.0.1:6379', resumeFrom: { 0: '1700000000000-0' } });",
      "market.depth('BTCUSDT').pipe(orderBook()).subscribe((book) => console.log(book.bestBid?.[0]));",
      'market.gaps$.subscribe((gap: TradeGap) => console.warn(gap.symbol, gap.lastSeenId, gap.firstNewId));',
      'market.relayGaps$.subscribe((gap: RelayGap) => console.warn(gap.reason, gap.missing ?? 0));',
      'market.errors$.subscribe((e) => console.warn(e instanceof RedisRelayError ? e.operation : e.message));',
      'gateway.status$.subscribe((s) => console.log(s.redis, s.written, s.dropped));',
      'const saved: Readonly<Record<number, string>> = market.cursors();',
      'export const done = (): Promise<void> => gateway.stop(1000).then(() => console.log(saved));',
      '',
    ].join('\n'),
  );
  const casts = [...files].flatMap(([name, text]) => castsIn(name, text));
  if (casts.length > 0) fail(`casts in the user's sources:\n${casts.join('\n')}`);
  return files;
}

function main(): void {
  if (!fs.existsSync(path.join(root, 'dist', 'types', 'index.d.ts'))) fail('no dist/: run `npm run build` first');
  const started = Date.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ex-streams-strict-'));
  try {
    // 1. The package as npm would install it, beside its peers.
    packInto(root, work);
    const modules = path.join(work, 'node_modules');
    for (const name of LINKED) {
      const target = path.join(root, 'node_modules', name);
      if (!fs.existsSync(target)) fail(`node_modules/${name} is missing (npm ci first)`);
      fs.mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
      fs.symlinkSync(target, path.join(modules, name), 'junction');
    }

    // 2-3. Each project compiles the same sources.
    const files = sources();
    const failures: string[] = [];
    for (const consumer of CONSUMERS) {
      const dir = path.join(work, consumer.name);
      fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `strict-${consumer.name}`, private: true, type: consumer.packageType }, null, 2));
      const tsconfig = { compilerOptions: { ...STRICTEST, ...consumer.compilerOptions }, include: ['src'] };
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
      for (const [name, text] of files) fs.writeFileSync(path.join(dir, 'src', name), text);
      const t0 = Date.now();
      try {
        execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        console.log(`${consumer.name}: ${files.size} files compile (${JSON.stringify(consumer.compilerOptions)}, strictest, skipLibCheck false) in ${Date.now() - t0} ms`);
      } catch (error) {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        failures.push(`${consumer.name} (${JSON.stringify(consumer.compilerOptions)}):\n${stdout}${stderr}`);
      }
    }
    if (failures.length > 0) fail(`a user's strict project does not compile:\n\n${failures.join('\n')}`);
    console.log(`strict consumers: ${CONSUMERS.map((c) => c.name).join(', ')} compile the README pipelines with no cast (${Date.now() - started} ms)`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
