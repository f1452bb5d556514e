// Data path (notes/architecture.md, "The data path"): step 3, JSON text → value (64-bit ids kept exact: quoted first, or on demand).
import * as E from 'fp-ts/Either';
import { DecodeError } from '../errors';
import { NOT_SCANNED, parseWithScannedLevels, type ScannedLevels } from './levelsJson';
import { excerpt } from '../internal/redact';

/**
 * The one `JSON.parse` of ex-streams, with 64-bit ids kept exact.
 *
 * @internal
 * @module
 */

/**
 * Integer literals with at least this many digits may exceed `Number.MAX_SAFE_INTEGER` (16 digits): the exact
 * parse keeps them as their text (so do the struct readers). @internal
 */
export const LONG_DIGITS = 16;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/** A byte or char code that may stand right before the digits of a JSON number value: `:`, `,`, `[`, `-`, whitespace (control characters too: conservative). */
const mayPrecedeNumber = (c: number): boolean => c === COLON || c === COMMA || c === OPEN_BRACKET || c === MINUS || c <= SPACE;

/** The run of digits `[start, …)` is preceded by a JSON value start: `-`? whitespace* then `:`, `,`, `[` or the document start. */
function valueStartsAt(text: string, start: number): boolean {
  let i = start - 1;
  if (i >= 0 && text.charCodeAt(i) === MINUS) i--;
  for (; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== LF && c !== CR) return c === COLON || c === COMMA || c === OPEN_BRACKET;
  }
  return true;
}

/**
 * Cheap pre-check: may `text` hold an integer literal of {@link LONG_DIGITS}+ digits standing where a JSON
 * value starts (document start, after `:`, `,` or `[`, optional whitespace and `-`)? Exactly: is there a
 * maximal run of 16+ ASCII digits whose start is such a value start? Sub-linear and allocation-free, like a
 * Horspool search for "16 digits": a window `[i, i + 16)` is tested by its last character first (a
 * non-digit there skips the whole window), then backwards; the first non-digit found moves the window past
 * it. When that non-digit cannot precede a number (a quote: the common quoted id; a `.`: a fraction), the
 * run after it is rejected at once and the window jumps past the sample, so no run is read twice. Only a
 * full window of digits reads its context. Every position before `i` is settled; `text[i - 1]` is a
 * non-digit, or a digit of a run already rejected. It may say yes for digits inside a string
 * (`"a,1234567890123456"`); the exact scanner then changes nothing. Never says no when
 * {@link quoteLongIntegers} would quote something.
 * @internal
 */
