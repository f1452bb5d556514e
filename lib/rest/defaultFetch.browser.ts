/**
 * The browser build's `fetch` of a `restClient` given none: none here, so the global `fetch` is looked up at call
 * time (fetchText). Replaces `defaultFetch.ts` (`node:http` keep-alive) in the browser build (rollup.config.js,
 * scripts/browser-variants.js). @internal
 */
export function defaultFetch(): typeof fetch | undefined {
  return undefined;
}
