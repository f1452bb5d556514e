import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { asyncScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import * as ts from 'typescript';
import { nowMs } from '../../lib/internal/clock';

const LIB = join(__dirname, '..', '..', 'lib');

/** Every `.ts` file under lib/, as a path relative to lib/ with `/` separators. */
function libFiles(dir = LIB): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return libFiles(path);
    return entry.name.endsWith('.ts') ? [relative(LIB, path).split('\\').join('/')] : [];
  });
}

/**
 * The places in `source` that read the wall clock or wait outside a scheduler, as `line: text`. Reads the syntax
 * tree, so comments and strings (docs that say "no Date.now()") are not findings.
 */
function clockReads(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node): void => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    found.push(`${line + 1}: ${node.getText(file)}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      const owner = node.expression.getText(file);
      const name = node.name.text;
      if ((owner === 'Date' || owner === 'performance') && name === 'now') report(node);
      else if (owner === 'process' && name === 'hrtime') report(node);
      else if (/^(globalThis|window|self|global)$/.test(owner) && /^(setTimeout|setInterval|setImmediate|performance|Date)$/.test(name)) report(node);
    } else if (ts.isIdentifier(node) && /^(setTimeout|setInterval|setImmediate)$/.test(node.text) && !ts.isPropertyAccessExpression(node.parent)) {
      report(node);
    } else if (ts.isNewExpression(node) && node.expression.getText(file) === 'Date' && (node.arguments?.length ?? 0) === 0) {
      report(node);
    } else if (ts.isCallExpression(node) && node.expression.getText(file) === 'Date') {
      report(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('nowMs', () => {
  it("reads the injected scheduler's clock (virtual time under a TestScheduler)", () => {
    const testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    const readings: number[] = [];
    testScheduler.run(({ cold }) => {
      expect(nowMs(testScheduler)).toBe(0);
      cold('-- 1s a 499ms b|').subscribe(() => readings.push(nowMs(testScheduler)));
    });
    expect(readings).toEqual([1002, 1502]);
  });

  it("defaults to asyncScheduler's clock", () => {
    const before = asyncScheduler.now();
    const read = nowMs();
    expect(read).toBeGreaterThanOrEqual(before);
    expect(read).toBeLessThanOrEqual(asyncScheduler.now());
  });
});

describe('the time rule: lib/ reads time only through an injected scheduler', () => {
  it('finds clock reads and raw timers in a sample (the check can fail)', () => {
    const sample = [
      '// Date.now() in a comment is fine',
      "const doc = 'setTimeout in a string is fine';",
      'const a = Date.now();',
      'const b = performance.now();',
      'setTimeout(() => 1, 5);',
      'const c = setInterval;',
      'globalThis.setTimeout(() => 1);',
      'const d = new Date();',
      'const e = new Date(0);',
      'const f = scheduler.now();',
    ].join('\n');
    expect(clockReads('sample.ts', sample)).toEqual([
      '3: Date.now',
      '4: performance.now',
      '5: setTimeout',
      '6: setInterval',
      '7: globalThis.setTimeout',
      '8: new Date()',
    ]);
  });

  it('holds for every file under lib/ outside lib/simulator/ (Date.now, performance.now, setTimeout, setInterval, new Date())', () => {
    const files = libFiles().filter((path) => !path.startsWith('simulator/'));
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain('internal/clock.ts');
    const findings = files.flatMap((path) => clockReads(path, readFileSync(join(LIB, path), 'utf8')).map((hit) => `lib/${path}:${hit}`));
    expect(findings).toEqual([]);
  });
});
