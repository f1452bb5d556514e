/**
 * @deprecated internal alias, removed at integration: import `fastCheckOf` from `lib/codecs/fastCheck`.
 * @internal
 * @module
 */
export { fastCheckOf } from '../fastCheck';
