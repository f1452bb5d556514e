import { redact } from '../../internal/redact';

/**
 * Returns `error` itself when none of its text mentions a listen key, else a copy (same prototype, so
 * `instanceof` and `name` still work) whose message, stack and string fields are redacted.
 * @internal
 */
export function scrubError(error: Error, keys: readonly string[]): Error {
  const clean = (text: string): string => redact(text, keys);
  const fields = Object.entries(error);
  const dirty =
    clean(error.message) !== error.message ||
    (error.stack !== undefined && clean(error.stack) !== error.stack) ||
    fields.some(([, v]) => typeof v === 'string' && clean(v) !== v);
  if (!dirty) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  for (const [k, v] of fields) {
    Object.defineProperty(copy, k, { value: typeof v === 'string' ? clean(v) : v, enumerable: true });
  }
  Object.defineProperty(copy, 'message', { value: clean(error.message), configurable: true, writable: true });
  if (error.stack !== undefined) {
    Object.defineProperty(copy, 'stack', { value: clean(error.stack), configurable: true, writable: true });
  }
  return copy;
}
