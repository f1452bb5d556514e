import * as fs from 'fs';
import * as path from 'path';
import * as t from 'io-ts';
import * as ts from 'typescript';
import type { DepthLevel, DepthRecord } from '../../lib/codecs/depth';
import { DepthLevelCodec, DepthRecordCodec } from '../../lib/codecs/depth';
import { EnvelopeParamsCodec, type EnvelopeParams } from '../../lib/codecs/envelope';
import { ExecutionReportCodec, type ExecutionReport } from '../../lib/codecs/executionReport';
import { KlineRecordCodec, type KlineRecord } from '../../lib/codecs/kline';
import { BalanceCodec, OutboundAccountInfoCodec, type Balance, type OutboundAccountInfo } from '../../lib/codecs/outboundAccountInfo';
import { IdFromNumberOrString } from '../../lib/codecs/primitives';
import { AccountTradeCodec, RestAccountCodec, RestBalanceCodec, type AccountTrade, type RestAccount, type RestBalance } from '../../lib/codecs/rest/account';
import { ExchangeInfoCodec, SymbolFilterCodec, SymbolInfoCodec, type ExchangeInfo, type SymbolFilter, type SymbolInfo } from '../../lib/codecs/rest/exchangeInfo';
import { RestTradeCodec, type RestTrade } from '../../lib/codecs/rest/marketData';
import { RestOrderCodec, type RestOrder } from '../../lib/codecs/rest/order';
import { ServerTimeCodec, type ServerTime } from '../../lib/codecs/rest/serverTime';
import { RealtimesRecordCodec, type RealtimesRecord } from '../../lib/codecs/realtimes';
import { declaredAs, struct, type SameShape } from '../../lib/codecs/struct';
import { TicketInfoCodec, type TicketInfo } from '../../lib/codecs/ticketInfo';
import { TradeRecordCodec, type TradeRecord } from '../../lib/codecs/trade';
import { librarySources, markdownFiles } from '../docs/markdownBlocks';

// The type-level part is checked by `tsc --noEmit -p .`: each `@ts-expect-error` fails the type check when
// its line compiles, and `Exactly<…>` only accepts `true`.

/** Identical types (not merely mutually assignable): the codec is typed with the named interface itself. */
type Equals<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
const exactly = <T extends true>(value: T): T => value;

const namedRecordTypes = [
  exactly<Equals<t.TypeOf<typeof TradeRecordCodec>, TradeRecord>>(true),
  exactly<Equals<t.TypeOf<typeof KlineRecordCodec>, KlineRecord>>(true),
  exactly<Equals<t.TypeOf<typeof RealtimesRecordCodec>, RealtimesRecord>>(true),
  exactly<Equals<t.TypeOf<typeof DepthRecordCodec>, DepthRecord>>(true),
  exactly<Equals<t.TypeOf<typeof DepthLevelCodec>, DepthLevel>>(true),
  exactly<Equals<t.TypeOf<typeof EnvelopeParamsCodec>, EnvelopeParams>>(true),
  exactly<Equals<t.TypeOf<typeof ExecutionReportCodec>, ExecutionReport>>(true),
  exactly<Equals<t.TypeOf<typeof OutboundAccountInfoCodec>, OutboundAccountInfo>>(true),
  exactly<Equals<t.TypeOf<typeof BalanceCodec>, Balance>>(true),
  exactly<Equals<t.TypeOf<typeof TicketInfoCodec>, TicketInfo>>(true),
  exactly<Equals<t.TypeOf<typeof RestBalanceCodec>, RestBalance>>(true),
  exactly<Equals<t.TypeOf<typeof RestAccountCodec>, RestAccount>>(true),
  exactly<Equals<t.TypeOf<typeof AccountTradeCodec>, AccountTrade>>(true),
  exactly<Equals<t.TypeOf<typeof SymbolFilterCodec>, SymbolFilter>>(true),
  exactly<Equals<t.TypeOf<typeof SymbolInfoCodec>, SymbolInfo>>(true),
  exactly<Equals<t.TypeOf<typeof ExchangeInfoCodec>, ExchangeInfo>>(true),
  exactly<Equals<t.TypeOf<typeof RestTradeCodec>, RestTrade>>(true),
  exactly<Equals<t.TypeOf<typeof RestOrderCodec>, RestOrder>>(true),
  exactly<Equals<t.TypeOf<typeof ServerTimeCodec>, ServerTime>>(true),
];

