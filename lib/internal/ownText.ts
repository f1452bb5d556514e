// Data path (docs/architecture.md, "The data path"): step 3, text taken out of a frame by the readers and the levels scanner.

/**
 * Text taken out of a frame's text that does not keep the frame alive. V8 makes a slice of 13 or more characters
 * a view of the text it was cut from (a "sliced string"): a 19-digit order id cut from a 500-byte frame keeps the
 * whole frame in memory as long as the id lives (held events, a book's levels, a user's own buffers). `JSON.parse`
 * never does that: it copies. So what the readers cut out is copied when it is long enough to be a view. V8 keeps
 * a concatenation of copies as a "cons string" of them (flattened when first read character by character), so no
 * piece refers to the frame.
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
 * `JSON.parse` costs 70-100 ns; `docs/performance.md`, "The ninth pass"). The value is always `s.slice(from, to)`'s.
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
