/**
 * "A user's strict project", checked on the packed package (CI, after `npm run build`):
 *
 * 1. `npm pack` the repository and unpack it as `node_modules/ex-streams` of a scratch folder in the system's
 *    temp directory, beside links to the peers and dependencies of the repository's node_modules (rxjs, io-ts,
 *    fp-ts, ws, fflate, @types/node): no network, no `npm install`; not `@types/ws` (a user need not have it);
 * 2. four projects in it, each with the flags of `@tsconfig/strictest` and `skipLibCheck: false` (so every
 *    declaration file of the package is checked too) and no DOM library (a Node project):
 *    - `esm`: `"type": "module"`, `module` / `moduleResolution` `nodenext`;
 *    - `cjs`: CommonJS, `module` / `moduleResolution` `node16`;
 *    - `bundler`: `module` `esnext`, `moduleResolution` `bundler` (a browser app's bundler setup, with DOM);
 *    - `browser`: the same without `@types/node`, compiling a use of the browser entries only (`ex-streams`, `/codecs`,
 *      `/testing`, `/zip`) with the repository's compiler: their declarations and the chunks they share with the Node
 *      entries need no Node type;
 * 3. with each compiler of `COMPILERS` (the repository's own `typescript`, 5.9; TypeScript 6; the native
 *    TypeScript 7, what a plain `npm i -D typescript` installs), the first three compile the README's TypeScript
 *    blocks as written, the user files of `spec/types/*.strict.ts` (the README pipelines, optional settings forwarded as
 *    `T | undefined`, one strategy run on every market source of every entry), an import of every entry
 *    (`ex-streams`, `/codecs`, `/simulator`, `/testing`, `/node`, `/zip`, `/redis`) and a small `/redis` usage
 *    (without `ioredis`, an optional peer, installed: its types must not be needed); none of these sources may hold a
 *    cast (`as`, `<T>x`, `x!`; `as const` is fine). TypeScript 6 and 7 come from npm through `npx` (pinned, as
 *    .ci/run pins its other npx tools; a few seconds once cached); two compilations run at a time.
 *
 *   node -r ts-node/register/transpile-only scripts/check-strict-consumers.ts
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { tsBlocks } from '../spec/docs/markdownBlocks';
import { packInto } from './packedPackage';

const root = path.resolve(__dirname, '..');

/** A TypeScript compiler a user may have: its `tsc` command line (run in the project's folder). */
interface Compiler {
  readonly name: string;
  readonly command: readonly [string, ...string[]];
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const COMPILERS: readonly Compiler[] = [
  { name: `TypeScript ${ts.version}`, command: [process.execPath, path.join(root, 'node_modules', 'typescript', 'bin', 'tsc')] },
  { name: 'TypeScript 6.0.3', command: [npx, '--yes', '-p', 'typescript@6.0.3', 'tsc'] },
  { name: 'TypeScript 7.0.2', command: [npx, '--yes', '-p', 'typescript@7.0.2', 'tsc'] },
];

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
  /**
   * Its sources: all of them (`sources()`) under every compiler, or the browser entries only (`BROWSER_SOURCES`)
   * under the repository's compiler (what that checks, Node types in the declarations, is the same for all).
   */
  readonly sources: 'all' | 'browser';
}

const CONSUMERS: readonly Consumer[] = [
  { name: 'esm', packageType: 'module', compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'nodenext', moduleResolution: 'nodenext' }, sources: 'all' },
  { name: 'cjs', packageType: 'commonjs', compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'node16', moduleResolution: 'node16' }, sources: 'all' },
  {
    name: 'bundler',
    packageType: 'module',
    compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM'], module: 'esnext', moduleResolution: 'bundler' },
    sources: 'all',
  },
  // A browser app: no @types/node. The browser entries' declarations, shared chunks included, must need none of it.
  {
    name: 'browser',
    packageType: 'module',
    compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM'], module: 'esnext', moduleResolution: 'bundler', types: [] },
    sources: 'browser',
  },
];

