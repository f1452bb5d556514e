import * as t from 'io-ts';
import { BooleanFromStringOrBoolean, IntFromNumberOrString } from './primitives';
import { struct } from './struct';

/**
 * Client → server frames: subscription, unsubscription, ping and pong (SPEC, Resources and Heartbeat
 * messages), with small constructors for the streams.
 *
 * @module
 */

/**
 * The `event` of a subscription frame: `sub`, `cancel` (public stream) or `cancel_all` (private stream).
 *
 * @example
 * ```ts
 * import { SubscriptionEventCodec } from 'ex-streams/codecs';
 * SubscriptionEventCodec.is('cancel'); // true
 * ```
 */
export const SubscriptionEventCodec = t.keyof({ sub: null, cancel: null, cancel_all: null }, 'SubscriptionEvent');
/**
 * `'sub' | 'cancel' | 'cancel_all'`.
 *
 * @example
 * ```ts
 * import type { SubscriptionEvent } from 'ex-streams/codecs';
 *
 * const event: SubscriptionEvent = 'cancel';
 * ```
 */
export type SubscriptionEvent = t.TypeOf<typeof SubscriptionEventCodec>;

/**
 * `params` of a subscription frame: `binary` (required; `true` asks for zip frames) and the optional
 * `limit` text of the private stream sample. Other params are ignored when decoding.
 *
 * @example
 * ```ts
 * import { SubscriptionParamsCodec } from 'ex-streams/codecs';
 * SubscriptionParamsCodec.decode({ binary: 'false', limit: '100' }); // right({ binary: false, limit: '100' })
 * ```
 */
export const SubscriptionParamsCodec = struct(
  'SubscriptionParams',
  { binary: BooleanFromStringOrBoolean },
  { limit: t.string },
);
/**
 * Decoded subscription params.
 *
 * @example
 * ```ts
 * import type { SubscriptionParams } from 'ex-streams/codecs';
 *
 * const params: SubscriptionParams = { binary: false, limit: '100' };
 * ```
 */
export type SubscriptionParams = t.TypeOf<typeof SubscriptionParamsCodec>;

/**
 * A subscription or unsubscription frame `{ symbol, topic, event, params, id }`. All fields are required;
 * `id` is an integer (numeric text accepted), echoed by the service as text.
 *
 * @example
 * ```ts
 * import { SubscriptionRequestCodec } from 'ex-streams/codecs';
 * SubscriptionRequestCodec.is({ symbol: 'BTCUSDT', topic: 'trade', event: 'sub', params: { binary: false }, id: 1 }); // true
 * ```
 */
export const SubscriptionRequestCodec = struct(
  'SubscriptionRequest',
  {
    symbol: t.string,
    topic: t.string,
    event: SubscriptionEventCodec,
    params: SubscriptionParamsCodec,
    id: IntFromNumberOrString,
  },
  {},
);
/**
 * A subscription or unsubscription frame.
 *
 * @example
 * ```ts
 * import type { SubscriptionRequest } from 'ex-streams/codecs';
 *
 * const request: SubscriptionRequest = { symbol: 'BTCUSDT', topic: 'trade', event: 'sub', params: { binary: false }, id: 1 };
 * ```
 */
export type SubscriptionRequest = t.TypeOf<typeof SubscriptionRequestCodec>;

/**
 * A client ping `{ ping }` carrying the client's time in ms.
 *
 * @example
 * ```ts
 * import { ClientPingCodec } from 'ex-streams/codecs';
 * ClientPingCodec.decode({ ping: 1626249138535 }); // right({ ping: 1626249138535 })
 * ```
 */
export const ClientPingCodec = t.type({ ping: IntFromNumberOrString }, 'ClientPing');
/**
 * A client ping frame.
 *
 * @example
 * ```ts
 * import type { ClientPing } from 'ex-streams/codecs';
 *
 * const ping: ClientPing = { ping: 1626249138535 };
 * ```
 */
export type ClientPing = t.TypeOf<typeof ClientPingCodec>;

