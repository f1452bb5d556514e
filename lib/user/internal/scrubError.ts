import { redact } from '../../internal/redact';

/**
 * Returns `error` itself when none of its text mentions a listen key, else a copy (same prototype, so
 * `instanceof` and `name` still work) whose message, stack, text fields and lists of text are redacted.
 * @internal
 */
export function scrubError(error: Error, keys: readonly string[]): Error {
  const clean = (text: string): string => redactFragments(redact(text, keys), keys);
  const fields = Object.entries(error);
  // Text fields, and lists of text (a `DecodeError`'s `paths`), are scrubbed; other values are kept as they are.
  const scrub = (v: unknown): unknown =>
    typeof v === 'string' ? clean(v) : Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.map(clean) : v;
  const changed = (v: unknown): boolean =>
    typeof v === 'string' ? clean(v) !== v : Array.isArray(v) && v.some((x) => typeof x === 'string' && clean(x) !== x);
  const dirty =
    clean(error.message) !== error.message ||
    (error.stack !== undefined && clean(error.stack) !== error.stack) ||
    fields.some(([, v]) => changed(v));
  if (!dirty) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  for (const [k, v] of fields) {
    Object.defineProperty(copy, k, { value: scrub(v), enumerable: true });
  }
  Object.defineProperty(copy, 'message', { value: clean(error.message), configurable: true, writable: true });
  if (error.stack !== undefined) {
    Object.defineProperty(copy, 'stack', { value: clean(error.stack), configurable: true, writable: true });
  }
  return copy;
}

/** Shortest run of a key's characters treated as a piece of that key (a cut excerpt can hold a part of it). */
const FRAGMENT = 8;

/**
 * Replaces with `***` every run of at least {@link FRAGMENT} characters of `text` that is also a run of one
 * of `keys`: an excerpt cut in the middle of a key keeps no part of it. Linear in `text` (a set of the keys'
 * 8-character windows).
 * @internal
 */
export function redactFragments(text: string, keys: readonly string[]): string {
  const long = keys.filter((k) => k.length >= FRAGMENT);
  if (long.length === 0 || text.length < FRAGMENT) return text;
  const windows = new Set<string>();
  for (const k of long) for (let i = 0; i + FRAGMENT <= k.length; i++) windows.add(k.slice(i, i + FRAGMENT));
  let out = '';
  let from = 0;
  for (let i = 0; i + FRAGMENT <= text.length; ) {
    if (!windows.has(text.slice(i, i + FRAGMENT))) {
      i++;
      continue;
    }
    let end = i + FRAGMENT;
    while (end < text.length && long.some((k) => k.includes(text.slice(i, end + 1)))) end++;
    out += text.slice(from, i) + '***';
    from = i = end;
  }
  return from === 0 ? text : out + text.slice(from);
}
