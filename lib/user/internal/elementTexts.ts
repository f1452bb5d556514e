/**
 * The exact text of each element of a private frame, for the events the library does not model (their
 * `OtherPrivateEvent.text`). Data path: the frame sink (step 2) calls it only for a frame holding such an event.
 * @internal
 * @module
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The texts of the top-level elements of `text`, a JSON value that parsed (so it is well formed): for an array,
 * each element's text without the whitespace around it, in order; for any other value, the value's text. One pass;
 * strings (their escapes too) are skipped as they are.
 *
 * @example
 * ```ts no-check
 * elementTexts('[{"e":"a"}, {"e":"b","x":[1,2]}]'); // ['{"e":"a"}', '{"e":"b","x":[1,2]}']
 * elementTexts(' {"e":""} ');                        // ['{"e":""}']
 * ```
 * @internal
 */
export function elementTexts(text: string): string[] {
  const n = text.length;
  let i = 0;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== OPEN_BRACKET) return [text.trim()];
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (i++; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (start < 0) start = i;
      // to the closing quote, past escaped characters
      for (i++; i < n && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (start < 0) start = i;
      depth++;
    } else if ((c === CLOSE_BRACKET || c === CLOSE_BRACE) && depth > 0) {
      depth--;
    } else if (depth === 0 && (c === COMMA || c === CLOSE_BRACKET)) {
      if (start >= 0) out.push(text.slice(start, i).trim());
      start = -1;
      if (c === CLOSE_BRACKET) break;
    } else if (start < 0 && !isSpace(c)) {
      start = i;
    }
  }
  return out;
}
