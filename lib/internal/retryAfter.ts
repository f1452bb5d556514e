/**
 * Milliseconds to wait from a `Retry-After` value: delay-seconds (`"30"`, `"1.5"`) or an HTTP date, relative
 * to `now` (the scheduler's clock). `undefined` when absent or unreadable; never negative. The one reader of
 * the header: the REST client's rate limits (`RateLimitedError.retryAfterMs`) and the websocket upgrade
 * answers (`ConnectionClosedError.retryAfterMs`) both use it.
 * @internal
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isFinite(date) && /[a-z]/i.test(text) ? Math.max(0, date - now) : undefined;
}
