/**
 * Why a `userStream` `url` cannot be the base address the key is appended to, or `undefined` when it can:
 * it holds a key placeholder (`{listenKey}`, `<listenKey>`, `:listenKey`, or any `{…}` / `<…>`, also
 * percent-encoded), or it already ends in what looks like a key (a long opaque last segment after `/ws/`).
 * The reason never repeats the url (it may hold a key).
 * @internal
 */
export function keyedUrlProblem(url: string): string | undefined {
  const path = pathOf(url);
  if (PLACEHOLDER.test(path)) return `holds a listen-key placeholder: ${PASS_BASE}`;
  if (ENDS_IN_KEY.test(path)) return `seems to end in a listen key: ${PASS_BASE}`;
  return undefined;
}

const PASS_BASE =
  'pass the base address without the key (e.g. wss://host/api/v1/ws); userStream gets the key itself and appends /<key>';

/** `{x}`, `<x>` (also percent-encoded) anywhere in the path, or a `:name` segment. */
const PLACEHOLDER = /\{[^}]*\}|<[^>]*>|%7B|%3C|\/:[A-Za-z_]/i;

/** A last segment of 16+ opaque characters after `/ws/` (listen keys are 60-64 characters). */
const ENDS_IN_KEY = /\/ws\/[A-Za-z0-9_\-.=+]{16,}\/*$/;

/** The url after its scheme and authority (a port's `:` is not a `:name` segment). */
const pathOf = (url: string): string => {
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/.exec(url);
  return authority === null ? url : url.slice(authority[0].length);
};