/**
 * A client pong `{ pong }` answering a server ping with the same timestamp (no `channelId`).
 *
 * @example
 * ```ts
 * import { ClientPongCodec } from 'ex-streams/codecs';
 * ClientPongCodec.decode({ pong: 1626249138535 }); // right({ pong: 1626249138535 })
 * ```
 */
export const ClientPongCodec = t.type({ pong: IntFromNumberOrString }, 'ClientPong');
/**
 * A client pong frame.
 *
 * @example
 * ```ts
 * import type { ClientPong } from 'ex-streams/codecs';
 *
 * const pong: ClientPong = { pong: 1626249138535 };
 * ```
 */
export type ClientPong = t.TypeOf<typeof ClientPongCodec>;

/**
 * Extra params of a subscription frame.
 *
 * @example
 * ```ts
 * import { subscribeFrame, type SubscriptionExtraParams } from 'ex-streams/codecs';
 *
 * const extra: SubscriptionExtraParams = { limit: '100' };
 * subscribeFrame('BTCUSDT', 'trade', false, 7, extra);
 * // { symbol: 'BTCUSDT', topic: 'trade', event: 'sub', params: { binary: false, limit: '100' }, id: 7 }
 * ```
 */
export interface SubscriptionExtraParams {
  /** `params.limit` (text), as in the private stream sample; on `depth` and `mergedDepth`, the levels a side. Default: absent. */
  readonly limit?: string;
  /** `params.dumpScale` (text) of `mergedDepth` and `diffMergedDepth`: the decimals levels are merged to. Default: absent. */
  readonly dumpScale?: string;
}

/**
 * Builds a `sub` frame for one topic.
 *
 * @example
 * ```ts
 * import { subscribeFrame } from 'ex-streams/codecs';
 * subscribeFrame('BTCUSDT', 'kline_1m', false, 7);
 * // { symbol: 'BTCUSDT', topic: 'kline_1m', event: 'sub', params: { binary: false }, id: 7 }
 * ```
 */
export function subscribeFrame(
  symbol: string,
  topic: string,
  binary: boolean,
  id: number,
  extra: SubscriptionExtraParams = {},
): SubscriptionRequest {
  return { symbol, topic, event: 'sub', params: paramsOf(binary, extra), id };
}

/**
 * Builds an unsubscription frame: the subscription shape with `event` set to `cancel` (default, public
 * stream) or `cancel_all` (private stream).
 *
 * @example
 * ```ts
 * import { cancelFrame } from 'ex-streams/codecs';
 * cancelFrame('BTCUSDT', 'trade', false, 8);
 * // { symbol: 'BTCUSDT', topic: 'trade', event: 'cancel', params: { binary: false }, id: 8 }
 * ```
 */
export function cancelFrame(
  symbol: string,
  topic: string,
  binary: boolean,
  id: number,
  event: 'cancel' | 'cancel_all' = 'cancel',
  extra: SubscriptionExtraParams = {},
): SubscriptionRequest {
  return { symbol, topic, event, params: paramsOf(binary, extra), id };
}

/**
 * Builds a client ping frame `{ ping: timeMs }`.
 *
 * @example
 * ```ts
 * import { pingFrame } from 'ex-streams/codecs';
 * pingFrame(1626249138535); // { ping: 1626249138535 }
 * ```
 */
export function pingFrame(timeMs: number): ClientPing {
  return { ping: timeMs };
}

/**
 * Builds the pong answering a server ping: `{ pong }` with the ping's own timestamp.
 *
 * @example
 * ```ts
 * import { pongFrame } from 'ex-streams/codecs';
 * pongFrame(1626249138535); // { pong: 1626249138535 }
 * ```
 */
export function pongFrame(pingTimeMs: number): ClientPong {
  return { pong: pingTimeMs };
}

const paramsOf = (binary: boolean, { limit, dumpScale }: SubscriptionExtraParams): SubscriptionParams & { readonly dumpScale?: string } => ({
  binary,
  ...(limit !== undefined && { limit }),
  ...(dumpScale !== undefined && { dumpScale }),
});
