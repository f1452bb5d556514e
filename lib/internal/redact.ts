/**
 * Secret hygiene helpers. Used wherever raw input (a frame, a URL, a response body) could end up in an
 * error message or a log line.
 *
 * @internal
 * @module
 */

const LISTEN_KEY_PATH = /(\/ws\/)[^/?#\s"']+/g;
const SECRET_PARAMS = /((?:^|[?&"\s{,])(?:signature|listenKey|secretKey|secret|token)"?\s*[=:]\s*"?)[^&"\s,}]+/gi;

/** Longest excerpt of raw input kept in an error. */
export const RAW_EXCERPT_LENGTH = 300;

/**
 * Replaces listen keys in stream paths and the values of `signature`, `listenKey`, `secret...` and `token`
 * parameters (query-string or JSON style) with `***`, plus every literal secret given.
 * @internal
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text.replace(LISTEN_KEY_PATH, '$1***').replace(SECRET_PARAMS, '$1***');
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('***');
  }
  return out;
}

/** A redacted excerpt of raw input, at most {@link RAW_EXCERPT_LENGTH} characters. @internal */
export function excerpt(text: string, secrets?: readonly (string | undefined)[]): string {
  const short = text.length > RAW_EXCERPT_LENGTH ? text.slice(0, RAW_EXCERPT_LENGTH) + '…' : text;
  return redact(short, secrets);
}
