/**
 * @deprecated internal alias, removed at integration: import `FAIL`, `Fast` and `FastCheck` from
 * `lib/codecs/fastCheck`. The per-primitive checks are gone: each primitive codec carries its own
 * (`fastCheckOf(DecimalString)`).
 * @internal
 * @module
 */
export { FAIL, type Fast, type FastCheck } from '../fastCheck';
