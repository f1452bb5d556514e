import * as t from 'io-ts';
import { IdFromNumberOrString, IntFromNumberOrString } from './primitives';

/**
 * Server → client heartbeat frames (SPEC, Heartbeat messages). Extra fields are ignored, so a private
 * pong also satisfies {@link PublicPongCodec}: test the most specific codec first.
 *
 * @module
 */

/**
 * The public stream's pong `{ pong }`: the server's time in ms.
 *
 * @example
 * ```ts
 * import { PublicPongCodec } from 'ex-streams/codecs';
 * PublicPongCodec.decode({ pong: 1626249138535 }); // right({ pong: 1626249138535 })
 * ```
 */
export const PublicPongCodec = t.type({ pong: IntFromNumberOrString }, 'PublicPong');
/**
 * A public stream pong.
 *
 * @example
 * ```ts
 * import type { PublicPong } from 'ex-streams/codecs';
 *
 * const pong: PublicPong = { pong: 1626249138535 }; // the server's time
 * ```
 */
export type PublicPong = t.TypeOf<typeof PublicPongCodec>;

/**
 * The private stream's pong `{ pong, channelId }`: `pong` echoes the client's ping time.
 *
 * @example
 * ```ts
 * import { PrivatePongCodec } from 'ex-streams/codecs';
 * PrivatePongCodec.decode({ pong: 1626249138535, channelId: '0242acfffe110002-00000001' });
 * // right({ pong: 1626249138535, channelId: '0242acfffe110002-00000001' })
 * ```
 */
export const PrivatePongCodec = t.type(
  { pong: IntFromNumberOrString, channelId: IdFromNumberOrString },
  'PrivatePong',
);
/**
 * A private stream pong.
 *
 * @example
 * ```ts
 * import type { PrivatePong } from 'ex-streams/codecs';
 *
 * const pong: PrivatePong = { pong: 1626249138535, channelId: '0242acfffe110002-00000001' };
 * ```
 */
export type PrivatePong = t.TypeOf<typeof PrivatePongCodec>;

/**
 * The private stream server's own ping `{ ping, channelId }` (every 30 s); answer with
 * `pongFrame(ping)`.
 *
 * @example
 * ```ts
 * import { ServerPingCodec } from 'ex-streams/codecs';
 * ServerPingCodec.decode({ ping: 1626249138535, channelId: 'a1' }); // right({ ping: 1626249138535, channelId: 'a1' })
 * ```
 */
export const ServerPingCodec = t.type(
  { ping: IntFromNumberOrString, channelId: IdFromNumberOrString },
  'ServerPing',
);
/**
 * A server ping.
 *
 * @example
 * ```ts
 * import { pongFrame, type ServerPing } from 'ex-streams/codecs';
 *
 * const answer = (ping: ServerPing) => pongFrame(ping.ping); // { pong: 1626249138535 }
 * ```
 */
export type ServerPing = t.TypeOf<typeof ServerPingCodec>;