export function mayHaveLongInteger(text: string): boolean {
  const n = text.length;
  let i = 0;
  while (i + LONG_DIGITS <= n) {
    const j = i + LONG_DIGITS - 1;
    let c = text.charCodeAt(j);
    if (c < DIGIT_0 || c > DIGIT_9) {
      i = j + 1;
      continue;
    }
    let p = j - 1;
    for (; p >= i; p--) {
      c = text.charCodeAt(p);
      if (c < DIGIT_0 || c > DIGIT_9) break;
    }
    if (p >= i) {
      // A run starts at p + 1 and covers j: a candidate after a possible value start, rejected otherwise
      // (then it ends after j, and the next run starts at j + 2 at the earliest).
      i = mayPrecedeNumber(c) ? p + 1 : j + 2;
      continue;
    }
    // [i, j] are digits: a run of 16+ starts at i, unless text[i - 1] is a digit of a rejected run (then
    // valueStartsAt says no).
    if (valueStartsAt(text, i)) return true;
    i = j + 2;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** Characters that may continue a JSON number after its integer digits: `.`, `e`, `E`, `+`, `-`, digits. */
const continuesNumber = (c: number): boolean =>
  isDigit(c) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;

/**
 * Wraps every integer literal of 16 or more digits (optionally negative) that stands as a JSON value in
 * double quotes, so `JSON.parse` yields its exact text instead of a rounded number. Scans once, tracking
 * strings and escapes: text inside strings is never changed. Numbers with a fraction or an exponent are
 * left alone (they are amounts, not ids). Returns `text` itself when nothing was quoted.
 *
 * Limits: a quoted literal becomes text, so the codec of that field must accept numeric text (every
 * ex-streams codec for times, ids and amounts does); a 16-digit literal that is still a safe integer is
 * quoted too; on invalid JSON the result is unspecified (and `JSON.parse` rejects it anyway).
 * @internal
 */
export function quoteLongIntegers(text: string): string {
  const n = text.length;
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i++;
      while (i < n) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i += 2;
        else {
          i++;
          if (s === QUOTE) break;
        }
      }
    } else if (c === MINUS || isDigit(c)) {
      const start = i;
      if (c === MINUS) i++;
      const digitsStart = i;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      const integerEnd = i;
      while (i < n && continuesNumber(text.charCodeAt(i))) i++;
      if (i === integerEnd && integerEnd - digitsStart >= LONG_DIGITS) {
        out += text.slice(copied, start) + '"' + text.slice(start, integerEnd) + '"';
        copied = integerEnd;
      }
    } else {
      i++;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const POSITION = /position (\d+)/;

/**
 * Parses JSON text without ever throwing. Integer literals of 16+ digits (64-bit ids) are turned into text
 * first (see {@link quoteLongIntegers}), only when a cheap check finds one, so they survive exactly.
 *
 * A failure is a `DecodeError` of kind `'json'` with a redacted excerpt of the text (`secrets` are replaced
 * by `***`, as are listen keys and signature-like parameters). The runtime's own parser message is not
 * copied, since it may quote the input unredacted; only its position is kept.
 *
 * @example
 * ```ts
 * import { parseJson } from '../../lib/frame/json'; // internal: not an entry of the package
 *
 * parseJson('{"i":1291488620385157122,"p":"0.1"}'); // right({ i: '1291488620385157122', p: '0.1' })
 * parseJson('{"a":');                                 // left(DecodeError { kind: 'json', ... })
 * ```
 * @internal
 */
export function parseJson(text: string, secrets?: readonly string[]): E.Either<DecodeError, unknown> {
  const value = parseJsonValue(text, secrets);
  return value instanceof DecodeError ? E.left(value) : E.right(value);
}

/**
 * {@link parseJson} without the `Either`: the parsed value, or the `DecodeError` itself (`JSON.parse` never
 * yields a class instance, so `instanceof DecodeError` tells them apart). The hot path of the socket layer
 * uses this to allocate nothing beyond what `JSON.parse` builds. With `exactIntegers` false, long integer
 * literals are not quoted (JSON.parse rounds them): for a reader that checks every number it reads and asks
 * for {@link exactJsonValue} when one fails (see `connectionCore`'s `exactIntegers: 'on-demand'`). With
 * `scanned`, the book levels scanned by hand are kept there for the depth check of the same frame (see
 * `levelsJson.ts`): for a caller that checks the value at once and then clears them.
 * @internal
 */
export function parseJsonValue(text: string, secrets?: readonly string[], exactIntegers = true, scanned?: ScannedLevels): unknown {
  const source = exactIntegers && mayHaveLongInteger(text) ? quoteLongIntegers(text) : text;
  // A book's levels are read by a scanner that knows their shape (about twice as fast as JSON.parse).
  const value = parseWithScannedLevels(source, scanned);
  if (value !== NOT_SCANNED) return value;
  try {
    return JSON.parse(source);
  } catch (e) {
    const position = source === text && e instanceof Error ? POSITION.exec(e.message) : null;
    return new DecodeError(
      'json',
      `frame is not valid JSON (${text.length} characters${position ? `, error at position ${position[1]}` : ''})`,
      [],
      excerpt(text, secrets),
    );
  }
}

/**
 * The value of JSON `text` (already parsed once without quoting, so valid) with its long integer literals
 * quoted (see {@link quoteLongIntegers}), or `undefined` when it holds none: then the plain parse was exact.
 * @internal
 */
export function exactJsonValue(text: string): unknown {
  if (!mayHaveLongInteger(text)) return undefined;
  const value = parseJsonValue(text);
  return value instanceof DecodeError ? undefined : value;
}
