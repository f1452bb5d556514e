/**
 * Type guards for values from the network (parsed JSON, request bodies), the one module that tells them
 * apart: every codec, router, sink and simulator handler imports from here.
 *
 * @internal
 * @module
 */

/**
 * Whether `u` is an object with fields: not `null`, not an array (`typeof [] === 'object'` too), as a JSON
 * object is after `JSON.parse`. Its values are still `unknown`. @internal
 */
export const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
