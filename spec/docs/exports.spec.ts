/**
 * Every export of the public entries is documented: a doc comment with a summary and an `@example`
 * (values and types alike). Read from the declarations with the TypeScript compiler API, so a new
 * undocumented export fails here before it reaches the API reference.
 */
import * as path from 'path';
import * as ts from 'typescript';

const root = path.resolve(__dirname, '..', '..');

/** Entries checked, with the module specifier their examples import from. */
const ENTRY_MODULES: Readonly<Record<string, string>> = {
  'lib/index.ts': 'ex-streams',
  'lib/testing/index.ts': 'ex-streams/testing',
  'lib/simulator/index.ts': 'ex-streams/simulator',
  'lib/node/index.ts': 'ex-streams/node',
};
const ENTRIES = Object.keys(ENTRY_MODULES);

/** Entries whose every example (values and types) must import from the entry itself. */
const SELF_IMPORTING_ENTRIES = ['lib/simulator/index.ts'];

interface ExportDoc {
  readonly entry: string;
  readonly name: string;
  readonly isValue: boolean;
  readonly summary: string;
  readonly hasExample: boolean;
  readonly exampleImportsLibrary: boolean;
  /** Some `@example` imports from the entry's own module specifier (e.g. 'ex-streams/simulator'). */
  readonly exampleImportsEntry: boolean;
}

const compilerOptions = (): ts.CompilerOptions => {
  const configPath = path.join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  return { ...ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath).options, noEmit: true };
};

const tagText = (tag: ts.JSDocTagInfo): string => (tag.text ?? []).map((p) => p.text).join('');

const exportDocs = (): ExportDoc[] => {
  const program = ts.createProgram(
    ENTRIES.map((e) => path.join(root, e)),
    compilerOptions(),
  );
  const checker = program.getTypeChecker();
  return ENTRIES.flatMap((entry) => {
    const sf = program.getSourceFile(path.join(root, entry));
    const moduleSymbol = sf === undefined ? undefined : checker.getSymbolAtLocation(sf);
    if (moduleSymbol === undefined) throw new Error(`${entry}: not a module`);
    return checker.getExportsOfModule(moduleSymbol).map((exported) => {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const tags = symbol.getJsDocTags(checker);
      const examples = tags.filter((t) => t.name === 'example').map(tagText);
      return {
        entry,
        name: exported.name,
        isValue: (symbol.flags & ts.SymbolFlags.Value) !== 0,
        summary: ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim(),
        hasExample: examples.length > 0,
        exampleImportsLibrary: examples.some((e) => /from ['"]ex-streams(\/[a-z]+)?['"]/.test(e)),
        exampleImportsEntry: examples.some((e) => new RegExp(`from ['"]${ENTRY_MODULES[entry]}['"]`).test(e)),
      };
    });
  });
};

describe('public exports', () => {
  let docs: ExportDoc[];

  beforeAll(() => {
    docs = exportDocs();
  });

  test('the entries export values and types', () => {
    expect(docs.filter((d) => d.isValue).length).toBeGreaterThan(50);
    expect(docs.filter((d) => !d.isValue).length).toBeGreaterThan(50);
  });

  test('every export has a summary', () => {
    expect(docs.filter((d) => d.summary === '').map((d) => `${d.entry}: ${d.name}`)).toEqual([]);
  });

  test('every value export has an @example that imports from ex-streams', () => {
    expect(docs.filter((d) => d.isValue && !d.exampleImportsLibrary).map((d) => `${d.entry}: ${d.name}`)).toEqual([]);
  });

  test('every type export has an @example', () => {
    expect(docs.filter((d) => !d.isValue && !d.hasExample).map((d) => `${d.entry}: ${d.name}`)).toEqual([]);
  });

  test('every entry is read', () => {
    expect(ENTRIES.filter((entry) => !docs.some((d) => d.entry === entry))).toEqual([]);
  });

  test.each(SELF_IMPORTING_ENTRIES)('every export of %s has an @example importing from its own module', (entry) => {
    expect(docs.filter((d) => d.entry === entry && !d.exampleImportsEntry).map((d) => d.name)).toEqual([]);
  });
});
