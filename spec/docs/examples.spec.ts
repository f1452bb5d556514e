/**
 * Doc-example compile check: every ```ts / ```typescript block of README.md and docs/**.md (except
 * docs/api and docs/examples/angular), and every ```ts block in the doc comments (`@example`) of lib/, is
 * type-checked as its own module, against the library sources.
 *
 * - Options are tsconfig.json's (strict) plus the strictest ones users turn on (exactOptionalPropertyTypes,
 *   noUncheckedIndexedAccess, noPropertyAccessFromIndexSignature, as `@tsconfig/strictest`), minus
 *   noUnusedLocals / noUnusedParameters (an example may show a value it does not use), with every entry
 *   ('ex-streams', 'ex-streams/codecs', 'ex-streams/orders', ...) mapped to its source (`paths` below).
 * - Blocks are modules (top-level `await` works). Anything a block uses must be imported or declared in it
 *   (`declare const apiKey: string;`).
 * - A block that is not meant to compile (a signature listing, a fragment) is marked in its fence:
 *   ```` ```ts no-check ````. It shows up as a skipped test.
 * - One ts.Program holds every block, so the lib sources are parsed and bound once.
 */
import * as path from 'path';
import * as fs from 'fs';
import * as ts from 'typescript';
import { CodeBlock, docCommentBlocks, librarySources, markdownFiles, tsBlocks } from './markdownBlocks';

const root = path.resolve(__dirname, '..', '..');
const virtualDir = path.join(root, 'docs', '.examples');

/**
 * Sources whose doc-comment examples are not checked: internals (not importable from 'ex-streams').
 */
const UNCHECKED_SOURCES = [/\/internal\//];

const blocks: CodeBlock[] = [
  ...markdownFiles(root).flatMap((file) => tsBlocks(file, fs.readFileSync(path.join(root, file), 'utf8'))),
  ...librarySources(root)
    .filter((file) => !UNCHECKED_SOURCES.some((re) => re.test(file)))
    .flatMap((file) => docCommentBlocks(file, fs.readFileSync(path.join(root, file), 'utf8'))),
];

const virtualName = (block: CodeBlock): string =>
  path.join(virtualDir, `${block.file.replace(/[^A-Za-z0-9]+/g, '_')}_L${block.line}.ts`);

/** Appended to every block so that it is a module even without import/export (no line shift). */
const MODULE_SUFFIX = '\nexport {};\n';

const SELF_TEST: CodeBlock = {
  file: 'self-test.md',
  line: 1,
  code: "import { noSuchExport } from 'ex-streams';\nconst n: number = 'text';\n",
  skip: false,
};

/** The settings users of `@tsconfig/strictest` turn on, on top of the project's own strict ones. */
const STRICTEST = {
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
} as const;

const compilerOptions = (): ts.CompilerOptions => {
  const configPath = path.join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
  return {
    ...parsed.options,
    ...STRICTEST,
    noUnusedLocals: false,
    noUnusedParameters: false,
    noEmit: true,
    declaration: false,
    paths: {
      'ex-streams': [path.join(root, 'lib', 'index.ts')],
      'ex-streams/signing': [path.join(root, 'lib', 'signing.ts')],
      'ex-streams/connection': [path.join(root, 'lib', 'connection.ts')],
      'ex-streams/orders': [path.join(root, 'lib', 'orders', 'index.ts')],
      'ex-streams/folds': [path.join(root, 'lib', 'folds.ts')],
      'ex-streams/history': [path.join(root, 'lib', 'history.ts')],
      'ex-streams/rest': [path.join(root, 'lib', 'rest', 'index.ts')],
      'ex-streams/codecs': [path.join(root, 'lib', 'codecs', 'index.ts')],
      'ex-streams/simulator': [path.join(root, 'lib', 'simulator', 'index.ts')],
      'ex-streams/testing': [path.join(root, 'lib', 'testing', 'index.ts')],
      'ex-streams/node': [path.join(root, 'lib', 'node', 'index.ts')],
      'ex-streams/zip': [path.join(root, 'lib', 'zip', 'index.ts')],
      'ex-streams/redis': [path.join(root, 'lib', 'redis', 'index.ts')],
    },
  };
};

interface Checked {
  readonly program: ts.Program;
  readonly files: ReadonlyMap<CodeBlock, string>;
}

const createChecked = (all: readonly CodeBlock[]): Checked => {
  const options = compilerOptions();
  const files = new Map(all.map((b) => [b, virtualName(b)] as const));
  const sources = new Map([...files].map(([b, name]) => [name, b.code + MODULE_SUFFIX]));
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getCurrentDirectory = () => root;
  host.fileExists = (name) => sources.has(name) || fileExists.call(host, name);
  host.readFile = (name) => sources.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, languageVersion, onError, shouldCreate) => {
    const text = sources.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, languageVersion, onError, shouldCreate)
      : ts.createSourceFile(name, text, languageVersion, true);
  };
  return { program: ts.createProgram([...sources.keys()], options, host), files };
};

