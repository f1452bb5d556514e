/**
 * Secret hygiene helpers. Used wherever raw input (a frame, a URL, a response body) could end up in an
 * error message or a log line.
 *
 * @internal
 * @module
 */

const LISTEN_KEY_PATH = /(\/ws\/)[^/?#\s"']+/g;
const SECRET_PARAMS = /((?:^|[?&"\s{,])(?:signature|listenKey|secretKey|secret|token)"?\s*[=:]\s*"?)[^&"\s,}]+/gi;
/**
 * An opaque secret-like token: a run of {@link OPAQUE_TOKEN_LENGTH}+ ASCII letters and digits. Listen keys (60
 * alphanumerics), hex signatures (64) and API keys are such runs; a run of digits only (a 64-bit or 40-digit
 * id) is not replaced, and decimal text, symbols, topic names and field names are far shorter runs.
 */
const OPAQUE_TOKEN = /[A-Za-z0-9]{32,}/g;
/** Length from which a run of letters and digits is taken for a secret. @internal */
export const OPAQUE_TOKEN_LENGTH = 32;
const NON_DIGIT = /[^0-9]/;

/** Longest excerpt of raw input kept in an error. */
export const RAW_EXCERPT_LENGTH = 300;

/**
 * Characters read past the cut of an excerpt and redacted with it: a secret the cut would split is seen
 * whole (or as a run far longer than {@link OPAQUE_TOKEN_LENGTH}), so no part of it survives the cut.
 * @internal
 */
export const EXCERPT_LOOKAHEAD = 4096;

const opaque = (run: string): string => (NON_DIGIT.test(run) ? '***' : run);

/**
 * Replaces listen keys in stream paths, the values of `signature`, `listenKey`, `secret...` and `token`
 * parameters (query-string or JSON style), opaque secret-like tokens (32+ letters and digits, not all
 * digits) and every literal secret given with `***`.
 * @internal
 */
export function redact(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('***');
  }
  return out.replace(LISTEN_KEY_PATH, '$1***').replace(SECRET_PARAMS, '$1***').replace(OPAQUE_TOKEN, opaque);
}

/**
 * A redacted excerpt of `text`, at most `max` characters (default {@link RAW_EXCERPT_LENGTH}) plus `…` when
 * cut. Redacts before cutting (over the first `max` + {@link EXCERPT_LOOKAHEAD} characters), so a cut never
 * leaves part of a secret behind; the work is bounded whatever the length of `text`.
 * @internal
 */
export function excerpt(text: string, secrets?: readonly (string | undefined)[], max: number = RAW_EXCERPT_LENGTH): string {
  const window = text.length > max + EXCERPT_LOOKAHEAD ? text.slice(0, max + EXCERPT_LOOKAHEAD) : text;
  const clean = redact(window, secrets);
  return clean.length > max || window.length < text.length ? clean.slice(0, max) + '…' : clean;
}
