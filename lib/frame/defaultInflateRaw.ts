import { inflateRaw } from '../zip/inflateRaw';
import type { RawInflater } from './frameLimits';

/**
 * The inflater of zip frames when none is given: fflate (`ex-streams/zip`) in the Node and default builds.
 * The browser build swaps this module for `defaultInflateRaw.browser.ts` (none: fflate stays out of browser
 * bundles unless the app imports `ex-streams/zip`); see rollup.config.js. @internal
 */
export const defaultInflateRaw: RawInflater | undefined = inflateRaw;