// A declared interface that drifts from its codec fails to compile, whichever side changed.
const pair = struct('Pair', { a: IdFromNumberOrString }, { b: t.number });
interface Pair {
  readonly a: string;
  readonly b?: number;
}
const drift = (): unknown[] => [
  declaredAs<Pair>()(pair),
  // @ts-expect-error a field declared but not decoded
  declaredAs<Pair & { readonly c: string }>()(pair),
  // @ts-expect-error an optional field declared but not decoded (plain assignability would let it through)
  declaredAs<Pair & { readonly c?: string }>()(pair),
  // @ts-expect-error a field decoded but not declared
  declaredAs<{ readonly a: string }>()(pair),
  // @ts-expect-error a field required in the interface, optional in the codec
  declaredAs<{ readonly a: string; readonly b: number }>()(pair),
  // @ts-expect-error a field of another type
  declaredAs<{ readonly a: number; readonly b?: number }>()(pair),
  // @ts-expect-error the codec encodes to another shape than the interface
  declaredAs<{ readonly a: string }>()(new t.Type<{ a: string }, { a: number }, unknown>('X', t.never.is, t.never.validate, () => ({ a: 1 }))),
];
const sameShapeNamesTheKeys = [
  exactly<Equals<SameShape<Pair, t.TypeOf<typeof pair>>, true>>(true),
  exactly<Equals<SameShape<{ a: string; b: number; c: string }, t.TypeOf<typeof pair>>, { onlyInDeclared: 'c'; optionalInOneOnly: 'b' }>>(true),
  exactly<Equals<SameShape<{ b?: string }, t.TypeOf<typeof pair>>, { onlyInCodec: 'a'; typeDiffers: 'b' }>>(true),
];

const root = path.resolve(__dirname, '../..');
const codecSources = librarySources(root).filter((f) => f.startsWith('lib/codecs/'));

/** `Interface.field` for each property of an exported interface of `file` that has no doc comment. */
function undocumentedFields(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const missing: string[] = [];
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || !node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return;
    for (const member of node.members) {
      const documented = ts.getJSDocCommentsAndTags(member).some((doc) => ts.isJSDoc(doc) && (doc.comment ?? '') !== '');
      if (!documented) missing.push(`${file}: ${node.name.text}.${member.name?.getText(source) ?? '?'}`);
    }
  });
  return missing;
}

describe('record types', () => {
  it('are the named interfaces themselves (checked by tsc) and declaredAs returns its codec unchanged', () => {
    expect(namedRecordTypes.every((ok) => ok)).toBe(true);
    expect(drift()[0]).toBe(pair);
    expect(sameShapeNamesTheKeys).toEqual([true, true, true]);
  });

  it('document every field of every exported interface in lib/codecs', () => {
    expect(codecSources).toContain('lib/codecs/trade.ts');
    expect(codecSources.flatMap(undocumentedFields)).toEqual([]);
  });

  it('the field check finds an undocumented field', () => {
    const file = 'spec/codecs/recordTypes.fixture.txt';
    const text = 'export interface X {\n  /** Documented. */\n  readonly a: string;\n  readonly b: number;\n}\n';
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const iface = source.statements[0] as ts.InterfaceDeclaration;
    const documented = iface.members.map((m) => ts.getJSDocCommentsAndTags(m).some((d) => ts.isJSDoc(d) && (d.comment ?? '') !== ''));
    expect(documented).toEqual([true, false]);
  });
});

describe("the public trade's m", () => {
  /** Every `….m ? 'x' : 'y'` of the guides, the README, the doc comments and the examples. */
  const readings = (): Array<{ file: string; reading: string }> => {
    const files = [
      ...markdownFiles(root),
      ...librarySources(root),
      'docs/examples/angular/src/app/live-book.html',
    ];
    return files.flatMap((file) => {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      return [...text.matchAll(/\b(?:t|trade)\.m \? '(\w+)' : '(\w+)'/g)].map((m) => ({ file, reading: `${m[1]}/${m[2]}` }));
    });
  };

  it("is read the same way everywhere: true = the buyer was the maker, so the taker sold ('sell'), as TradeRecord.m says", () => {
    const found = readings();
    expect(found.map((r) => r.file)).toEqual(expect.arrayContaining(['docs/getting-started.md', 'docs/market-streams.md']));
    expect(found.filter((r) => r.reading !== 'sell/buy')).toEqual([]);
    const tradeDoc = fs.readFileSync(path.join(root, 'lib/codecs/trade.ts'), 'utf8');
    expect(tradeDoc).toContain("`m ? 'sell' : 'buy'` is the aggressor side");
  });
});
