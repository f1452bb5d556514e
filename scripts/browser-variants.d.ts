import type { Plugin } from 'rollup';

/** See browser-variants.js: resolves `X.ts` to `X.browser.ts` where one exists (the browser build). */
export declare function browserVariants(): Plugin;