/** The diagnostics of one block, as `file:line:column TSnnnn message` with the markdown file's line numbers. */
const diagnosticsOf = ({ program, files }: Checked, block: CodeBlock): string[] => {
  const sf = program.getSourceFile(files.get(block) ?? '');
  if (sf === undefined) return [`${block.file}:${block.line} block not in the program`];
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const at = d.start === undefined ? undefined : sf.getLineAndCharacterOfPosition(d.start);
    const where = at === undefined ? `${block.line}` : `${block.line + at.line}:${at.character + 1}`;
    return `${block.file}:${where} TS${d.code} ${message}`;
  });
};

describe('doc examples', () => {
  let checked: Checked;

  beforeAll(() => {
    checked = createChecked([...blocks.filter((b) => !b.skip), SELF_TEST]);
  });

  test('the compiler options are valid', () => {
    expect(checked.program.getOptionsDiagnostics().map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
    expect(checked.program.getGlobalDiagnostics().map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  });

  test('the check reports a broken block with its markdown line numbers', () => {
    const diagnostics = diagnosticsOf(checked, SELF_TEST);
    expect(diagnostics).toEqual([
      expect.stringMatching(/^self-test\.md:1:10 TS2305 .*noSuchExport/),
      expect.stringMatching(/^self-test\.md:2:7 TS2322 /),
    ]);
  });

  test('the docs have TypeScript blocks to check', () => {
    expect(blocks.filter((b) => !b.skip).length).toBeGreaterThan(20);
  });

  for (const block of blocks) {
    const name = `${block.file}:${block.line}`;
    if (block.skip) {
      test.skip(`${name} (no-check)`, () => undefined);
    } else {
      test(name, () => {
        expect(diagnosticsOf(checked, block)).toEqual([]);
      });
    }
  }
});

describe('tsBlocks', () => {
  test('finds ts and typescript fences, with the line after the fence and the no-check marker', () => {
    const text = [
      '# Title', // 1
      '```ts', // 2
      'const a = 1;', // 3
      '```', // 4
      '```sh', // 5
      'npm test', // 6
      '```', // 7
      '  ```typescript no-check', // 8
      '  let b;', // 9
      '  ```', // 10
      '````ts', // 11
      '```', // 12
      '````', // 13
      '```` ```ts no-check ```` is inline code', // 14
      '```ts', // 15
      'let c;', // 16
      '```', // 17
    ].join('\n');
    expect(tsBlocks('x.md', text)).toEqual([
      { file: 'x.md', line: 3, code: 'const a = 1;', skip: false },
      { file: 'x.md', line: 9, code: 'let b;', skip: true },
      { file: 'x.md', line: 12, code: '```', skip: false },
      { file: 'x.md', line: 16, code: 'let c;', skip: false },
    ]);
  });
});

describe('docCommentBlocks', () => {
  test('finds the ts blocks of doc comments, with the source line of their first code line', () => {
    const source = [
      'const x = 1;', // 1
      '/**', // 2
      ' * Summary.', // 3
      ' *', // 4
      ' * @example', // 5
      ' * ```ts', // 6
      " * import { x } from 'ex-streams';", // 7
      ' *   x;', // 8
      ' * ```', // 9
      ' */', // 10
      'export const y = 2;', // 11
      '/** No example here. */', // 12
    ].join('\n');
    expect(docCommentBlocks('lib/x.ts', source)).toEqual([
      { file: 'lib/x.ts', line: 7, code: "import { x } from 'ex-streams';\n  x;", skip: false },
    ]);
  });
});
