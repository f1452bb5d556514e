import * as E from 'fp-ts/Either';
import { DecodeError } from '../errors';
import { excerpt } from './redact';

/**
 * The one `JSON.parse` of ex-streams, with 64-bit ids kept exact.
 *
 * @internal
 * @module
 */

/** Integer literals with at least this many digits may exceed `Number.MAX_SAFE_INTEGER` (16 digits). */
const LONG_DIGITS = 16;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;

/** `text[i]` is an ASCII digit (`false` past either end). */
const digitAt = (text: string, i: number): boolean => {
  const c = text.charCodeAt(i); // NaN out of range: both comparisons false
  return c >= 0x30 && c <= 0x39;
};

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
 * value starts (document start, after `:`, `,` or `[`, optional whitespace and `-`)? Sub-linear: every run
 * of 16 digits covers one of the positions 15, 31, 47, …, so only those are read, and a run is measured
 * only around a sampled digit. Quoted ids (`"v":"929681067596857345"`) are rejected by the character before
 * their run, so the common frame reads about a sixteenth of its characters and allocates nothing. It may
 * say yes for digits inside a string (`"a,1234567890123456"`); the exact scanner then changes nothing.
 * Never says no when {@link quoteLongIntegers} would quote something.
 * @internal
 */
export function mayHaveLongInteger(text: string): boolean {
  const n = text.length;
  for (let k = LONG_DIGITS - 1; k < n; k += LONG_DIGITS) {
    if (!digitAt(text, k)) continue;
    // A run of 16+ digits covering k holds k - 8 or k + 8: short runs (prices, times) end here, unmeasured.
    if (!digitAt(text, k - 8) && !digitAt(text, k + 8)) continue;
    let start = k;
    while (digitAt(text, start - 1)) start--;
    // Quoted ids (the common case) are rejected by the character before their run, before it is measured.
    if (text.charCodeAt(start - 1) === QUOTE || !valueStartsAt(text, start)) continue;
    let end = k + 1;
    while (digitAt(text, end)) end++;
    if (end - start >= LONG_DIGITS) return true;
    // The next sample past this run: runs are separated by at least one non-digit.
    while (k + LONG_DIGITS < end) k += LONG_DIGITS;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;

/** `bytes[i]` is an ASCII digit (`false` past either end: `undefined` compares false). */
const digitByteAt = (bytes: Uint8Array, i: number): boolean => {
  const c = bytes[i]!;
  return c >= 0x30 && c <= 0x39;
};

/** {@link valueStartsAt} over UTF-8 bytes. */
function valueStartsAtByte(bytes: Uint8Array, start: number): boolean {
  let i = start - 1;
  if (i >= 0 && bytes[i] === MINUS) i--;
  for (; i >= 0; i--) {
    const c = bytes[i]!;
    if (c !== SPACE && c !== TAB && c !== LF && c !== CR) return c === COLON || c === COMMA || c === OPEN_BRACKET;
  }
  return true;
}

/**
 * {@link mayHaveLongInteger} over the UTF-8 bytes of a text frame, before they are decoded to a string: the
 * same sampling, on a typed array (cheaper per read than `charCodeAt` on a fresh string). Exact for the
 * same reason: in UTF-8 every byte of a multi-byte character is `0x80` or above, so digits, quotes and the
 * JSON punctuation it looks for are the same single bytes as in the text, and runs of digits are the same
 * runs. Never says no when {@link quoteLongIntegers} would quote something in the decoded text.
 * @internal
 */
export function mayHaveLongIntegerBytes(bytes: Uint8Array): boolean {
  const n = bytes.length;
  for (let k = LONG_DIGITS - 1; k < n; k += LONG_DIGITS) {
    if (!digitByteAt(bytes, k)) continue;
    if (!digitByteAt(bytes, k - 8) && !digitByteAt(bytes, k + 8)) continue;
    let start = k;
    while (digitByteAt(bytes, start - 1)) start--;
    if (bytes[start - 1] === QUOTE || !valueStartsAtByte(bytes, start)) continue;
    let end = k + 1;
    while (digitByteAt(bytes, end)) end++;
    if (end - start >= LONG_DIGITS) return true;
    while (k + LONG_DIGITS < end) k += LONG_DIGITS;
  }
  return false;
}

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
 * uses this to allocate nothing beyond what `JSON.parse` builds. `mayHaveLong`, when given, is the answer of
 * the long-integer pre-check already computed by the caller on the frame's bytes
 * ({@link mayHaveLongIntegerBytes}); it must never be `false` where {@link mayHaveLongInteger} would say yes.
 * @internal
 */
export function parseJsonValue(text: string, secrets?: readonly string[], mayHaveLong?: boolean): unknown {
  const source = (mayHaveLong ?? mayHaveLongInteger(text)) ? quoteLongIntegers(text) : text;
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
