/**
 * `ex-streams/connection`: the building blocks under `marketStreams` and `userStream`, for who builds their own
 * streams: the reference-counted websocket connection with its heartbeats and frame limits, the reconnect policy,
 * the listen-key lifecycle, and the socket interfaces to inject. Runs in browsers and in Node.
 *
 * @packageDocumentation
 */

// The connection
export { connection } from './socket/connection';
export type { Connection, ConnectionConfig } from './socket/connection';
export type { ConnectionStatus } from './socket/connectionStatus';
export { DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_INFLATED_BYTES } from './frame/frameLimits';
export type { RawInflater } from './frame/frameLimits';
export type { ServerClock } from './socket/serverClock';
export type { WebSocketCtor, WebSocketLike, WebSocketMessageEventLike, WebSocketCloseEventLike } from './socket/webSocketLike';

// Reconnects
export { reconnect } from './operators/reconnect';
export type { ReconnectConfig, ReconnectInfo } from './operators/reconnect';

// Listen keys
export { listenKey } from './user/listenKey';
export type { ListenKeyApi, ListenKeyConfig } from './user/listenKey';
