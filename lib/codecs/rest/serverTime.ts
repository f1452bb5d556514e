import * as t from 'io-ts';
import { IntFromNumberOrString } from '../primitives';
import { struct } from '../struct';

/**
 * Answer of `GET /api/v1/time`: the service's clock in ms (a number or numeric text). Extra fields ignored.
 *
 * @example
 * ```ts
 * import { ServerTimeCodec } from 'ex-streams';
 * ServerTimeCodec.decode({ serverTime: '1700000000000' }); // right({ serverTime: 1700000000000 })
 * ```
 */
export const ServerTimeCodec = struct('ServerTime', { serverTime: IntFromNumberOrString }, {});
/**
 * A decoded `GET /api/v1/time` answer.
 *
 * @example
 * ```ts
 * import type { ServerTime } from 'ex-streams';
 *
 * const time: ServerTime = { serverTime: 1700000000000 };
 * ```
 */
export type ServerTime = t.TypeOf<typeof ServerTimeCodec>;
