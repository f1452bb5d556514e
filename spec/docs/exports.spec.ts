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
  'lib/codecs/index.ts': 'ex-streams/codecs',
  'lib/testing/index.ts': 'ex-streams/testing',
  'lib/simulator/index.ts': 'ex-streams/simulator',
  'lib/node/index.ts': 'ex-streams/node',
  'lib/zip/index.ts': 'ex-streams/zip',
  'lib/redis/index.ts': 'ex-streams/redis',
};
const ENTRIES = Object.keys(ENTRY_MODULES);

/** Entries whose every example (values and types) must import from the entry itself. */
const SELF_IMPORTING_ENTRIES = ['lib/simulator/index.ts', 'lib/redis/index.ts'];

/**
 * Entries whose every VALUE example must import from the entry itself (its types may be shared with the core,
 * as the record types are, and keep examples importing from 'ex-streams').
 */
const SELF_IMPORTING_VALUE_ENTRIES = ['lib/codecs/index.ts'];

/**
 * Upper bound on the core entry's exports (values + types). Issue 15: 193 before the codecs moved to
 * 'ex-streams/codecs', 122 after. Issue 26 (the order loop) adds what an order needs: the order-input checks and
 * the symbol rules (isDecimalText, toDecimalText, symbolRules, fitPrice, fitQuantity, checkOrder, fitOrder,
 * SymbolRules, OrderRuleError, OrderRule), the placement's outcome errors and placement, and the exact decimal
 * arithmetic an order's price and quantity are computed with (multiplyDecimal, divideDecimal: never a float).
 * Exact steps add three (addDecimal, subtractDecimal, ticksAway: a price a tick away without a float).
 * HashKey's order calls and venues add five (the venue presets `hashkey` and `VenuePreset`, the batch results
 * `BatchPlacementResult` and `CancelByIdsResult`, and `BatchOutcomeUnknownError`: a batch whose answer was lost).
 * The venue's statuses and events add three (`KnownOrderStatus` for an exhaustive switch, `isFinalOrderStatus`, and
 * `OtherPrivateEvent`, the member of `PrivateEvent` for the events the library does not model).
 * Identity checks add two (`OrderMismatchError`, an answer about another order, and `OrderIdentity`, what it names).
 * Incremental books add six (`incrementalBook` with `IncrementalBookConfig`, `IncrementalDepth` and `BookGap`,
 * the operator and its signal beside `orderBook()`; `DepthOptions` and `MergedDepthOptions`, the options of `depth`'s
 * `limit` and of the merged books' `dumpScale`).
 * The V2 stream adds one (`BboRecord`, the record of `bbo()`, a record type like `DepthRecord`).
 * Raise it only for an export users need from the core.
 */
const MAX_CORE_EXPORTS = 167;

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

  test.each(SELF_IMPORTING_VALUE_ENTRIES)('every value export of %s has an @example importing from its own module', (entry) => {
    expect(docs.filter((d) => d.entry === entry && d.isValue && !d.exampleImportsEntry).map((d) => d.name)).toEqual([]);
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

  test('the record types of the core are the ones of the codecs entry', () => {
    const codecTypes = new Set(namesOf('lib/codecs/index.ts', false));
    const records = namesOf('lib/index.ts', false).filter((name) => /Record$|^(DepthLevel|Balance|ExecutionReport|OutboundAccountInfo|TicketInfo|PrivateEvent|OrderSide|OrderStatus)$/.test(name));
    expect(records).toEqual(expect.arrayContaining(['TradeRecord', 'KlineRecord', 'RealtimesRecord', 'DepthRecord', 'ExecutionReport']));
    expect(records.filter((name) => !codecTypes.has(name))).toEqual([]);
  });

  test(`the core stays sized for users (at most ${MAX_CORE_EXPORTS} exports)`, () => {
    const count = docs.filter((d) => d.entry === 'lib/index.ts').length;
    expect(count).toBeGreaterThan(50);
    expect(count).toBeLessThanOrEqual(MAX_CORE_EXPORTS);
  });
});
