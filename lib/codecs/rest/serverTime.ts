import { IntFromNumberOrString } from '../primitives';
import { declaredAs, struct } from '../struct';

/**
 * Answer of `GET /api/v1/time`: the service's clock in ms (a number or numeric text). Extra fields ignored.
 *
 * @example
 * ```ts
 * import { ServerTimeCodec } from 'ex-streams/codecs';
 * ServerTimeCodec.decode({ serverTime: '1700000000000' }); // right({ serverTime: 1700000000000 })
 * ```
 */
export const ServerTimeCodec = declaredAs<ServerTime>()(struct('ServerTime', { serverTime: IntFromNumberOrString }, {}));
/**
 * A decoded `GET /api/v1/time` answer.
 *
 * @example
 * ```ts
 * import type { ServerTime } from 'ex-streams/rest';
 *
 * const time: ServerTime = { serverTime: 1700000000000 };
 * ```
 */
export interface ServerTime {
  /** The service's clock: milliseconds since the Unix epoch (number; text on the wire is accepted). */
  readonly serverTime: number;
}
