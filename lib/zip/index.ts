/**
 * ex-streams/zip: the inflater of binary (zip) frames that runs in browsers (fflate, pure JavaScript). The
 * browser build of the core entry carries none, so an app that asks for `binary: true` imports it from here and
 * pays for fflate only then; Node's build has it as its default.
 *
 * @packageDocumentation
 */
export { inflateRaw } from './inflateRaw';
