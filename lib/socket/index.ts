export { connection } from './connection';
export type { Connection, ConnectionConfig } from './connection';
export type { ConnectionStatus } from './connectionStatus';
export type { StreamStatus } from './streamStatus';
export { decodeFrame, DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_INFLATED_BYTES } from './decodeFrame';
export type { FrameLimits, RawInflater } from './decodeFrame';
export type { ServerClock } from './serverClock';
export type { WebSocketCtor, WebSocketLike, WebSocketMessageEventLike, WebSocketCloseEventLike } from './webSocketLike';
