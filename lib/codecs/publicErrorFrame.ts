import * as t from 'io-ts';
import { IdFromNumberOrString } from './primitives';
import { struct } from './struct';

/**
 * An error frame of the public stream, e.g. the answer to a subscription with an unknown symbol:
 * `{ id, code, desc, symbol, topic }` (the simulator sends `code` as text).
 *
 * Required: `code` (number or text, kept as sent). Optional: `msg`, `desc` (message text), `id` (the
 * request id, as text), `symbol`, `topic`. Extra fields are ignored. A data message has no `code`, so it
 * never matches.
 *
 * @example
 * ```ts
 * import { PublicErrorFrameCodec } from 'ex-streams/codecs';
 * PublicErrorFrameCodec.decode({ id: 3, code: '-100010', desc: 'Invalid Symbols!', symbol: 'NOPE', topic: 'trade' });
 * // right({ id: '3', code: '-100010', desc: 'Invalid Symbols!', symbol: 'NOPE', topic: 'trade' })
 * ```
 */
export const PublicErrorFrameCodec = struct(
  'PublicErrorFrame',
  { code: t.union([t.number, t.string], 'ErrorCode') },
  { msg: t.string, desc: t.string, id: IdFromNumberOrString, symbol: t.string, topic: t.string },
);
/**
 * A decoded public stream error frame.
 *
 * @example
 * ```ts
 * import type { PublicErrorFrame } from 'ex-streams/codecs';
 *
 * const rejected: PublicErrorFrame = { id: '3', code: '-100010', desc: 'Invalid Symbols!', symbol: 'NOPE', topic: 'trade' };
 * ```
 */
export type PublicErrorFrame = t.TypeOf<typeof PublicErrorFrameCodec>;