/** The browser app's one source: the browser entries, and one strategy on a live market and the test exchange's. */
const BROWSER_SOURCES = new Map([
  [
    'browser.ts',
    [
      "import { marketStreams, orderBook, type MarketStreams, type TradeRecord } from 'ex-streams';",
      "import type { TradeRecordCodec } from 'ex-streams/codecs';",
      "import { testExchange, tradeRecord } from 'ex-streams/testing';",
      "import { inflateRaw } from 'ex-streams/zip';",
      "import type { TypeOf } from 'io-ts';",
      "import * as signing from 'ex-streams/signing';",
      "import * as connection from 'ex-streams/connection';",
      "import * as orders from 'ex-streams/orders';",
      "import * as folds from 'ex-streams/folds';",
      "import * as history from 'ex-streams/history';",
      "import * as rest from 'ex-streams/rest';",
      '',
      'type CodecsTradeRecord = TypeOf<typeof TradeRecordCodec>;',
      'export const browserEntries = [signing, connection, orders, folds, history, rest];',
      "const spread = (market: MarketStreams): void => void market.depth('BTCUSDT').pipe(orderBook()).subscribe((book) => console.log(book.spread));",
      "spread(marketStreams({ url: 'wss://example.invalid/quote/ws/v1', binary: true, connection: { inflateRaw } }));",
      'spread(marketStreams(testExchange().marketConfig()));',
      "const trade: CodecsTradeRecord = tradeRecord({ p: '1' });",
      'export const same: TradeRecord = trade;',
      '',
    ].join('\n'),
  ],
]);

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
      "import * as signing from 'ex-streams/signing';",
      "import * as connection from 'ex-streams/connection';",
      "import * as orders from 'ex-streams/orders';",
      "import * as folds from 'ex-streams/folds';",
      "import * as history from 'ex-streams/history';",
      "import * as rest from 'ex-streams/rest';",
      "import * as codecs from 'ex-streams/codecs';",
      "import * as simulator from 'ex-streams/simulator';",
      "import * as testing from 'ex-streams/testing';",
      "import * as node from 'ex-streams/node';",
      "import * as zip from 'ex-streams/zip';",
      "import * as redis from 'ex-streams/redis';",
      'export const entries = [main, signing, connection, orders, folds, history, rest, codecs, simulator, testing, node, zip, redis];',
      '',
    ].join('\n'),
  );
  // `ex-streams/redis` as a user writes it. `ioredis` is an optional peer the project does not have here: the
  // entry's declarations must not need its types.
  files.set(
    'redis.ts',
    [
      "import { orderBook } from 'ex-streams';",
      "import type { TradeGap } from 'ex-streams/history';",
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
  const casts = [...files, ...BROWSER_SOURCES].flatMap(([name, text]) => castsIn(name, text));
  if (casts.length > 0) fail(`casts in the user's sources:\n${casts.join('\n')}`);
  return files;
}

/** Runs `tsc -p tsconfig.json` of `dir`: its output when it fails, `undefined` when it compiles. */
function compile(compiler: Compiler, dir: string): Promise<string | undefined> {
  const [command, ...args] = compiler.command;
  return new Promise((resolve) => {
    execFile(command, [...args, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve(error === null ? undefined : `${stdout}${stderr}` || error.message),
    );
  });
}

/** Runs `tasks`, `limit` at a time (the machine has two cores); the results in the tasks' order. */
async function pool<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < tasks.length; i = next++) {
      const task = tasks[i];
      if (task !== undefined) results[i] = await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

async function main(): Promise<void> {
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

    // 2. The projects, with the same sources.
    const files = sources();
    for (const consumer of CONSUMERS) {
      const dir = path.join(work, consumer.name);
      fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `strict-${consumer.name}`, private: true, type: consumer.packageType }, null, 2));
      const tsconfig = { compilerOptions: { ...STRICTEST, ...consumer.compilerOptions }, include: ['src'] };
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
      for (const [name, text] of consumer.sources === 'all' ? files : BROWSER_SOURCES) fs.writeFileSync(path.join(dir, 'src', name), text);
    }

    // 3. Each compiler compiles each project (nothing is emitted: the projects can be checked side by side).
    const runs = COMPILERS.flatMap((compiler, i) =>
      CONSUMERS.filter((consumer) => i === 0 || consumer.sources === 'all').map((consumer) => ({ compiler, consumer })),
    );
    const results = await pool(
      runs.map(({ compiler, consumer }) => async () => {
        const t0 = Date.now();
        const output = await compile(compiler, path.join(work, consumer.name));
        const what = `${compiler.name}, ${consumer.name} (${JSON.stringify(consumer.compilerOptions)}, strictest, skipLibCheck false)`;
        const count = (consumer.sources === 'all' ? files : BROWSER_SOURCES).size;
        console.log(`${what}: ${output === undefined ? `${count} files compile` : 'FAILS'} in ${Date.now() - t0} ms`);
        return output === undefined ? undefined : `${what}:\n${output}`;
      }),
      2,
    );
    const failures = results.filter((r): r is string => r !== undefined);
    if (failures.length > 0) fail(`a user's strict project does not compile:\n\n${failures.join('\n')}`);
    console.log(
      `strict consumers: ${CONSUMERS.map((c) => c.name).join(', ')} compile the README pipelines and spec/types/*.strict.ts with no cast ` +
        `under ${COMPILERS.map((c) => c.name).join(', ')} (${Date.now() - started} ms)`,
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
