import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import { PathReporter } from 'io-ts/PathReporter';

const SUPPLIED_TO = ' supplied to ';

/**
 * The failure paths of a PathReporter report: the part of each line after "supplied to " (e.g.
 * `: TradeRecord/p: DecimalString`), or the whole line when a codec gave its own message.
 */
export function pathsOf(lines: readonly string[]): string[] {
  return lines.map((line) => {
    const at = line.lastIndexOf(SUPPLIED_TO);
    return at < 0 ? line : line.slice(at + SUPPLIED_TO.length);
  });
}

/**
 * Decodes `value` with `codec`, fails the test with the PathReporter lines when it does not decode, and
 * compares the result with `expected` (strict equality of structure) when given. Returns the decoded value.
 */
export function assertDecodes<A>(codec: t.Decoder<unknown, A>, value: unknown, expected?: A): A {
  const result = codec.decode(value);
  if (E.isLeft(result)) {
    throw new Error(`expected ${codec.name} to decode, got:\n${PathReporter.report(result).join('\n')}`);
  }
  if (expected !== undefined) expect(result.right).toStrictEqual(expected);
  return result.right;
}

/**
 * Decodes `value` with `codec`, expects a failure, and compares its paths (see {@link pathsOf}), in order,
 * with `expectedPaths`. Returns the full PathReporter lines.
 */
export function assertFails(codec: t.Decoder<unknown, unknown>, value: unknown, expectedPaths: readonly string[]): string[] {
  const result = codec.decode(value);
  if (E.isRight(result)) {
    throw new Error(`expected ${codec.name} to fail, it decoded to ${JSON.stringify(result.right)}`);
  }
  const lines = PathReporter.report(result);
  expect(pathsOf(lines)).toEqual(expectedPaths);
  return lines;
}
