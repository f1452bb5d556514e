import { ConfigError } from '../../errors';
import { excerpt } from '../../internal/redact';

/**
 * The check of a symbol before anything is sent for it (issue 27): a symbol goes verbatim into a `sub` frame, so a
 * comma would subscribe other symbols (`"BTCUSDT,ETHUSDT"`), and an empty, huge or control-character symbol is a
 * frame the service refuses at best. `marketStreams` errors the topic with the `ConfigError` this returns.
 *
 * @internal
 * @module
 */

/** The default of `symbolPattern`: letters and digits, 1 to 32 of them. @internal */
export const DEFAULT_SYMBOL_PATTERN = /^[A-Za-z0-9]{1,32}$/;

/** Longest symbol whatever the pattern says. @internal */
export const MAX_SYMBOL_LENGTH = 64;

/** Characters never allowed whatever the pattern says: the list separator of a batched frame, and control characters. */
const NEVER_ALLOWED = /[,\u0000-\u001f\u007f]/;

/** Characters of a bad symbol shown in the error, at most. */
const SHOWN = 16;

/** A short, redacted, escaped excerpt of what was given (with its length when cut). */
function shown(symbol: string): string {
  const cut = JSON.stringify(excerpt(symbol, undefined, SHOWN));
  return symbol.length > SHOWN ? `${cut} (${symbol.length} characters)` : cut;
}

/**
 * A checker of symbols: `undefined` for a good one, else the `ConfigError` (option `symbol`) that says why. `pattern`
 * is the `symbolPattern` option (its `g` / `y` flags are ignored); `known` the `symbols` option (exchangeInfo's
 * symbols): a symbol outside it is refused too.
 * @internal
 */
export function symbolChecker(pattern: RegExp = DEFAULT_SYMBOL_PATTERN, known?: Iterable<string>): (symbol: unknown) => ConfigError | undefined {
  if (!(pattern instanceof RegExp)) throw new ConfigError('symbolPattern', 'must be a RegExp');
  const test = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
  let symbols: ReadonlySet<string> | undefined;
  if (known !== undefined) {
    if (typeof known === 'string' || typeof (known as Partial<Iterable<string>>)[Symbol.iterator] !== 'function') {
      throw new ConfigError('symbols', 'must be an iterable of symbols (e.g. an array)');
    }
    symbols = new Set(known);
  }
  return (symbol) => {
    if (typeof symbol !== 'string') return new ConfigError('symbol', `must be text, got ${symbol === null ? 'null' : typeof symbol}`);
    if (symbol.length === 0) return new ConfigError('symbol', 'must not be empty');
    if (symbol.length > MAX_SYMBOL_LENGTH) return new ConfigError('symbol', `${shown(symbol)} is longer than ${MAX_SYMBOL_LENGTH} characters`);
    if (NEVER_ALLOWED.test(symbol)) {
      return new ConfigError('symbol', `${shown(symbol)} holds a comma or a control character (a comma would subscribe other symbols)`);
    }
    if (!test.test(symbol)) return new ConfigError('symbol', `${shown(symbol)} does not match ${String(pattern)} (option symbolPattern)`);
    if (symbols !== undefined && !symbols.has(symbol)) {
      return new ConfigError('symbol', `${shown(symbol)} is not one of the ${symbols.size} symbols given (option symbols)`);
    }
    return undefined;
  };
}
