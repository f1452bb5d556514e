/**
 * ex-streams: typed, composable RxJS observables over a trading service's signed HTTP calls and
 * websocket streams. This is the core entry: it runs in browsers and in Node.
 *
 * @packageDocumentation
 */

// Errors
export {
  DecodeError,
  RequestRejectedError,
  RequestFailedError,
  ConfigError,
  ConnectionClosedError,
  HeartbeatTimeoutError,
  SendQueueFullError,
  SubscriptionRejectedError,
} from './errors';
export type { DecodeErrorKind } from './errors';

// Codecs
export { decodeWith } from './codecs/decode';
export { ListenKeyResponseCodec } from './codecs/listenKey';
export type { ListenKeyResponse } from './codecs/listenKey';
export { ErrorBodyCodec } from './codecs/errorBody';
export type { ErrorBody } from './codecs/errorBody';
