import * as path from 'path';
import * as ts from 'typescript';

/**
 * The codecs' own sources compile under the strictest settings users turn on (as `@tsconfig/strictest`):
 * `exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`, `noPropertyAccessFromIndexSignature`, on top of
 * the project's `tsconfig.json`. Only diagnostics in `lib/codecs/**` count here (other folders are checked
 * by their own owners).
 */
const root = path.resolve(__dirname, '../..');
const STRICTEST = {
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
} as const;

function codecDiagnostics(): string[] {
  const configPath = path.join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile.bind(ts.sys));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath);
  const program = ts.createProgram({
    rootNames: [path.join(root, 'lib/codecs/index.ts'), path.join(root, 'lib/codecs/fast/index.ts')],
    options: { ...parsed.options, ...STRICTEST, noEmit: true, incremental: false },
  });
  const codecsDir = path.join(root, 'lib', 'codecs') + path.sep;
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file !== undefined && path.resolve(d.file.fileName).startsWith(codecsDir))
    .map((d) => {
      const file = d.file as ts.SourceFile;
      const { line, character } = file.getLineAndCharacterOfPosition(d.start ?? 0);
      const where = `${path.relative(root, file.fileName)}:${line + 1}:${character + 1}`;
      return `${where} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
}

describe('lib/codecs under the strictest compiler flags', () => {
  it('has no type error with exactOptionalPropertyTypes, noUncheckedIndexedAccess and noPropertyAccessFromIndexSignature', () => {
    expect(codecDiagnostics()).toEqual([]);
  }, 60_000);
});
