/**
 * Every export of the public entries is documented: a doc comment with a summary and an `@example`
 * (values and types alike). Read from the declarations with the TypeScript compiler API, so a new
 * undocumented export fails here before it reaches the API reference.
 */
import * as path from 'path';
import * as t from 'io-ts';
import * as ts from 'typescript';
import * as codecs from '../../lib/codecs/index';
import * as core from '../../lib/index';

const root = path.resolve(__dirname, '..', '..');

/** Entries checked, with the module specifier their examples import from. */
const ENTRY_MODULES: Readonly<Record<string, string>> = {
  'lib/index.ts': 'ex-streams',
  'lib/signing.ts': 'ex-streams/signing',
  'lib/connection.ts': 'ex-streams/connection',
  'lib/orders/index.ts': 'ex-streams/orders',
  'lib/folds.ts': 'ex-streams/folds',
  'lib/history.ts': 'ex-streams/history',
  'lib/rest/index.ts': 'ex-streams/rest',
  'lib/codecs/index.ts': 'ex-streams/codecs',
  'lib/testing/index.ts': 'ex-streams/testing',
  'lib/simulator/index.ts': 'ex-streams/simulator',
  'lib/node/index.ts': 'ex-streams/node',
  'lib/zip/index.ts': 'ex-streams/zip',
  'lib/redis/index.ts': 'ex-streams/redis',
};
const ENTRIES = Object.keys(ENTRY_MODULES);

/** Every export's `@example` (values and types) imports from the entry that exports it. */
const SELF_IMPORTING_ENTRIES = ENTRIES;

/**
 * Upper bound on the core entry's exports (values + types): what an application uses every day. A building block
 * goes to the entry named for who needs it (signing, connection, orders, folds, history, rest, codecs), not here.
 */
const MAX_CORE_EXPORTS = 80;

/** Value exports that belong to the codecs entry and not to the core, besides the io-ts codecs themselves. */
const CODEC_HELPERS = ['decodeWith', 'decodeFrame', 'decodePrivateFrame', 'subscribeFrame', 'cancelFrame', 'pingFrame', 'pongFrame'];

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

  test('no name is exported by two entries', () => {
    const entriesOf = new Map<string, string[]>();
    for (const d of docs) entriesOf.set(d.name, [...(entriesOf.get(d.name) ?? []), d.entry]);
    expect([...entriesOf].filter(([, entries]) => entries.length > 1).map(([name, entries]) => `${name}: ${entries.join(', ')}`)).toEqual([]);
  });
});

describe('the core entry and the codecs entry', () => {
  let docs: ExportDoc[];
  const namesOf = (entry: string, isValue: boolean): string[] =>
    docs.filter((d) => d.entry === entry && d.isValue === isValue).map((d) => d.name);

  beforeAll(() => {
    docs = exportDocs();
  });

  test('the core exports no wire codec and no codec helper', () => {
    const codecValues = Object.entries(core).filter(([name, value]) => value instanceof t.Type || CODEC_HELPERS.includes(name));
    expect(codecValues.map(([name]) => name)).toEqual([]);
  });

  test('every io-ts codec and codec helper of the library is exported from ex-streams/codecs', () => {
    const exported = new Set(Object.keys(codecs));
    expect(CODEC_HELPERS.filter((name) => !exported.has(name))).toEqual([]);
    expect(Object.values(codecs).filter((value) => value instanceof t.Type).length).toBeGreaterThan(40);
  });

  test('the record types the streams deliver are exported by the core, not by the codecs entry', () => {
    const records = ['TradeRecord', 'KlineRecord', 'RealtimesRecord', 'DepthRecord', 'DepthLevel', 'BboRecord', 'ExecutionReport', 'OutboundAccountInfo', 'TicketInfo', 'PrivateEvent', 'RestOrder'];
    expect(namesOf('lib/index.ts', false)).toEqual(expect.arrayContaining(records));
    expect(namesOf('lib/codecs/index.ts', false).filter((name) => records.includes(name))).toEqual([]);
  });

  test(`the core stays sized for users (at most ${MAX_CORE_EXPORTS} exports)`, () => {
    const count = docs.filter((d) => d.entry === 'lib/index.ts').length;
    expect(count).toBeGreaterThan(50);
    expect(count).toBeLessThanOrEqual(MAX_CORE_EXPORTS);
  });
});
