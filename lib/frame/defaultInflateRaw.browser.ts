import type { RawInflater } from './frameLimits';

/**
 * The browser build's inflater of zip frames when none is given: none, so fflate is bundled only by an app that
 * imports `inflateRaw` from `ex-streams/zip` (binary frames without it end with a `ConfigError`, see
 * `missingInflater`). Replaces `defaultInflateRaw.ts` in the browser build (rollup.config.js). @internal
 */
export const defaultInflateRaw: RawInflater | undefined = undefined;
