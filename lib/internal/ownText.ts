// Data path (notes/architecture.md, "The data path"): step 3, text taken out of a frame by the readers and the levels scanner.

/**
 * Text taken out of a frame's text that does not keep the frame alive. V8 makes a slice of 13 or more characters
 * a view of the text it was cut from (a "sliced string"): a 19-digit order id cut from a 500-byte frame keeps the
 * whole frame in memory as long as the id lives (held events, a book's levels, a user's own buffers). `JSON.parse`
 * never does that: it copies. So what the readers cut out is copied when it is long enough to be a view: a string's
 * content by `JSON.parse` of its quoted text ({@link ownQuotedText}: a flat string, as `JSON.parse` of the frame
 * would have made), anything else as a concatenation of short copies ({@link ownText}: V8 keeps it as a "cons
 * string" of the copies, and flattens it, copying once more, when it is first read character by character). A
 * trade id read character by character downstream (`distinctTrades`) costs ~100 ns as a view or an unflattened
 * concatenation and ~50 ns flat (`notes/performance-history.md`, "The ninth pass").
 *
 * @internal
 * @module
 */

/** Shorter slices are copied by the engine already (and so are the pieces below). */
const VIEW_LENGTH = 13;
/** The pieces a long text is copied in (each shorter than {@link VIEW_LENGTH}). */
const PIECE = VIEW_LENGTH - 1;

/**
 * The characters `[from, to)` of `s` as a string that does not keep `s` alive: a slice when it is short (the engine
 * copies it), else the concatenation of short slices (each a copy: about 25 ns for a 19-digit id, where a copy by
 * `JSON.parse` costs 70-100 ns; `notes/performance-history.md`, "The ninth pass"). The value is always `s.slice(from, to)`'s.
 *
 * @example
 * ```ts
 * const frame = '{"i":"1920153487203598336", … }';
 * const id = ownText(frame, 6, 25); // '1920153487203598336', without a reference to `frame`
 * ```
 * @internal
 */
export function ownText(s: string, from = 0, to = s.length): string {
  if (to - from < VIEW_LENGTH) return s.slice(from, to);
  let out = s.slice(from, from + PIECE);
  for (let i = from + PIECE; i < to; i += PIECE) out += s.slice(i, Math.min(to, i + PIECE));
  return out;
}

/**
 * The text between the quotes at `from - 1` and `to` of `s`, a string's content that holds no backslash and no
 * control character (the caller has checked), as a flat string of its own: a short slice, or a copy made by
 * `JSON.parse` of the quoted text. Flat rather than {@link ownText}'s concatenation, which the engine flattens
 * (copies again) the first time it is read character by character.
 *
 * @internal
 */
export function ownQuotedText(s: string, from: number, to: number): string {
  return to - from < VIEW_LENGTH ? s.slice(from, to) : (JSON.parse(s.slice(from - 1, to + 1)) as string);
}
