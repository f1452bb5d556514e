/**
 * Reading values that come from clients without ever throwing: a JSON value may be anything, including an
 * object whose `toString` / `valueOf` keys make `String(v)` and `Number(v)` throw.
 * @internal
 */

/** `decodeURIComponent` that answers undefined for a malformed escape (`%E0%A4%A`) instead of throwing. @internal */
export function safeDecodeUri(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** A client value as text: strings as they are, finite numbers and booleans printed, anything else ''. @internal */
export function clientText(v: unknown): string {
  if (typeof v === 'string') return v;
  if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') return String(v);
  return '';
}

/** A client value as a number: numbers, numeric text; NaN for anything else. @internal */
export function clientNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.length <= 40) return Number(v);
  return Number.NaN;
}

