import * as t from 'io-ts';

/**
 * Response of the listen-key creation call (`POST /api/v1/userDataStream`). A response without
 * `listenKey` is a failure (SPEC, Errors).
 *
 * @example
 * ```ts
 * import { ListenKeyResponseCodec } from 'ex-streams/codecs';
 * ListenKeyResponseCodec.is({ listenKey: 'abc' }); // true
 * ```
 */
export const ListenKeyResponseCodec = t.type({ listenKey: t.string }, 'ListenKeyResponse');
/**
 * A decoded listen-key response.
 *
 * @example
 * ```ts
 * import type { ListenKeyResponse } from 'ex-streams/codecs';
 *
 * const response: ListenKeyResponse = { listenKey: '1A9LWJjuMwKWYP4QQPw34GRm8gz3x5AephXSuqcDef1RnzoBVhEeGE963CoS1Sgj' };
 * ```
 */
export type ListenKeyResponse = t.TypeOf<typeof ListenKeyResponseCodec>;
