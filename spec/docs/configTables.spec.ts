/**
 * The guides' option tables say what the code takes: each table below lists every field of its config interface
 * (found by name anywhere under lib/), and nothing else. A field added to a config without a line in its guide,
 * or a line left for a field that is gone, fails here.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const root = path.resolve(__dirname, '..', '..');

/** Every .ts file under lib/. */
const libFiles = (dir = path.join(root, 'lib')): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? libFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });

/** The property names of the exported interface `name`, wherever under lib/ it is declared. */
export const fieldsOf = (name: string): string[] => {
  for (const file of libFiles()) {
    const text = fs.readFileSync(file, 'utf8');
    if (!text.includes(`export interface ${name}`)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (ts.isInterfaceDeclaration(statement) && statement.name.text === name) {
        return statement.members.flatMap((m) => (m.name !== undefined && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? [m.name.text] : []));
      }
    }
  }
  throw new Error(`no exported interface ${name} under lib/`);
};

/**
 * The names in the first column of the first table after `heading` in `text` (each `` `name` `` of the cell;
 * a header row is skipped).
 */
export const tableNames = (text: string, heading: string): string[] => {
  const at = text.indexOf(heading);
  if (at < 0) throw new Error(`no "${heading}"`);
  const lines = text.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  return rows
    .slice(2) // header and separator
    .flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Za-z$][\w$]*)`/g)].map((m) => m[1] ?? ''));
};

const TABLES: ReadonlyArray<{ readonly doc: string; readonly heading: string; readonly config: string }> = [
  { doc: 'docs/market-streams.md', heading: '## Configuration', config: 'MarketStreamsConfig' },
  { doc: 'docs/user-stream.md', heading: 'Configuration (`UserStreamConfig`)', config: 'UserStreamConfig' },
  { doc: 'docs/rest.md', heading: '## Configuration', config: 'RestClientConfig' },
  { doc: 'docs/simulator.md', heading: '## Options (`startSimulator(options?)`)', config: 'SimulatorOptions' },
  { doc: 'docs/simulator.md', heading: '## Chaos schedule', config: 'ChaosOptions' },
  { doc: 'docs/scaling.md', heading: 'Gateway, `publishMarket(config)`', config: 'PublishMarketConfig' },
  { doc: 'docs/testing.md', heading: '`testExchange(config?)`', config: 'TestExchangeConfig' },
  { doc: 'docs/user-stream.md', heading: 'counters since the `userStream` was created', config: 'UserCounters' },
];

describe("the guides' option tables", () => {
  for (const { doc, heading, config } of TABLES) {
    test(`${doc} lists every field of ${config}, and only those`, () => {
      const fields = fieldsOf(config);
      const listed = tableNames(fs.readFileSync(path.join(root, doc), 'utf8'), heading);
      expect(fields.length).toBeGreaterThan(3);
      expect({ missing: fields.filter((f) => !listed.includes(f)), unknown: listed.filter((n) => !fields.includes(n)) }).toEqual({ missing: [], unknown: [] });
    });
  }

  test('the table reader takes the first column of the first table after the heading', () => {
    const text = ['## Other', '| a |', '## Options', 'Text.', '', '| option | meaning |', '|---|---|', '| `x`, `y` | the `z` |', '| `w` | … |', '', '| `v` |'].join('\n');
    expect(tableNames(text, '## Options')).toEqual(['x', 'y', 'w']);
  });
});
